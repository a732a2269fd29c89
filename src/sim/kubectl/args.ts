// Flag parsing in the manner of cobra/pflag: long flags (--x=v, --x v), short flags (-n v, -nv),
// booleans (--force, --force=false), and pflag's error texts for unknown flags.

/**
 * Flag kinds (`strings`: pflag's StringSlice, comma-separated and repeatable, kept comma-joined;
 * `array`: pflag's StringArray, repeatable, each value whole, kept as a list).
 */
type FlagKind = 'bool' | 'string' | 'strings' | 'array';

/** One flag: its kind and optional short name. */
export interface FlagDef {
  kind: FlagKind;
  short?: string;
  /** pflag's NoOptDefVal: the value of a string flag given without one (`--cascade` alone). */
  noOptDefault?: string;
}

/** A parse failure with kubectl's message (the caller adds "See 'kubectl X --help' for usage."). */
export class FlagError extends Error {}

/** Parsed arguments. */
export interface Parsed {
  args: string[];
  flags: Record<string, string | boolean | string[]>;
}

/** Parse argv against flag definitions (keys are long names without dashes). */
export function parseFlags(argv: string[], defs: Record<string, FlagDef>): Parsed {
  const args: string[] = [];
  const flags: Record<string, string | boolean | string[]> = {};
  const byShort: Record<string, string> = {};
  for (const [k, d] of Object.entries(defs)) if (d.short) byShort[d.short] = k;
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i];
    if (a === '--') {
      args.push(...argv.slice(i + 1));
      break;
    }
    if (a.startsWith('--') && a.length > 2) {
      const eq = a.indexOf('=');
      const name = eq >= 0 ? a.slice(2, eq) : a.slice(2);
      const def = Object.hasOwn(defs, name) ? defs[name] : undefined;
      if (!def) throw new FlagError(`unknown flag: --${name}`);
      if (def.kind === 'bool') {
        if (eq >= 0) {
          const v = a.slice(eq + 1);
          // strconv.ParseBool; pflag names the flag with its shorthand (`-w, --watch`).
          const b = ['1', 't', 'T', 'TRUE', 'true', 'True'].includes(v)
            ? true
            : ['0', 'f', 'F', 'FALSE', 'false', 'False'].includes(v)
              ? false
              : undefined;
          if (b === undefined)
            throw new FlagError(
              `invalid argument "${v}" for "${def.short ? `-${def.short}, ` : ''}--${name}" flag: strconv.ParseBool: parsing "${v}": invalid syntax`,
            );
          flags[name] = b;
        } else flags[name] = true;
      } else if (eq >= 0) set(flags, name, def, a.slice(eq + 1));
      else if (def.noOptDefault !== undefined) set(flags, name, def, def.noOptDefault);
      else {
        if (i + 1 >= argv.length) throw new FlagError(`flag needs an argument: --${name}`);
        set(flags, name, def, argv[++i]);
      }
    } else if (a.startsWith('-') && a.length > 1 && a !== '-') {
      // pflag's parseShortArg: bool shorthands may be run together (`-it`); a valued one takes the rest.
      let rest = a.slice(1);
      while (rest) {
        const ch = rest[0];
        const name = Object.hasOwn(byShort, ch) ? byShort[ch] : undefined;
        if (!name) throw new FlagError(`unknown shorthand flag: '${ch}' in ${a}`);
        const def = defs[name];
        rest = rest.slice(1);
        if (def.kind === 'bool') {
          if (!rest.startsWith('=')) {
            flags[name] = true;
            continue;
          }
          const v = rest.slice(1);
          const b = ['1', 't', 'T', 'TRUE', 'true', 'True'].includes(v)
            ? true
            : ['0', 'f', 'F', 'FALSE', 'false', 'False'].includes(v)
              ? false
              : undefined;
          if (b === undefined)
            throw new FlagError(
              `invalid argument "${v}" for "-${ch}, --${name}" flag: strconv.ParseBool: parsing "${v}": invalid syntax`,
            );
          flags[name] = b;
          rest = '';
          continue;
        }
        if (rest.startsWith('=')) rest = rest.slice(1);
        if (rest) set(flags, name, def, rest);
        else {
          if (i + 1 >= argv.length) throw new FlagError(`flag needs an argument: '${ch}' in -${ch}`);
          set(flags, name, def, argv[++i]);
        }
        rest = '';
      }
    } else args.push(a);
  }
  return { args, flags };
}

/** A string flag takes the last value given; a slice flag adds each one's items to the earlier ones; an array flag each value. */
function set(flags: Record<string, string | boolean | string[]>, name: string, def: FlagDef, value: string): void {
  const prev = flags[name];
  if (def.kind === 'array') {
    flags[name] = [...(Array.isArray(prev) ? prev : []), value];
    return;
  }
  flags[name] = def.kind === 'strings' && typeof prev === 'string' && prev !== '' ? `${prev},${value}` : value;
}
