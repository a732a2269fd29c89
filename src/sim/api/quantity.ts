import { milliMemo, valueMemo } from './quantity-cache.ts';
// Kubernetes resource quantities (k8s.io/apimachinery/pkg/api/resource, v0.37): ParseQuantity with
// its errors and its int32 exponent, Value() and MilliValue() with their overflow rules, and Cmp.
// Go keeps a quantity as an int64Amount (value × 10^scale) or, past int64 or below 1n, an inf.Dec
// rounded up to nano; so do we, except that a power of ten is never built when its exponent is
// huge ("1e-300000000" is 1n and "1e999999999" one digit and an exponent, at once), so any string
// parses or is refused in time linear in its length.

/** ParseQuantity's three errors (quantity.go: ErrFormatWrong, ErrNumeric, ErrSuffix), with Go's texts. */
export class QuantityError extends Error {}

/** resource.ErrFormatWrong's text. */
export const ERR_FORMAT_WRONG =
  "quantities must match the regular expression '^([+-]?[0-9.]+)([eEinumkKMGTP]*[-+]?[0-9]*)$'";
/** resource.ErrNumeric's text. */
export const ERR_NUMERIC = 'unable to parse numeric part of quantity';
/** resource.ErrSuffix's text. */
export const ERR_SUFFIX = "unable to parse quantity's suffix";

/**
 * A parsed quantity worth `mantissa × 10^exp`: Go's int64Amount (`form: 'int64'`, mantissa an int64,
 * exp its scale ≥ -9) or its inf.Dec (`form: 'dec'`, exp ≥ -9 once rounded up to nano).
 */
export interface Quantity {
  form: 'int64' | 'dec';
  mantissa: bigint;
  exp: number;
  format: 'DecimalSI' | 'BinarySI' | 'DecimalExponent';
  /** The input string, kept where ParseQuantity finds it already canonical (Go's q.s): String() gives it back. */
  s?: string;
}

const MAX_INT64 = (1n << 63n) - 1n;
const NANO = -9; // resource.Nano
const MAX_INT64_FACTORS = 18; // math.go: maxInt64Factors

/** Go's int32 conversion and int32 arithmetic: wraps around. */
const int32 = (n: number): number => Number(BigInt.asIntN(32, BigInt(n)));

// suffix.go fastLookup/newSuffixer: the suffixes the tables know, as [base, exponent, format].
const SUFFIXES: Record<string, [number, number, Quantity['format']]> = {
  '': [10, 0, 'DecimalSI'],
  n: [10, -9, 'DecimalSI'],
  u: [10, -6, 'DecimalSI'],
  m: [10, -3, 'DecimalSI'],
  k: [10, 3, 'DecimalSI'],
  M: [10, 6, 'DecimalSI'],
  G: [10, 9, 'DecimalSI'],
  T: [10, 12, 'DecimalSI'],
  P: [10, 15, 'DecimalSI'],
  E: [10, 18, 'DecimalSI'],
  Ki: [2, 10, 'BinarySI'],
  Mi: [2, 20, 'BinarySI'],
  Gi: [2, 30, 'BinarySI'],
  Ti: [2, 40, 'BinarySI'],
  Pi: [2, 50, 'BinarySI'],
  Ei: [2, 60, 'BinarySI'],
};

/** strconv.ParseInt(s, 10, 64), or undefined where Go returns an error (empty, a bad byte, out of range). */
function parseInt64(s: string): bigint | undefined {
  const m = /^([+-]?)0*(\d*)$/.exec(s);
  if (!m || !/\d/.test(s)) return undefined;
  if (m[2].length > 19) return undefined; // past 2^63 whatever the digits: no BigInt of the string's size
  const v = BigInt(m[1] + (m[2] || '0'));
  return v > MAX_INT64 || v < -MAX_INT64 - 1n ? undefined : v;
}

/** suffixHandler.interpret: base, exponent (int32, as Go truncates the int64 it parsed) and format, or undefined. */
function interpret(suffix: string): [number, number, Quantity['format']] | undefined {
  if (Object.hasOwn(SUFFIXES, suffix)) return SUFFIXES[suffix];
  if (suffix.length > 1 && (suffix[0] === 'e' || suffix[0] === 'E')) {
    const parsed = parseInt64(suffix.slice(1));
    return parsed === undefined ? undefined : [10, Number(BigInt.asIntN(32, parsed)), 'DecimalExponent'];
  }
  return undefined;
}

const isDigit = (c: string | undefined): boolean => c !== undefined && c >= '0' && c <= '9';

/** parseQuantityString: sign, the numeric part as written, its digits before and after the point, the suffix. */
function scan(str: string): { positive: boolean; value: string; num: string; denom: string; suffix: string } {
  let pos = 0;
  const end = str.length;
  const positive = str[0] !== '-';
  if (str[0] === '-' || str[0] === '+') pos++;
  while (pos < end && str[pos] === '0') pos++;
  if (pos >= end) return { positive, value: '0', num: '0', denom: '', suffix: '' };
  let i = pos;
  while (i < end && isDigit(str[i])) i++;
  if (i >= end) return { positive, value: str, num: str.slice(pos), denom: '', suffix: '' };
  const num = str.slice(pos, i) || '0';
  pos = i;
  let denom = '';
  if (str[pos] === '.') {
    pos++;
    i = pos;
    while (i < end && isDigit(str[i])) i++;
    denom = str.slice(pos, i);
    if (i >= end) return { positive, value: str, num, denom, suffix: '' };
    pos = i;
  }
  const value = str.slice(0, pos);
  const suffixStart = pos;
  while (pos < end && 'eEinumkKMGTP'.includes(str[pos])) pos++;
  if (pos < end && (str[pos] === '-' || str[pos] === '+')) pos++;
  while (pos < end && isDigit(str[pos])) pos++;
  if (pos < end) throw new QuantityError(ERR_FORMAT_WRONG);
  return { positive, value, num, denom, suffix: str.slice(suffixStart) };
}

/** How many decimal digits a bigint has, its sign left out. */
export const digitCount = (n: bigint): number => (n < 0n ? -n : n).toString().length;

/**
 * resource.ParseQuantity (quantity.go, ParseQuantity): the quantity, or a QuantityError with Go's
 * text. Go does not trim; Quantity.UnmarshalJSON does (see quantityOf).
 */
export function parseQuantity(str: string): Quantity {
  if (str.length === 0) throw new QuantityError(ERR_FORMAT_WRONG);
  if (str === '0') return { form: 'int64', mantissa: 0n, exp: 0, format: 'DecimalSI', s: str };
  const { positive, value, num, denom, suffix } = scan(str);
  const interpreted = interpret(suffix);
  if (!interpreted) throw new QuantityError(ERR_SUFFIX);
  const [base, exponent] = interpreted;
  let format = interpreted[2];

  // The int64 fast path: few enough digits, and a scale of at least nano (Go's int32 arithmetic).
  let precision: number;
  let scale = 0;
  let mantissa = 1n;
  if (format !== 'BinarySI') {
    scale = exponent;
    precision = MAX_INT64_FACTORS - (num.length + denom.length);
  } else if (exponent >= 0 && denom.length === 0) {
    mantissa = 1n << BigInt(exponent);
    precision = 15 - num.length - Math.trunc((exponent * 3) / 10) - 1;
  } else precision = -1;
  if (precision >= 0) {
    scale = int32(scale - denom.length);
    if (scale >= NANO) {
      const shifted = num + denom;
      const value = BigInt(shifted);
      const result = value * mantissa;
      if (result <= MAX_INT64) {
        const q: Quantity = { form: 'int64', mantissa: positive ? result : -result, exp: scale, format };
        // "if the number is in canonical form, reuse the string" (Go's test, which lets "+1" through).
        if (
          format === 'BinarySI'
            ? exponent % 10 === 0 && (value & 7n) !== 0n
            : scale % 3 === 0 && !shifted.endsWith('000') && shifted[0] !== '0'
        )
          q.s = str;
        return q;
      }
    }
  }

  // The inf.Dec path: amount.SetString(value) fails on a numeric part with no digit ("+", "-.").
  const m = /^([+-]?)(\d*)(?:\.(\d*))?$/.exec(value);
  if (!m || !/\d/.test(value)) throw new QuantityError(ERR_NUMERIC);
  let abs = BigInt((m[2] || '') + (m[3] || '') || '0');
  // inf's scale counts digits after the point; the exponent comes off it (int32, wrapping like Go's).
  let infScale = (m[3] || '').length;
  if (base === 10) infScale = int32(infScale + (exponent === -(2 ** 31) ? exponent : -exponent));
  else abs <<= BigInt(exponent);
  // Round(amount, Nano, RoundUp): a non-zero magnitude below 1n becomes 1n. Go divides by 10^(scale-9);
  // past the number's own digits the quotient is 0 with a remainder, so 1, without that power.
  if (abs !== 0n && infScale > -NANO) {
    const drop = infScale + NANO;
    if (drop > digitCount(abs)) abs = 1n;
    else {
      const p = 10n ** BigInt(drop);
      abs = abs / p + (abs % p === 0n ? 0n : 1n);
    }
    infScale = -NANO;
  }
  // The cap on BinarySI (maxAllowed, 2^63-1) and its switch to DecimalSI below 1.
  if (format === 'BinarySI') {
    const p = 10n ** BigInt(Math.max(infScale, 0));
    if (abs > MAX_INT64 * p) {
      abs = MAX_INT64;
      infScale = 0;
    }
    if (abs !== 0n && abs < p) format = 'DecimalSI';
  }
  return { form: 'dec', mantissa: positive ? abs : -abs, exp: 0 - infScale, format };
}

/** Quantity.UnmarshalJSON's reading of a manifest value: strings trimmed, numbers by their JSON text. */
export function quantityOf(input: string | number): Quantity {
  return parseQuantity(typeof input === 'number' ? JSON.stringify(input) : input.trim());
}

/** 10^e mod 2^64, by squaring: the low bits Go's big.Int.Int64 keeps of a huge result. */
function pow10Low64(e: number): bigint {
  let result = 1n;
  let base = 10n;
  for (let k = BigInt(e); k > 0n; k >>= 1n) {
    if (k & 1n) result = BigInt.asUintN(64, result * base);
    base = BigInt.asUintN(64, base * base);
  }
  return result;
}

/**
 * Quantity.ScaledValue(scale): ceil(q / 10^scale) as Go's int64. An int64Amount that overflows gives
 * 0 (AsScaledInt64 drops positiveScaleInt64's ok) and rounds away from zero (negativeScaleInt64); an
 * inf.Dec takes scaledValue's paths, its big one keeping the low 64 bits (big.Int.Int64).
 */
export function scaledValue(q: Quantity, scale: number): bigint {
  const v = q.mantissa;
  if (q.form === 'int64') {
    if (q.exp >= scale) {
      const d = q.exp - scale;
      if (v === 0n || d === 0) return v;
      if (d > 19) return 0n;
      const r = v * 10n ** BigInt(d);
      return r > MAX_INT64 || r < -MAX_INT64 - 1n ? 0n : r;
    }
    const d = scale - q.exp;
    if (d > 19) return v > 0n ? 1n : v < 0n ? -1n : 0n;
    const p = 10n ** BigInt(d);
    const t = v / p;
    return v % p === 0n ? t : v > 0n ? t + 1n : t - 1n;
  }
  // The Dec's unscaled value at inf scale 9 is U = mantissa × 10^k, and dif = 9 + scale digits go.
  if (v === 0n) return 0n;
  const k = q.exp - NANO;
  const dif = -NANO + scale;
  const neg = v < 0n;
  const abs = neg ? -v : v;
  if (neg || (k <= 19 && abs * 10n ** BigInt(k) < MAX_INT64)) {
    // U < MaxInt64: int64 arithmetic on unscaled.Int64() (its low 64 bits), `/` and `%` truncating.
    const low = BigInt.asUintN(64, BigInt.asUintN(64, abs) * pow10Low64(k));
    const x = BigInt.asIntN(64, neg ? -low : low);
    const p = 10n ** BigInt(dif);
    return BigInt.asIntN(64, x / p + (x % p === 0n ? 0n : 1n));
  }
  // U ≥ MaxInt64: big.Int DivMod, +1 on a remainder, then Int64() (the low 64 bits).
  if (k >= dif) return BigInt.asIntN(64, BigInt.asUintN(64, abs) * pow10Low64(k - dif));
  const u = abs * 10n ** BigInt(k);
  const p = 10n ** BigInt(dif);
  return BigInt.asIntN(64, u / p + (u % p === 0n ? 0n : 1n));
}

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
  return remember(valueMemo, input, Number(scaledValue(quantityOf(input), 0)));
}

/** Quantity.MilliValue(): the value in thousandths (millicores), rounded up. */
export function quantityMilliValue(input: string | number | undefined): number {
  if (input === undefined) return 0;
  const m = milliMemo.get(input);
  if (m !== undefined) return m;
  return remember(milliMemo, input, Number(scaledValue(quantityOf(input), -3)));
}

// suffix.go's tables read backwards: a base-10 exponent to its DecimalSI suffix.
const DECIMAL_SUFFIX: Record<number, string> = {
  [-9]: 'n',
  [-6]: 'u',
  [-3]: 'm',
  0: '',
  3: 'k',
  6: 'M',
  9: 'G',
  12: 'T',
  15: 'P',
  18: 'E',
};
const BINARY_SUFFIX = ['', 'Ki', 'Mi', 'Gi', 'Ti', 'Pi', 'Ei'];

/**
 * Quantity.String() and MarshalJSON: how the API server writes every quantity it stores. The input
 * when ParseQuantity kept it, else CanonicalizeBytes: "0.5" → "500m", "1.5Gi" → "1536Mi", "1000m" →
 * "1". A suffix past the tables is dropped, as Go does ("1000E" → "1").
 */
export function quantityString(q: Quantity): string {
  if (q.s !== undefined) return q.s;
  if (q.mantissa === 0n) return '0';
  const neg = q.mantissa < 0n;
  let abs = neg ? -q.mantissa : q.mantissa;
  let format = q.format;
  // BinarySI only for values of at least 1024 that are whole numbers (AsScale(0) exact).
  let whole: bigint | undefined;
  if (format === 'BinarySI') {
    if (q.exp >= 0) whole = abs * 10n ** BigInt(q.exp);
    else if (abs % 10n ** BigInt(-q.exp) === 0n) whole = abs / 10n ** BigInt(-q.exp);
    if (whole === undefined || whole < 1024n) format = 'DecimalSI';
  }
  const sign = neg ? '-' : '';
  if (format === 'BinarySI') {
    // AsCanonicalBase1024Bytes: the factors of 1024 go into the suffix.
    let w = whole as bigint;
    let times = 0;
    while (w >= 1024n && w % 1024n === 0n) {
      w /= 1024n;
      times++;
    }
    return `${sign}${w}${BINARY_SUFFIX[times] ?? ''}`;
  }
  // AsCanonicalBytes: the factors of 10 into the exponent, then down to a multiple of 3.
  let exp = q.exp;
  while (abs >= 10n && abs % 10n === 0n) {
    abs /= 10n;
    exp++;
  }
  while (exp % 3 !== 0) {
    abs *= 10n;
    exp--;
  }
  const suffix = format === 'DecimalExponent' ? (exp === 0 ? '' : `e${exp}`) : (DECIMAL_SUFFIX[exp] ?? '');
  return `${sign}${abs}${suffix}`;
}
