// The flags every command takes (namespace, kubeconfig, --as …) and the parse that adds them to a
// command's own, with pflag's errors worded as kubectl prints them.
import { FlagError, parseFlags, type FlagDef, type Parsed } from '../args.ts';
import { parseDurationMs } from '../../util/parse-duration.ts';
import { Fail, type Run } from './util.ts';
import { setOf } from '../../util/table.ts';

const NS: Record<string, FlagDef> = { namespace: { kind: 'string', short: 'n' } };
const COMMON: Record<string, FlagDef> = {
  ...NS,
  kubeconfig: { kind: 'string' },
  context: { kind: 'string' },
  'request-timeout': { kind: 'string' },
  as: { kind: 'string' },
  'as-group': { kind: 'string' },
};
/** Global flags without a value that may come before the command. */
export const GLOBAL_BOOL = setOf(['-h', '--help']);
/** Global flags that take a value (for the ones given before the command). */
export const GLOBAL_VALUED = setOf([
  '-n',
  '--namespace',
  '--kubeconfig',
  '--context',
  '--request-timeout',
  '--as',
  '--as-group',
]);

/** Parse a command's argv against its flags and the global ones; --as/--as-group set the impersonation. */
export function parse(r: Run, cmd: string, argv: string[], defs: Record<string, FlagDef>): Parsed {
  let p: Parsed;
  try {
    p = parseFlags(argv, { ...COMMON, help: { kind: 'bool', short: 'h' }, ...defs });
  } catch (e) {
    if (e instanceof FlagError) throw new Fail(`error: ${e.message}\nSee 'kubectl ${cmd} --help' for usage.`);
    throw e;
  }
  // clientcmd's ParseTimeout: whole seconds, or a Go duration; sent on every request as `?timeout=`.
  const rt = str(p, 'request-timeout');
  if (rt !== undefined) {
    const ms = /^\d+$/.test(rt) ? Number(rt) * 1000 : parseDurationMs(rt);
    if (ms === undefined)
      throw new Fail(
        'error: Invalid timeout value. Timeout must be a single integer in seconds, or an integer followed by a corresponding time unit (e.g. 1s | 2m | 3h)',
      );
    r.requestTimeoutMs = ms || undefined;
  }
  const as = str(p, 'as');
  const group = str(p, 'as-group');
  // (The simulator's own wording: a group alone is not sent.)
  if (group !== undefined && !as) throw new Fail('error: --as-group needs --as in this simulator');
  if (as) r.impersonate = group !== undefined ? { user: as, groups: [group] } : { user: as };
  return p;
}

/** A string flag's value (undefined when not given). */
export function str(p: Parsed, k: string): string | undefined {
  const v = p.flags[k];
  return typeof v === 'string' ? v : undefined;
}
/** An array flag's values, in order (none when not given). */
export function arr(p: Parsed, k: string): string[] {
  const v = p.flags[k];
  return Array.isArray(v) ? v : [];
}
/** Whether a bool flag is set. */
export function bool(p: Parsed, k: string): boolean {
  return p.flags[k] === true;
}
/** The namespace the command acts in (-n, else default). */
export function nsOf(p: Parsed): string {
  return str(p, 'namespace') || 'default';
}
