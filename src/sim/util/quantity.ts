// Kubernetes resource quantities (k8s.io/apimachinery/pkg/api/resource), reduced to what the
// scheduler needs: Value() and MilliValue(), both rounded up like Quantity's methods.

/** A quantity as an exact rational number `num / den` (BigInt, so "1Ei" and "1n" stay exact). */
export interface Rational {
  num: bigint;
  den: bigint;
}

const BINARY: Record<string, bigint> = {
  Ki: 1n << 10n,
  Mi: 1n << 20n,
  Gi: 1n << 30n,
  Ti: 1n << 40n,
  Pi: 1n << 50n,
  Ei: 1n << 60n,
};

const DECIMAL_EXP: Record<string, number> = { n: -9, u: -6, m: -3, '': 0, k: 3, M: 6, G: 9, T: 12, P: 15, E: 18 };

// <sign><digits>[.<digits>]<suffix>, suffix being binary-SI, decimal-SI or a decimal exponent.
const QUANTITY_RE = /^([+-]?)(\d+(?:\.\d*)?|\.\d+)(Ki|Mi|Gi|Ti|Pi|Ei|[numkMGTPE]|[eE][+-]?\d+)?$/;

/** Parses a quantity string ("100m", "2", "512Mi", "1G", "1e3") into an exact rational; throws on bad input. */
export function parseQuantity(input: string | number): Rational {
  if (typeof input === 'number') {
    if (!Number.isFinite(input)) throw new Error(`quantities must match the regular expression: ${input}`);
    return parseQuantity(String(input));
  }
  const m = QUANTITY_RE.exec(input.trim());
  if (!m) throw new Error(`quantities must match the regular expression '^([+-]?[0-9.]+)([eEinumkKMGTP]*[-+]?[0-9]*)$': ${input}`);
  const [, sign, digits, suffix = ''] = m;
  const [intPart, fracPart = ''] = digits.split('.');
  let num = BigInt((intPart || '0') + fracPart);
  let den = 10n ** BigInt(fracPart.length);
  if (suffix in BINARY) {
    num *= BINARY[suffix];
  } else {
    const exp = suffix.length > 1 || suffix === 'e' || suffix === 'E' ? Number(suffix.slice(1)) : DECIMAL_EXP[suffix];
    if (exp >= 0) num *= 10n ** BigInt(exp);
    else den *= 10n ** BigInt(-exp);
  }
  if (sign === '-') num = -num;
  return { num, den };
}

function ceilDiv(a: bigint, b: bigint): bigint {
  const q = a / b;
  return a % b !== 0n && a > 0n ? q + 1n : q;
}

// Value() and MilliValue() of the strings seen so far: a cluster uses a handful of quantity strings
// ("10m", "16Mi", "4") millions of times. Bounded so odd inputs cannot grow it without limit.
const valueMemo = new Map<string | number, number>();
const milliMemo = new Map<string | number, number>();
function remember(memo: Map<string | number, number>, input: string | number, v: number): number {
  if (memo.size >= 4096) memo.clear();
  memo.set(input, v);
  return v;
}

/** Quantity.Value(): the value in base units (bytes, cores), rounded up. */
export function quantityValue(input: string | number | undefined): number {
  if (input === undefined) return 0;
  const m = valueMemo.get(input);
  if (m !== undefined) return m;
  const { num, den } = parseQuantity(input);
  return remember(valueMemo, input, Number(ceilDiv(num, den)));
}

/** Quantity.MilliValue(): the value in thousandths (millicores), rounded up. */
export function quantityMilliValue(input: string | number | undefined): number {
  if (input === undefined) return 0;
  const m = milliMemo.get(input);
  if (m !== undefined) return m;
  const { num, den } = parseQuantity(input);
  return remember(milliMemo, input, Number(ceilDiv(num * 1000n, den)));
}
