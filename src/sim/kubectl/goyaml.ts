// Plain YAML scalars as kubectl reads them: sigs.k8s.io/yaml converts YAML to JSON through its fork
// of go-yaml v2, which resolves plain scalars by YAML 1.1's rules (resolve.go), not YAML 1.2's:
// `yes`, `on`, `y` are true and `no`, `off`, `n` false; `0777` is octal; `1_000` is 1000; a
// number that overflows a float64 (`1e400`) stays the string it was; timestamps stay strings
// (decoded into interface{}). Quoted and block scalars are always strings.
import type { ScalarTag } from 'yaml';

/** go-yaml v2's resolveMap booleans. */
const BOOLS = /^(?:y|Y|yes|Yes|YES|n|N|no|No|NO|true|True|TRUE|false|False|FALSE|on|On|ON|off|Off|OFF)$/;
/** yamlStyleFloat. */
const YAML_STYLE_FLOAT = /^[-+]?(\.[0-9]+|[0-9]+(\.[0-9]*)?)([eE][-+]?[0-9]+)?$/;

/** strconv.ParseInt(s, 0, 64) and then ParseUint(s, 0, 64): the integer, or undefined where both fail. */
function parseGoInt(s: string): number | undefined {
  const m = /^([-+]?)(0[xX][0-9a-fA-F]+|0[oO][0-7]+|0[bB][01]+|0[0-7]*|[1-9][0-9]*)$/.exec(s);
  if (!m) return undefined;
  const body = m[2];
  let big: bigint;
  if (/^0[0-7]+$/.test(body))
    big = BigInt('0o' + body.slice(1)); // a leading 0 is octal
  else
    big = BigInt(
      body
        .replace(/^0[oO]/, '0o')
        .replace(/^0[xX]/, '0x')
        .replace(/^0[bB]/, '0b'),
    );
  if (m[1] === '-') big = -big;
  // int64, else (no sign) uint64.
  const fits = big >= -(2n ** 63n) && (big < 2n ** 63n || (m[1] === '' && big < 2n ** 64n));
  return fits ? Number(big) : undefined;
}

/**
 * go-yaml v2's resolve for a plain scalar that starts like a number (`+`, `-`, `.`, a digit): an
 * int (underscores dropped), else a float strconv.ParseFloat takes without a range error, else the
 * string itself.
 */
export function resolveNumber(s: string): number | string {
  if (s[0] === '.') {
    // The '.' hint: ParseFloat on the text as written (no underscores dropped).
    if (!YAML_STYLE_FLOAT.test(s)) return s;
    const f = Number(s);
    return Number.isFinite(f) ? f : s;
  }
  const plain = s.replace(/_/g, '');
  const i = parseGoInt(plain);
  if (i !== undefined) return i;
  if (YAML_STYLE_FLOAT.test(plain)) {
    const f = Number(plain);
    if (Number.isFinite(f)) return f;
  }
  return s;
}

/** The scalar tags of go-yaml v2's resolution, for the `yaml` library's failsafe schema (strings otherwise). */
export const GO_YAML_V2_TAGS: ScalarTag[] = [
  { tag: 'tag:yaml.org,2002:null', default: true, test: /^(?:~|null|Null|NULL)?$/, resolve: () => null },
  { tag: 'tag:yaml.org,2002:bool', default: true, test: BOOLS, resolve: (s: string) => /^(?:[yYtT]|[oO][nN])/.test(s) },
  {
    tag: 'tag:yaml.org,2002:float',
    default: true,
    test: /^(?:[-+]?\.(?:inf|Inf|INF)|\.(?:nan|NaN|NAN))$/,
    resolve: (s: string) => (/nan$/i.test(s) ? NaN : s[0] === '-' ? -Infinity : Infinity),
  },
  { tag: 'tag:yaml.org,2002:int', default: true, test: /^[-+.0-9]/, resolve: resolveNumber },
];
