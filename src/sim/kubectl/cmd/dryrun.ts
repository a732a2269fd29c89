// --dry-run and -o for the commands that write (cmdutil.GetDryRunStrategy, PrintFlagsWithDryRunStrategy):
// client sends nothing, server sends the write with dryRun=All (the API server runs it and stores
// nothing); either way kubectl prints what the write would have left, or `TYPE/NAME verb (dry run)`.
import type { RequestOptions } from '../../api/request.ts';
import { deepEqual } from '../../util/names.ts';
import type { FlagDef, Parsed } from '../args.ts';
import { executeJsonPath, parseJsonPath } from '../jsonpath.ts';
import { toJSON, toTypedJSON, toYAML } from '../printers.ts';
import { str } from './flags.ts';
import { Fail, type MetaObject, type Run } from './util.ts';
import { setOf } from '../../util/table.ts';

/** cmdutil.DryRunStrategy. */
export type DryRun = 'none' | 'client' | 'server';

/** The --dry-run and -o flags (pflag's NoOptDefVal "unchanged": `--dry-run` alone is the deprecated client). */
export const WRITE_FLAGS: Record<string, FlagDef> = {
  'dry-run': { kind: 'string', noOptDefault: 'unchanged' },
  output: { kind: 'string', short: 'o' },
};

/** GetDryRunStrategy: none, client or server (the deprecated forms warn, as klog does, on stderr). */
export function dryRunStrategy(r: Run, p: Parsed, quiet = false): DryRun {
  const v = str(p, 'dry-run') ?? 'none';
  switch (v) {
    case 'client':
    case 'server':
    case 'none':
      return v;
    case 'unchanged':
      if (!quiet) r.warn('--dry-run is deprecated and can be replaced with --dry-run=client.\n');
      return 'client';
  }
  const b = ['1', 't', 'T', 'TRUE', 'true', 'True'].includes(v)
    ? true
    : ['0', 'f', 'F', 'FALSE', 'false', 'False'].includes(v)
      ? false
      : undefined;
  if (b === undefined) throw new Fail(`error: Invalid dry-run value (${v}). Must be "none", "server", or "client".`);
  if (!quiet)
    r.warn(
      `--dry-run=${v} is deprecated (boolean value) and can be replaced with --dry-run=${b ? 'client' : 'none'}.\n`,
    );
  return b ? 'client' : 'none';
}

/** The options a write carries: dryRun=All on a server dry run. */
export function writeOptions(dry: DryRun, options?: RequestOptions): RequestOptions | undefined {
  return dry === 'server' ? { ...options, dryRun: true } : options;
}

/** What PrintFlagsWithDryRunStrategy adds to the operation: " (dry run)", " (server dry run)" or nothing. */
export function dryRunSuffix(dry: DryRun): string {
  return dry === 'client' ? ' (dry run)' : dry === 'server' ? ' (server dry run)' : '';
}

/** The -o values the writing commands print with (cli-runtime's PrintFlags, jsonpath among them). */
const OUTPUTS = ['', 'json', 'yaml', 'name'];

/** PrintFlags' AllowedFormats for the writing commands, as kubectl 1.37 lists them. */
const WRITE_FORMATS =
  'go-template,go-template-file,json,jsonpath,jsonpath-as-json,jsonpath-file,kyaml,name,template,templatefile,yaml';

/** Formats real kubectl prints and this simulator does not: said so, rather than "unable to match". */
const FORMATS_NOT_SIMULATED = setOf([
  'go-template',
  'go-template-file',
  'template',
  'templatefile',
  'jsonpath-file',
  'jsonpath-as-json',
  'custom-columns-file',
  'kyaml',
]);

/** A real -o format the simulator leaves out (`-o go-template=…`), or undefined. */
export function formatNotSimulated(o: string): string | undefined {
  const name = o.includes('=') ? o.slice(0, o.indexOf('=')) : o;
  return FORMATS_NOT_SIMULATED.has(name)
    ? `error: -o ${name} is a real output format that this simulator does not print (json, yaml, name and jsonpath are here)`
    : undefined;
}

/** The template of -o jsonpath=…, parsed as the printer parses it (its error as kubectl words it). */
function jsonPathOutput(o: string): string | undefined {
  if (!o.startsWith('jsonpath=')) return undefined;
  const template = o.slice('jsonpath='.length);
  try {
    parseJsonPath(template);
  } catch (e) {
    throw new Fail(`error: error parsing jsonpath ${template}, ${(e as Error).message}`);
  }
  return template;
}

/** Refuse an -o the printer cannot match, before anything is sent. */
export function checkOutput(p: Parsed): void {
  const o = str(p, 'output') ?? '';
  if (OUTPUTS.includes(o) || jsonPathOutput(o) !== undefined) return;
  throw new Fail(
    formatNotSimulated(o) ??
      `error: unable to match a printer suitable for the output format "${o}", allowed formats are: ${WRITE_FORMATS}`,
  );
}

/** JSONPathPrinter.PrintObj: the template's text, or its execution error (the command fails). */
export function printJsonPath(r: Run, template: string, data: unknown): void {
  const res = executeJsonPath(template, data);
  if ('error' in res) throw new Fail(res.error);
  r.print(res.text);
}

/**
 * Print the result of one write as PrintFlags does: the object for -o json|yaml, `TYPE/NAME` for
 * -o name, else `TYPE/NAME OPERATION` with the dry-run suffix. `typed`: the object is a Go struct a
 * generator built (create deployment|namespace|service, run), which -o json writes in field order.
 */
export function printWritten(
  r: Run,
  p: Parsed,
  dry: DryRun,
  what: string,
  operation: string,
  obj: unknown,
  typed = false,
): void {
  const o = str(p, 'output') ?? '';
  const jsonpath = jsonPathOutput(o);
  if (jsonpath !== undefined) printJsonPath(r, jsonpath, obj);
  else if (o === 'json') r.print((typed ? toTypedJSON(obj) : toJSON(obj)) + '\n');
  else if (o === 'yaml') r.print(toYAML(obj));
  else if (o === 'name') r.print(`${what}\n`);
  else r.print(`${what} ${operation}${dryRunSuffix(dry)}\n`);
}

/** Whether two versions of an object are the same but for their resourceVersion (what a write would change). */
export function sameObject(a: unknown, b: unknown): boolean {
  const strip = (v: unknown) => {
    const o = v as MetaObject | undefined;
    return o?.metadata ? { ...o, metadata: { ...o.metadata, resourceVersion: undefined } } : o;
  };
  return deepEqual(strip(a), strip(b));
}
