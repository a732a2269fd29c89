// kubectl over the simulated cluster: the commands, their flags, their output and their errors,
// as the real kubectl prints them. Pure TypeScript (runs in the browser terminal and the CLI).
import { parseAllDocuments } from 'yaml';
import type { ApiRequest, ApiResult } from '../apiserver/request.ts';
import { RESOURCES } from '../apiserver/resources.ts';
import { labelSelectorAsString, matchesLabels, parseLabelSelector } from '../util/labels.ts';
import { KUBECTL_CONNECTION_REFUSED, type Status } from '../apiserver/status.ts';
import type { SimCluster } from '../cluster-types.ts';
import { parseTime, rfc3339 } from '../util/time.ts';
import { translateTimestampSince } from '../util/duration.ts';
import { storeGet, storeKey } from '../apiserver/store.ts';
import { FlagError, parseFlags, type FlagDef, type Parsed } from './args.ts';
import { deploymentFor, scaleRequest } from './generators.ts';
import { describeDeployment, describeEndpointSlice, describeGeneric, describeNamespace, describeNode, describePod, describeReplicaSet, describeService, podTemplateText, sameTemplate } from './describe.ts';
import { asList, printTable, toJSON, toYAML, type TableOptions } from './printers.ts';
import { DESCRIBE_TABS, GET_TABS, tabwrite } from './tabwriter.ts';
import { kindInfo, resolveKind, resourceForKind, shortNames, type KindInfo } from './resources.ts';
import { TokenizeError, tokenize } from './tokenize.ts';
import { parseJsonPath, renderJsonPath } from './jsonpath.ts';
import { SortByError, sortByField, sortField } from './sort-by.ts';
import { CustomColumnsError, parseCustomColumns, printCustomColumns, type CustomColumn } from './custom-columns.ts';

// eslint-disable-next-line @typescript-eslint/no-explicit-any
type Obj = any;

/** What one kubectl invocation printed and its exit code. */
export interface KubectlResult { stdout: string; stderr: string; exitCode: number }

/** Host services the pure interpreter cannot reach on its own (files for `apply -f FILE`). */
export interface KubectlHost {
  /** Contents of a file, or undefined when it does not exist. */
  readFile?(path: string): string | undefined;
}

/** The client and server version this kubectl reports. */
export const KUBECTL_VERSION = 'v1.35.0';
/** Largest manifest `apply` accepts (bytes). */
export const MAX_MANIFEST_BYTES = 64 * 1024;
/** Most documents in one manifest. */
export const MAX_MANIFEST_DOCUMENTS = 20;
/** YAML alias expansion limit (billion-laughs guard). */
export const MAX_ALIAS_COUNT = 100;

/** A failure that ends the command: printed as-is on stderr (kubectl formats it first). */
class Fail extends Error {}

class Run {
  out = '';
  err = '';
  failed = false;
  readonly cluster: SimCluster;
  readonly stdin: string | undefined;
  readonly host: KubectlHost;
  constructor(cluster: SimCluster, stdin: string | undefined, host: KubectlHost) { this.cluster = cluster; this.stdin = stdin; this.host = host; }
  print(s: string): void { this.out += s; }
  warn(s: string): void { this.err += s; }
  error(s: string): void { this.err += s.endsWith('\n') ? s : s + '\n'; this.failed = true; }
  get now(): number { return this.cluster.now; }

  /** --as/--as-group: every request of the command carries them (the Impersonate-* headers). */
  impersonate: { user: string; groups?: string[] } | undefined;
  req(r: ApiRequest): ApiResult<unknown> {
    return this.cluster.request(this.impersonate ? { ...r, options: { ...r.options, impersonate: this.impersonate } } : r);
  }
  /** A request that must succeed (else the command ends with kubectl's rendering of the error). */
  must<T = Obj>(r: ApiRequest): T {
    const res = this.req(r);
    if (!res.ok) throw new Fail(apiError(res.status));
    return res.object as T;
  }
}

/** checkErr: Invalid as `The Kind "name" is invalid: …`, other API errors as `Error from server (Reason): …`. */
export function apiError(s: Status): string {
  if (s.code === 0) return KUBECTL_CONNECTION_REFUSED;
  if (s.reason === 'Invalid') {
    // A Status with details but no kind or name (NewGenericServerResponse's 422, a refused JSON
    // patch) keeps the generic head and, without causes, adds the server's message.
    const causes = s.details?.causes ?? [];
    const named = s.details && (s.details.kind || s.details.name);
    const head = named ? `The ${s.details!.kind} "${s.details!.name}" is invalid` : 'The request is invalid';
    if (!causes.length) return named || !s.message ? head : `${head}: ${s.message}`;
    if (causes.length === 1) return `${head}: ${causes[0].field}: ${causes[0].message}`;
    return `${head}: \n${causes.map((c) => `* ${c.field}: ${c.message}`).join('\n')}`;
  }
  if (s.reason && s.reason !== 'Unknown') return `Error from server (${s.reason}): ${s.message}`;
  return `Error from server: ${s.message}`;
}

const NS: Record<string, FlagDef> = { namespace: { kind: 'string', short: 'n' } };
const COMMON: Record<string, FlagDef> = {
  ...NS, kubeconfig: { kind: 'string' }, context: { kind: 'string' }, 'request-timeout': { kind: 'string' },
  as: { kind: 'string' }, 'as-group': { kind: 'string' },
};
/** Global flags that take a value (for the ones given before the command). */
const GLOBAL_VALUED = new Set(['-n', '--namespace', '--kubeconfig', '--context', '--request-timeout', '--as', '--as-group']);

function parse(r: Run, cmd: string, argv: string[], defs: Record<string, FlagDef>): Parsed {
  let p: Parsed;
  try {
    p = parseFlags(argv, { ...COMMON, help: { kind: 'bool', short: 'h' }, ...defs });
  } catch (e) {
    if (e instanceof FlagError) throw new Fail(`error: ${e.message}\nSee 'kubectl ${cmd} --help' for usage.`);
    throw e;
  }
  const as = str(p, 'as');
  const group = str(p, 'as-group');
  // (The simulator's own wording: a group alone is not sent.)
  if (group !== undefined && !as) throw new Fail('error: --as-group needs --as in this simulator');
  if (as) r.impersonate = group !== undefined ? { user: as, groups: [group] } : { user: as };
  return p;
}

function str(p: Parsed, k: string): string | undefined { const v = p.flags[k]; return typeof v === 'string' ? v : undefined; }
function bool(p: Parsed, k: string): boolean { return p.flags[k] === true; }
function nsOf(p: Parsed): string { return str(p, 'namespace') || 'default'; }

function kindOrFail(arg: string): KindInfo {
  const k = resolveKind(arg);
  if (!k) throw new Fail(`error: the server doesn't have a resource type "${arg}"`);
  return k;
}

/** The `all` category (pods, replicationcontrollers, services, daemonsets, deployments, …) as served here. */
const ALL_CATEGORY = ['pods', 'services', 'deployments', 'replicasets'];

/** `TYPE NAME…`, `TYPE/NAME …` or `TYPE1,TYPE2`: the (kind, name?) pairs of a command. */
function targets(args: string[]): { kinds: KindInfo[]; names: { kind: KindInfo; name: string }[] } {
  if (!args.length) return { kinds: [], names: [] };
  if (args.every((a) => a.includes('/'))) {
    return { kinds: [], names: args.map((a) => { const [t, ...n] = a.split('/'); return { kind: kindOrFail(t), name: n.join('/') }; }) };
  }
  if (args[0].includes('/')) throw new Fail('error: there is no need to specify a resource type as a separate argument when passing arguments in resource/name form (e.g. \'kubectl get resource/<resource_name>\' instead of \'kubectl get resource resource/<resource_name>\'');
  // SplitResourceArgument: comma-separated types, duplicates dropped, an empty one kept (and refused).
  // The category `all` stands for the workload kinds this cluster serves, in kubectl's order.
  const types = args[0].split(',').flatMap((t) => (t === 'all' ? ALL_CATEGORY : [t]));
  const kinds = [...new Set(types)].map(kindOrFail);
  const names = args.slice(1);
  if (names.includes('')) throw new Fail('error: resource name may not be empty');
  if (names.length && kinds.length > 1) return { kinds: [], names: kinds.flatMap((k) => names.map((n) => ({ kind: k, name: n }))) };
  return { kinds: names.length ? [] : kinds, names: names.map((n) => ({ kind: kinds[0], name: n })) };
}

// ---------------------------------------------------------------- get

function list(r: Run, kind: KindInfo, ns: string | undefined, selector?: string, fieldSelector?: string): Obj[] {
  const opts: Obj = {};
  if (selector) opts.labelSelector = selector;
  if (fieldSelector) opts.fieldSelector = fieldSelector;
  const res = r.must<Obj>({ verb: 'list', resource: kind.resource, namespace: kind.namespaced ? ns : undefined, options: opts });
  return (res.items ?? []).map((o: Obj) => withKind(kind, o));
}

function withKind(kind: KindInfo, o: Obj): Obj {
  const info = RESOURCES[kind.resource];
  return { ...o, apiVersion: o.apiVersion ?? (info.group ? `${info.group}/${info.version}` : info.version), kind: o.kind ?? info.kind };
}

function noResources(r: Run, ns: string | undefined, namespaced: boolean): void {
  r.warn(ns && namespaced ? `No resources found in ${ns} namespace.\n` : 'No resources found\n');
}

/** The --sort-by field, or kubectl's error. */
function sortFieldOrFail(sortBy: string): string {
  try { return sortField(sortBy); } catch (e) { if (e instanceof SortByError) throw new Fail(`error: ${e.message}`); throw e; }
}

/** sortByField, its refusals as kubectl prints them. */
function sortOrFail(items: Obj[], field: string, passes: number): void {
  try { sortByField(items, field, passes); } catch (e) { if (e instanceof SortByError) throw new Fail(`error: ${e.message}`); throw e; }
}

function cmdGet(r: Run, argv: string[]): void {
  const p = parse(r, 'get', argv, {
    output: { kind: 'string', short: 'o' }, selector: { kind: 'string', short: 'l' }, 'all-namespaces': { kind: 'bool', short: 'A' },
    'show-labels': { kind: 'bool' }, 'field-selector': { kind: 'string' }, watch: { kind: 'bool', short: 'w' }, 'no-headers': { kind: 'bool' },
    'sort-by': { kind: 'string' }, 'label-columns': { kind: 'strings', short: 'L' }, 'watch-only': { kind: 'bool' },
  });
  if (!p.args.length) {
    throw new Fail('You must specify the type of resource to get. Use "kubectl api-resources" for a complete list of supported resources.\n\nerror: Required resource not specified.\nUse "kubectl explain <resource>" for a detailed description of that resource (e.g. kubectl explain pods).\nSee \'kubectl get -h\' for help and examples');
  }
  const output = str(p, 'output') ?? '';
  const jsonpath = output.startsWith('jsonpath=') ? output.slice('jsonpath='.length) : undefined;
  if (jsonpath !== undefined) {
    try { parseJsonPath(jsonpath); } catch (e) { throw new Fail(`error: error parsing jsonpath ${jsonpath}, ${(e as Error).message}`); }
  }
  const customColumns = output === 'custom-columns' ? '' : output.startsWith('custom-columns=') ? output.slice('custom-columns='.length) : undefined;
  let columns: CustomColumn[] | undefined;
  if (customColumns !== undefined) {
    try { columns = parseCustomColumns(customColumns); } catch (e) { if (e instanceof CustomColumnsError) throw new Fail(`error: ${e.message}`); throw e; }
  }
  if (jsonpath === undefined && columns === undefined && !['', 'wide', 'json', 'yaml', 'name'].includes(output)) {
    throw new Fail(`error: unable to match a printer suitable for the output format "${output}", allowed formats are: custom-columns,custom-columns-file,go-template,go-template-file,json,jsonpath,jsonpath-as-json,jsonpath-file,name,template,templatefile,wide,yaml`);
  }
  const all = bool(p, 'all-namespaces');
  const ns = all ? undefined : nsOf(p);
  const t = targets(p.args);
  const sortBy = str(p, 'sort-by');
  const field = sortBy ? sortFieldOrFail(sortBy) : undefined;
  const human = jsonpath === undefined && (output === '' || output === 'wide');
  if (sortBy && bool(p, 'watch')) r.warn('warning: --watch requested, --sort-by will be ignored for watch events received\n');
  else if (sortBy && bool(p, 'watch-only')) r.warn('warning: --watch-only requested, --sort-by will be ignored\n');
  const groups: { kind: KindInfo; items: Obj[] }[] = [];
  const errors: string[] = [];
  for (const kind of t.kinds) {
    const items = list(r, kind, ns, str(p, 'selector'), str(p, 'field-selector'));
    // One server-side Table per list: get sorts its rows, then the SortingPrinter sorts them again.
    if (field && human) sortOrFail(items, field, 2);
    groups.push({ kind, items });
  }
  for (const { kind, name } of t.names) {
    const res = r.req({ verb: 'get', resource: kind.resource, namespace: kind.namespaced ? nsOf(p) : undefined, name });
    if (!res.ok) {
      if (res.code === 0) throw new Fail(apiError(res.status));
      errors.push(apiError(res.status));
      continue;
    }
    const g = groups.find((x) => x.kind.resource === kind.resource);
    const o = withKind(kind, res.object);
    // A named object is a Table of its own (one row): checked for the field, never moved.
    if (field && human) sortOrFail([o], field, 2);
    if (g) g.items.push(o); else groups.push({ kind, items: [o] });
  }
  let items = groups.flatMap((g) => g.items);
  const single = t.names.length === 1 && t.kinds.length === 0;
  // Other outputs print one list of everything, which the SortingPrinter sorts once (a single named
  // object is no list and is left alone).
  if (field && !human && !single) { items = [...items]; sortOrFail(items, field, 1); }
  if (columns !== undefined) {
    if (!(single && !items.length)) r.print(printCustomColumns(columns, items, bool(p, 'no-headers')));
  } else if (jsonpath !== undefined) {
    if (!(single && !items.length)) r.print(renderJsonPath(jsonpath, single ? items[0] : asList(items)));
  } else if (output === 'json' || output === 'yaml') {
    if (single && !items.length) { for (const e of errors) r.error(e); return; }
    const v = single ? items[0] : asList(items);
    r.print(output === 'json' ? toJSON(v) + '\n' : toYAML(v));
  } else if (output === 'name') {
    const kindOf = new Map<Obj, KindInfo>();
    for (const g of groups) for (const o of g.items) kindOf.set(o, g.kind);
    for (const o of items) r.print(`${kindOf.get(o)!.singular}/${o.metadata?.name}\n`);
  } else {
    const nonEmpty = groups.filter((g) => g.items.length);
    const withKindPrefix = groups.length > 1;
    const labelColumns = str(p, 'label-columns')?.split(',').filter((l) => l !== '');
    const tableOpts = { wide: output === 'wide', allNamespaces: all, showLabels: bool(p, 'show-labels'), labelColumns, withKind: withKindPrefix, noHeaders: bool(p, 'no-headers') };
    const watchOnly = bool(p, 'watch-only');
    if (!watchOnly) {
      nonEmpty.forEach((g, i) => {
        if (i > 0) r.print('\n');
        r.print(printTable(g.kind, g.items, r.now, tableOpts));
      });
    }
    if (bool(p, 'watch') || watchOnly) {
      if (!(t.kinds.length === 1 && t.names.length === 0)) throw new Fail('error: you may only specify a single resource type');
      // Headers come with the first row printed: the empty first table printed none.
      watchRows(r, t.kinds[0], ns, str(p, 'selector'), tableOpts, (items.length > 0 && !watchOnly) || tableOpts.noHeaders);
      return;
    }
  }
  // Only the human-readable printers say so; the others print an empty list (or nothing).
  if (human && !items.length && !errors.length && t.kinds.length) noResources(r, ns, t.kinds.some((k) => k.namespaced));
  for (const e of errors) r.error(e);
}

/** How long a simulated `get -w` may run, in simulated time, when the cluster never goes quiet. */
export const WATCH_LIMIT_MS = 10 * 60_000;

/**
 * get -w after the first table: every later change to the resource (in the namespace, matching the
 * selector), one row per watch event, each flushed alone as kubectl flushes it (so its columns are as
 * wide as that row; the header comes with the first row when the first table had none). A real watch runs until Ctrl-C; here simulated time runs on until nothing is left
 * to happen (only heartbeats queued) or WATCH_LIMIT_MS passes, and a note on stderr says so.
 */
function watchRows(r: Run, kind: KindInfo, ns: string | undefined, selector: string | undefined, opts: TableOptions, headed: boolean): void {
  const store = () => r.cluster.world.state.store;
  let seen = store().revision;
  const reqs = parseLabelSelector(selector);
  const matches = (o: Obj) => matchesLabels(reqs, o.metadata?.labels ?? {});
  const inScope = (o: Obj) => !kind.namespaced || ns === undefined || o.metadata?.namespace === ns;
  const deadline = r.now + WATCH_LIMIT_MS;
  for (;;) {
    const quiet = r.cluster.world.state.queue.pending === 0;
    if (quiet || r.now >= deadline) break;
    r.cluster.advance(100);
    for (const e of store().history) {
      if (e.revision <= seen || e.resource !== kind.resource) continue;
      const cur = withKind(kind, e.object);
      const was = e.prev ? matches(e.prev) : false;
      // A change that takes an object out of the selector reaches the watch as a deletion of it.
      if (!inScope(cur) || (!matches(cur) && !was)) continue;
      r.print(printTable(kind, [matches(cur) ? cur : withKind(kind, e.prev!)], r.now, { ...opts, noHeaders: headed }));
      headed = true;
    }
    seen = store().revision;
  }
  r.warn(`(watch ended: ${r.now >= deadline ? `${WATCH_LIMIT_MS / 60_000} simulated minutes passed` : 'nothing is left to happen'}; a real kubectl get -w keeps waiting until Ctrl-C)\n`);
}

// ---------------------------------------------------------------- api-resources

/** kubectl api-resources: what this API server serves, core group first, then by group and name. */
function cmdApiResources(r: Run, argv: string[]): void {
  const p = parse(r, 'api-resources', argv, { output: { kind: 'string', short: 'o' }, namespaced: { kind: 'string' }, 'no-headers': { kind: 'bool' } });
  const output = str(p, 'output') ?? '';
  if (output !== '' && output !== 'name' && output !== 'wide') throw new Fail(`error: --output ${output} is not available`);
  const namespaced = str(p, 'namespaced');
  if (namespaced !== undefined && namespaced !== 'true' && namespaced !== 'false') {
    throw new Fail(`error: invalid argument "${namespaced}" for "--namespaced" flag: strconv.ParseBool: parsing "${namespaced}": invalid syntax`);
  }
  const rows = Object.entries(RESOURCES)
    .filter(([, i]) => namespaced === undefined || String(i.namespaced) === namespaced)
    .sort(([a, x], [b, y]) => (x.group === y.group ? (a < b ? -1 : 1) : x.group === '' ? -1 : y.group === '' ? 1 : x.group < y.group ? -1 : 1));
  if (output === 'name') { for (const [res, i] of rows) r.print(`${i.group ? `${res}.${i.group}` : res}\n`); return; }
  let t = bool(p, 'no-headers') ? '' : 'NAME\tSHORTNAMES\tAPIVERSION\tNAMESPACED\tKIND\n';
  for (const [res, i] of rows) t += `${res}\t${shortNames(res).join(',')}\t${i.group ? `${i.group}/${i.version}` : i.version}\t${i.namespaced}\t${i.kind}\n`;
  r.print(tabwrite(t, GET_TABS));
}

// ---------------------------------------------------------------- run, annotate, patch, top

/** kubectl run: one bare pod (labels run=NAME), as `kubectl run` makes it. */
function cmdRun(r: Run, argv: string[]): void {
  const dash = argv.indexOf('--');
  const p = parse(r, 'run', dash >= 0 ? argv.slice(0, dash) : argv, {
    image: { kind: 'string' }, restart: { kind: 'string' }, port: { kind: 'string' }, labels: { kind: 'string', short: 'l' }, command: { kind: 'bool' },
  });
  const tail = dash >= 0 ? argv.slice(dash + 1) : [];
  const name = p.args[0];
  if (!name) throw new Fail("error: NAME is required for run\nSee 'kubectl run -h' for help and examples");
  const image = str(p, 'image');
  if (!image) throw new Fail('error: required flag(s) "image" not set');
  const restart = str(p, 'restart') ?? 'Always';
  if (!['Always', 'OnFailure', 'Never'].includes(restart)) throw new Fail(`error: invalid restart policy: ${restart}`);
  const labels: Record<string, string> = {};
  const labelArg = str(p, 'labels');
  if (labelArg) {
    for (const kv of labelArg.split(',')) {
      const eq = kv.indexOf('=');
      if (eq <= 0) throw new Fail(`error: invalid label spec: ${kv}`);
      labels[kv.slice(0, eq)] = kv.slice(eq + 1);
    }
  } else labels.run = name;
  const container: Obj = { name, image, resources: {} };
  const port = str(p, 'port');
  if (port !== undefined) {
    if (!/^\d+$/.test(port)) throw new Fail(`error: invalid argument "${port}" for "--port" flag: strconv.ParseInt: parsing "${port}": invalid syntax`);
    container.ports = [{ containerPort: Number(port) }];
  }
  if (tail.length) container[bool(p, 'command') ? 'command' : 'args'] = tail;
  const pod = { apiVersion: 'v1', kind: 'Pod', metadata: { name, labels }, spec: { containers: [container], dnsPolicy: 'ClusterFirst', restartPolicy: restart } };
  r.must({ verb: 'create', resource: 'pods', namespace: nsOf(p), body: pod });
  r.print(`pod/${name} created\n`);
}

/** kubectl annotate: set (k=v) or remove (k-) annotations; an existing value needs --overwrite. */
function cmdAnnotate(r: Run, argv: string[]): void {
  const p = parse(r, 'annotate', argv, { overwrite: { kind: 'bool' }, selector: { kind: 'string', short: 'l' }, all: { kind: 'bool' } });
  const { set, remove, objs } = keyValueUpdates(r, p, 'annotation');
  const ns = nsOf(p);
  for (const { kind, name } of objs) {
    const cur = r.req({ verb: 'get', resource: kind.resource, namespace: kind.namespaced ? ns : undefined, name });
    if (!cur.ok) { if (cur.code === 0) throw new Fail(apiError(cur.status)); r.error(apiError(cur.status)); continue; }
    const have: Record<string, string> = { ...(cur.object as Obj).metadata?.annotations };
    const clash = Object.entries(set).filter(([k, v]) => k in have && have[k] !== v);
    if (clash.length && !bool(p, 'overwrite')) {
      r.error(`error: --overwrite is false but found the following declared annotation(s): ${clash.map(([k]) => `'${k}' already has a value (${have[k]})`).join('; ')}`);
      continue;
    }
    const patch: Record<string, string | null> = { ...set };
    for (const k of remove) patch[k] = null;
    r.must({ verb: 'patch', resource: kind.resource, namespace: kind.namespaced ? ns : undefined, name, body: { metadata: { annotations: patch } }, options: { patchType: 'merge' } });
    r.print(`${kind.singular}/${name} annotated\n`);
  }
}

/** kubectl patch TYPE NAME (-p PATCH | --patch-file FILE) [--type strategic|merge|json]: "patched", or "patched (no change)". */
function cmdPatch(r: Run, argv: string[]): void {
  const p = parse(r, 'patch', argv, { patch: { kind: 'string', short: 'p' }, 'patch-file': { kind: 'string' }, type: { kind: 'string' }, subresource: { kind: 'string' } });
  const text = str(p, 'patch') ?? '';
  const file = str(p, 'patch-file') ?? '';
  // PatchOptions.Validate, in its order.
  if (text && file) throw new Fail('error: cannot specify --patch and --patch-file together');
  if (!text && !file) throw new Fail('error: must specify --patch or --patch-file containing the contents of the patch');
  const typeFlag = str(p, 'type') ?? 'strategic';
  const type = typeFlag.toLowerCase(); // patchTypes[strings.ToLower(o.PatchType)]
  if (type !== 'strategic' && type !== 'merge' && type !== 'json') throw new Fail(`error: --type must be one of [json merge strategic], not "${typeFlag}"`);
  let source = text;
  if (file) {
    const content = r.host.readFile?.(file);
    if (content === undefined) throw new Fail(`error: unable to read patch file: open ${file}: no such file or directory`);
    source = content;
  }
  let body: unknown;
  try {
    const docs = parseAllDocuments(source);
    if (docs.length !== 1 || docs[0].errors.length) throw new Error(docs[0]?.errors[0]?.message ?? 'not one document');
    body = docs[0].toJSON();
  } catch (e) {
    // yaml.ToJSON's error is quoted with o.Patch, which is empty when the patch came from a file.
    throw new Fail(`error: unable to parse "${text}": ${(e as Error).message.split('\n')[0]}`);
  }
  // A JSON patch goes to the server as it is: kubectl leaves it to the server to refuse one that
  // is not a list of operations (400 BadRequest).
  if (type !== 'json' && (body === null || typeof body !== 'object' || Array.isArray(body))) throw new Fail(`error: unable to parse "${text}": the patch must be an object`);
  const t = targets(p.args);
  if (!t.names.length) throw new Fail('error: resource(s) were provided, but no name was specified');
  const ns = nsOf(p);
  for (const { kind, name } of t.names) {
    const before = r.req({ verb: 'get', resource: kind.resource, namespace: kind.namespaced ? ns : undefined, name });
    if (!before.ok) { if (before.code === 0) throw new Fail(apiError(before.status)); r.error(apiError(before.status)); continue; }
    const sub = str(p, 'subresource');
    const res = r.req({ verb: 'patch', resource: kind.resource, namespace: kind.namespaced ? ns : undefined, name, subresource: sub, body, options: { patchType: type } });
    if (!res.ok) { if (res.code === 0) throw new Fail(apiError(res.status)); r.error(apiError(res.status)); continue; }
    const changed = (res.object as Obj)?.metadata?.resourceVersion !== (before.object as Obj).metadata?.resourceVersion;
    r.print(`${kind.singular}/${name} patched${changed ? '' : ' (no change)'}\n`);
  }
}

/** kubectl top: the cluster runs no metrics-server, so there is no Metrics API to read. */
function cmdTop(r: Run, argv: string[]): void {
  parse(r, 'top', argv.slice(1), { 'all-namespaces': { kind: 'bool', short: 'A' }, containers: { kind: 'bool' }, selector: { kind: 'string', short: 'l' }, 'sort-by': { kind: 'string' } });
  if (!argv[0]) {
    // A command made of subcommands prints its help when given none.
    r.print('Display resource (CPU/memory) usage.\n\nAvailable Commands:\n  node          Display resource (CPU/memory) usage of nodes\n  pod           Display resource (CPU/memory) usage of pods\n');
    return;
  }
  if (!['pods', 'pod', 'po', 'nodes', 'node', 'no'].includes(argv[0])) throw new Fail(`error: unknown command "${argv[0]}" for "kubectl top"`);
  throw new Fail('error: Metrics API not available');
}

// ---------------------------------------------------------------- auth can-i

/** resourceVerbs and nonResourceURLVerbs of cani.go: other verbs get a warning, not a refusal. */
const RESOURCE_VERBS = new Set(['get', 'list', 'watch', 'create', 'update', 'patch', 'delete', 'deletecollection', 'use', 'bind', 'impersonate', '*', 'approve', 'sign', 'escalate', 'attest']);
const NON_RESOURCE_VERBS = new Set(['get', 'put', 'post', 'head', 'options', 'delete', 'patch', '*']);

/**
 * CanIOptions.resourceFor: the resource and group a type argument names (`po`, `deployments.apps`,
 * `*`), and whether discovery says it is namespaced (undefined when discovery does not know it).
 * A type the server does not serve is sent as typed, with a warning (none for users and groups).
 */
function canIResourceFor(r: Run, arg: string): { resource: string; group: string; namespaced?: boolean } {
  if (arg === '*') return { resource: '*', group: '', namespaced: true };
  const lower = arg.toLowerCase();
  const dot = lower.indexOf('.');
  const [res, group] = dot < 0 ? [lower, ''] : [lower.slice(0, dot), lower.slice(dot + 1)];
  const k = resolveKind(res);
  if (k) {
    const info = RESOURCES[k.resource];
    if (!group || group === info.group || group === `${info.version}.${info.group}`) return { resource: k.resource, group: info.group, namespaced: info.namespaced };
  }
  const gr = group ? `${res}.${group}` : res;
  if (gr !== 'users' && gr !== 'groups') r.warn(group ? `Warning: the server doesn't have a resource type '${res}' in group '${group}'\n` : `Warning: the server doesn't have a resource type '${res}'\n`);
  return { resource: arg, group: '' };
}

/** kubectl auth can-i VERB (TYPE | TYPE/NAME | NONRESOURCEURL): a SelfSubjectAccessReview; `no` exits 1. */
function cmdCanI(r: Run, argv: string[]): void {
  const p = parse(r, 'auth can-i', argv, {
    'all-namespaces': { kind: 'bool', short: 'A' }, quiet: { kind: 'bool', short: 'q' }, subresource: { kind: 'string' }, list: { kind: 'bool' }, 'no-headers': { kind: 'bool' },
  });
  if (bool(p, 'list')) {
    if (p.args.length) throw new Fail('error: list option must be specified with no arguments');
    throw new Fail('error: kubectl auth can-i --list (a SelfSubjectRulesReview) is not simulated; ask about one action at a time');
  }
  if (p.args.length !== 2) throw new Fail("error: you must specify two arguments: verb resource or verb resource/resourceName.\nSee 'kubectl auth can-i -h' for help and examples.");
  const [verb, target] = p.args;
  const all = bool(p, 'all-namespaces');
  const sub = str(p, 'subresource') ?? '';
  let nonResourceURL = '';
  let res: { resource: string; group: string; namespaced?: boolean } = { resource: '', group: '' };
  let name = '';
  if (target.startsWith('/')) nonResourceURL = target;
  else {
    const slash = target.indexOf('/'); // strings.SplitN(…, "/", 2)
    res = canIResourceFor(r, slash < 0 ? target : target.slice(0, slash));
    if (slash >= 0) name = target.slice(slash + 1);
  }
  // Validate, in its order (warnings are printed as they are found).
  if (nonResourceURL) {
    if (sub) throw new Fail('error: --subresource can not be used with NonResourceURL');
    if (!NON_RESOURCE_VERBS.has(verb)) r.warn(`Warning: verb '${verb}' is not a known verb\n`);
  } else if (res.resource && !all) {
    if (res.namespaced === false) r.warn(res.group ? `Warning: resource '${res.resource}' is not namespace scoped in group '${res.group}'\n` : `Warning: resource '${res.resource}' is not namespace scoped\n`);
    if (!RESOURCE_VERBS.has(verb)) r.warn(`Warning: verb '${verb}' is not a known verb\n`);
  }
  if (bool(p, 'no-headers')) throw new Fail('error: --no-headers cannot be set without --list specified');
  const drop = (o: Record<string, string>) => Object.fromEntries(Object.entries(o).filter(([, v]) => v !== '')); // omitempty
  const spec = nonResourceURL
    ? { nonResourceAttributes: { path: nonResourceURL, verb } }
    : { resourceAttributes: drop({ namespace: all ? '' : nsOf(p), verb, group: res.group, resource: res.resource, subresource: sub, name }) };
  const result = r.req({ verb: 'create', resource: 'selfsubjectaccessreviews', body: { apiVersion: 'authorization.k8s.io/v1', kind: 'SelfSubjectAccessReview', spec } });
  if (!result.ok) throw new Fail(apiError(result.status));
  const allowed = (result.object as Obj)?.status?.allowed === true;
  // RBAC gives no reason for a denial, so "no" stands alone (cani.go adds " - reason" when there is one).
  if (!bool(p, 'quiet')) r.print(allowed ? 'yes\n' : 'no\n');
  if (!allowed) r.failed = true;
}

/** kubectl auth: can-i is the subcommand simulated. */
function cmdAuth(r: Run, argv: string[]): void {
  if (!argv[0] || argv[0].startsWith('-')) {
    r.print('Inspect authorization.\n\nAvailable Commands:\n  can-i         Check whether an action is allowed\n');
    return;
  }
  if (argv[0] !== 'can-i') throw new Fail(`error: unknown command "${argv[0]}" for "kubectl auth"`);
  cmdCanI(r, argv.slice(1));
}

// ---------------------------------------------------------------- events

/** eventTime() of kubectl events: when an Event was last seen (series, lastTimestamp, eventTime). */
function eventSortTime(e: Obj): number {
  return parseTime(e.series?.lastObservedTime ?? e.lastTimestamp ?? e.eventTime) ?? 0;
}

/** getInterval: LAST SEEN of one row ("5s", or "5s (x3 over 2m)" for a repeated Event). */
function eventInterval(e: Obj, now: number): string {
  const first = translateTimestampSince(e.eventTime ?? e.firstTimestamp, now);
  if (e.series) return `${translateTimestampSince(e.series.lastObservedTime, now)} (x${e.series.count} over ${first})`;
  if ((e.count ?? 0) > 1) return `${translateTimestampSince(e.lastTimestamp, now)} (x${e.count} over ${first})`;
  return first;
}

/** kubectl events: the Events of a namespace (or all, or about one object), oldest first. */
function cmdEvents(r: Run, argv: string[]): void {
  const p = parse(r, 'events', argv, {
    'all-namespaces': { kind: 'bool', short: 'A' }, for: { kind: 'string' }, types: { kind: 'string' }, 'no-headers': { kind: 'bool' },
    watch: { kind: 'bool', short: 'w' }, output: { kind: 'string', short: 'o' }, 'chunk-size': { kind: 'string' },
  });
  const output = str(p, 'output') ?? '';
  if (output && output !== 'json' && output !== 'yaml') {
    throw new Fail(`error: unable to match a printer suitable for the output format "${output}", allowed formats are: json,yaml,name,go-template,go-template-file,template,templatefile,jsonpath,jsonpath-as-json,jsonpath-file`);
  }
  const types = (str(p, 'types') ?? '').split(',').filter(Boolean);
  let fieldSelector: string | undefined;
  const forObject = str(p, 'for');
  if (forObject) {
    if (!forObject.includes('/')) throw new Fail('error: --for must be in resource/name form');
    const seg = forObject.split('/');
    if (seg.length !== 2) throw new Fail('error: arguments in resource/name form may not have more than one slash');
    const kind = kindOrFail(seg[0]);
    fieldSelector = `involvedObject.kind=${RESOURCES[kind.resource].kind},involvedObject.name=${seg[1]}`;
  }
  if (types.some((t) => t.toLowerCase() !== 'normal' && t.toLowerCase() !== 'warning')) throw new Fail('error: valid --types are Normal or Warning');
  const all = bool(p, 'all-namespaces');
  const ns = nsOf(p);
  const items = list(r, kindInfo('events'), all ? undefined : ns, undefined, fieldSelector)
    .filter((e) => !types.length || types.some((t) => t.toLowerCase() === String(e.type ?? '').toLowerCase()));
  if (!items.length) { r.warn(all ? 'No events found.\n' : `No events found in ${ns} namespace.\n`); return; }
  items.sort((a, b) => eventSortTime(a) - eventSortTime(b));
  if (output) {
    const v = { apiVersion: 'v1', kind: 'EventList', items, metadata: { resourceVersion: '' } };
    r.print(output === 'json' ? toJSON(v) + '\n' : toYAML(v));
    return;
  }
  let text = bool(p, 'no-headers') ? '' : `${all ? 'NAMESPACE\t' : ''}LAST SEEN\tTYPE\tREASON\tOBJECT\tMESSAGE\n`;
  for (const e of items) {
    const io = e.involvedObject ?? {};
    text += `${all ? `${e.metadata?.namespace ?? ''}\t` : ''}${eventInterval(e, r.now)}\t${e.type ?? ''}\t${e.reason ?? ''}\t${io.kind ?? ''}/${io.name ?? ''}\t${String(e.message ?? '').trim()}\n`;
  }
  r.print(tabwrite(text, GET_TABS));
}

// ---------------------------------------------------------------- logs

function isPodReady(p: Obj): boolean {
  return ((p.status?.conditions ?? []) as Obj[]).some((c) => c.type === 'Ready' && c.status === 'True');
}

/** podutils.ByLogging: which of a workload's pods `kubectl logs deploy/NAME` reads (the first). */
function byLogging(a: Obj, b: Obj): number {
  const assigned = (p: Obj) => !!p.spec?.nodeName;
  if (assigned(a) !== assigned(b)) return assigned(a) ? -1 : 1;
  const rank: Record<string, number> = { Running: 0, Unknown: 1, Pending: 2 };
  const ra = rank[a.status?.phase] ?? 3;
  const rb = rank[b.status?.phase] ?? 3;
  if (ra !== rb) return ra - rb;
  if (isPodReady(a) !== isPodReady(b)) return isPodReady(a) ? -1 : 1;
  const readySince = (p: Obj) => parseTime(((p.status?.conditions ?? []) as Obj[]).find((c) => c.type === 'Ready')?.lastTransitionTime) ?? Infinity;
  if (isPodReady(a) && readySince(a) !== readySince(b)) return readySince(a) - readySince(b);
  const restarts = (p: Obj) => Math.max(0, ...((p.status?.containerStatuses ?? []) as Obj[]).map((c) => c.restartCount ?? 0));
  if (restarts(a) !== restarts(b)) return restarts(b) - restarts(a);
  return (parseTime(a.metadata?.creationTimestamp) ?? Infinity) - (parseTime(b.metadata?.creationTimestamp) ?? Infinity);
}

/** kubectl logs: a container's output, fetched through the API server from the node's kubelet. */
function cmdLogs(r: Run, argv: string[]): void {
  const p = parse(r, 'logs', argv, {
    container: { kind: 'string', short: 'c' }, previous: { kind: 'bool', short: 'p' }, tail: { kind: 'string' },
    follow: { kind: 'bool', short: 'f' }, 'all-containers': { kind: 'bool' },
  });
  if (!p.args.length) throw new Fail("error: expected 'logs [-f] [-p] (POD | TYPE/NAME) [-c CONTAINER]'.\nPOD or TYPE/NAME is a required argument for the logs command\nSee 'kubectl logs -h' for help and examples");
  const ns = nsOf(p);
  const tailArg = str(p, 'tail') ?? '-1';
  const tail = Number(tailArg);
  if (!Number.isInteger(tail)) throw new Fail(`error: invalid argument "${tailArg}" for "--tail" flag: strconv.ParseInt: parsing "${tailArg}": invalid syntax\nSee 'kubectl logs --help' for usage.`);
  let podName = p.args[0];
  if (podName.includes('/')) {
    const [type, name] = [podName.slice(0, podName.indexOf('/')), podName.slice(podName.indexOf('/') + 1)];
    const kind = kindOrFail(type);
    if (kind.resource === 'pods') podName = name;
    else if (kind.resource === 'deployments' || kind.resource === 'replicasets') {
      const owner = r.must({ verb: 'get', resource: kind.resource, namespace: ns, name });
      const pods = list(r, kindInfo('pods'), ns, labelSelectorAsString(owner.spec?.selector)).sort(byLogging);
      if (!pods.length) throw new Fail(`error: timed out waiting for the condition`);
      if (pods.length > 1) r.warn(`Found ${pods.length} pods, using pod/${pods[0].metadata.name}\n`);
      podName = pods[0].metadata.name;
    } else throw new Fail(`error: this simulator's kubectl logs reads pods, deployments and replicasets, not ${kind.resource}`);
  }
  const pod = r.must({ verb: 'get', resource: 'pods', namespace: ns, name: podName });
  const containers = ((pod.spec?.containers ?? []) as Obj[]).map((c) => c.name as string);
  const inits = ((pod.spec?.initContainers ?? []) as Obj[]).map((c) => c.name as string);
  let names: string[];
  if (bool(p, 'all-containers')) names = [...inits, ...containers];
  else if (str(p, 'container')) names = [str(p, 'container')!];
  else {
    // The annotated default container, else the first; kubectl says so when there was a choice.
    const annotated = pod.metadata?.annotations?.['kubectl.kubernetes.io/default-container'];
    const chosen = annotated && containers.includes(annotated) ? annotated : containers[0];
    if (containers.length + inits.length > 1) r.warn(`Defaulted container "${chosen}" out of: ${[...containers, ...inits.map((n) => `${n} (init)`)].join(', ')}\n`);
    names = [chosen];
  }
  for (const container of names) {
    const options: Obj = { container };
    if (bool(p, 'previous')) options.previous = true;
    const res = r.req({ verb: 'get', resource: 'pods', namespace: ns, name: podName, subresource: 'log', options });
    if (!res.ok) throw new Fail(apiError(res.status));
    let text = String(res.object ?? '');
    if (tail >= 0) {
      const lines = text.split('\n');
      if (lines[lines.length - 1] === '') lines.pop();
      text = lines.slice(Math.max(0, lines.length - tail)).map((l) => `${l}\n`).join('');
    }
    r.print(text);
  }
}

// ---------------------------------------------------------------- wait

type WaitCondition = (o: Obj | undefined) => boolean;

/** ConditionalWait.IsConditionMet: the named condition has the status (case-insensitive), for the current generation. */
function conditionMet(name: string, status: string): WaitCondition {
  return (o) => {
    for (const c of (o?.status?.conditions ?? []) as Obj[]) {
      if (String(c.type ?? '').toLowerCase() !== name.toLowerCase()) continue;
      const generation = o?.metadata?.generation;
      const observed = c.observedGeneration ?? o?.status?.observedGeneration;
      if (generation !== undefined && observed !== undefined && observed < generation) return false;
      return String(c.status ?? '').toLowerCase() === status.toLowerCase();
    }
    return false;
  };
}

/** A `{.a.b[0].c}` JSONPath (field names and indexes only) read from an object. */
function simpleJsonPath(expr: string): ((o: Obj) => unknown) | undefined {
  const m = /^\{((?:\.[A-Za-z0-9_-]+(?:\[\d+\])?)+)\}$/.exec(expr);
  if (!m) return undefined;
  const steps: (string | number)[] = [];
  for (const part of m[1].slice(1).split('.')) {
    const [, field, index] = /^([A-Za-z0-9_-]+)(?:\[(\d+)\])?$/.exec(part)!;
    steps.push(field);
    if (index !== undefined) steps.push(Number(index));
  }
  return (o) => steps.reduce<unknown>((v, k) => (v == null ? undefined : (v as Record<string | number, unknown>)[k]), o);
}

/** conditionFuncFor: delete, create, condition=NAME[=STATUS] or jsonpath='{.path}'=VALUE. */
function waitCondition(forArg: string): WaitCondition {
  const lower = forArg.toLowerCase();
  if (lower === 'delete') return (o) => o === undefined;
  if (lower === 'create') return (o) => o !== undefined;
  if (forArg.startsWith('condition=')) {
    const rest = forArg.slice('condition='.length);
    const eq = rest.indexOf('=');
    return conditionMet(eq === -1 ? rest : rest.slice(0, eq), eq === -1 ? 'true' : rest.slice(eq + 1));
  }
  if (forArg.startsWith('jsonpath=')) {
    const body = forArg.slice('jsonpath='.length).replace(/^'|'$/g, '');
    const eq = body.lastIndexOf('}=');
    const expr = eq === -1 ? body : body.slice(0, eq + 1);
    const want = eq === -1 ? undefined : body.slice(eq + 2);
    const read = simpleJsonPath(expr);
    if (!read) throw new Fail(`error: this simulator's kubectl wait reads only simple paths such as '{.status.phase}', not ${JSON.stringify(expr)}`);
    return (o) => {
      if (!o) return false;
      const v = read(o);
      return want === undefined ? v !== undefined : v !== undefined && v !== null && typeof v !== 'object' && String(v) === want;
    };
  }
  throw new Fail(`error: unrecognized condition: ${JSON.stringify(forArg)}`);
}

/** The longest a `kubectl wait` runs simulated time. */
const WAIT_CAP_MS = 3_600_000;

/** kubectl wait: simulated time runs until each object meets the condition or --timeout (30 s) passes. */
function cmdWait(r: Run, argv: string[]): void {
  const p = parse(r, 'wait', argv, { for: { kind: 'string' }, timeout: { kind: 'string' }, selector: { kind: 'string', short: 'l' }, all: { kind: 'bool' } });
  const cond = waitCondition(str(p, 'for') ?? '');
  const timeoutArg = str(p, 'timeout') ?? '30s';
  const timeoutMs = parseDurationMs(timeoutArg.replace(/^-.*/, '0'));
  if (timeoutMs === undefined) throw new Fail(`error: invalid argument "${timeoutArg}" for "--timeout" flag: time: invalid duration "${timeoutArg}"\nSee 'kubectl wait --help' for usage.`);
  // A negative timeout is kubectl's "a week"; the simulator runs at most an hour of simulated time
  // per command, so a page never spends long on one line.
  const requested = timeoutArg.startsWith('-') ? 168 * 3_600_000 : timeoutMs;
  const effective = Math.min(requested, WAIT_CAP_MS);
  const ns = nsOf(p);
  const t = targets(p.args);
  const objs: { kind: KindInfo; name: string }[] = [...t.names];
  for (const kind of t.kinds) {
    if (str(p, 'selector') === undefined && !bool(p, 'all')) throw new Fail('error: resource(s) were provided, but no name was specified');
    for (const o of list(r, kind, ns, str(p, 'selector'))) objs.push({ kind, name: o.metadata.name });
  }
  if (!objs.length) throw new Fail('error: no matching resources found');
  const deadline = r.now + effective;
  for (const { kind, name } of objs) {
    const first = r.req({ verb: 'get', resource: kind.resource, namespace: kind.namespaced ? ns : undefined, name });
    // --for=delete ignores NotFound: an object already gone is skipped without a word.
    if (!first.ok && first.code === 404 && cond(undefined)) continue;
    if (!first.ok) throw new Fail(apiError(first.status));
    const read = () => storeGet(r.cluster.world.state.store, kind.resource, storeKey(kind.resource, kind.namespaced ? ns : undefined, name)) as Obj | undefined;
    while (!cond(read())) {
      if (r.now >= deadline) {
        if (requested > effective) throw new Fail(`error: the simulator waits at most 1h0m0s, and the condition is not met yet on ${kind.resource}/${name}`);
        throw new Fail(`error: timed out waiting for the condition on ${kind.resource}/${name}`);
      }
      r.cluster.advance(Math.min(100, deadline - r.now));
    }
    r.print(`${kind.singular}/${name} condition met\n`);
  }
}

// ---------------------------------------------------------------- describe

function cmdDescribe(r: Run, argv: string[]): void {
  const p = parse(r, 'describe', argv, { selector: { kind: 'string', short: 'l' }, 'all-namespaces': { kind: 'bool', short: 'A' }, 'show-events': { kind: 'bool' } });
  if (!p.args.length) throw new Fail('You must specify the type of resource to describe. Use "kubectl api-resources" for a complete list of supported resources.\n\nerror: Required resource not specified.');
  const t = targets(p.args);
  const ns = nsOf(p);
  const objs: { kind: KindInfo; o: Obj }[] = [];
  for (const kind of t.kinds) {
    const items = list(r, kind, bool(p, 'all-namespaces') ? undefined : ns, str(p, 'selector'));
    if (!items.length) noResources(r, ns, kind.namespaced);
    for (const o of items) objs.push({ kind, o });
  }
  for (const { kind, name } of t.names) {
    const res = r.req({ verb: 'get', resource: kind.resource, namespace: kind.namespaced ? ns : undefined, name });
    if (!res.ok) {
      if (res.code === 0) throw new Fail(apiError(res.status));
      // describe falls back to a name-prefix search before giving up.
      const prefix = list(r, kind, ns).filter((o) => o.metadata?.name?.startsWith(name));
      if (!prefix.length) { r.error(apiError(res.status)); continue; }
      for (const o of prefix) objs.push({ kind, o });
      continue;
    }
    objs.push({ kind, o: res.object });
  }
  objs.forEach(({ kind, o }, i) => {
    if (i > 0) r.print('\n\n');
    r.print(describeOne(r, kind, o));
  });
}

function describeOne(r: Run, kind: KindInfo, o: Obj): string {
  const ns = o.metadata?.namespace;
  const events = (kind.resource === 'nodes' ? list(r, kindInfo('events'), undefined, undefined, `involvedObject.name=${o.metadata.name}`)
    : list(r, kindInfo('events'), ns, undefined, `involvedObject.name=${o.metadata.name}`));
  switch (kind.resource) {
    case 'pods': return describePod(o, events, r.now);
    case 'deployments': {
      const rss = list(r, kindInfo('replicasets'), ns, labelSelectorAsString(o.spec?.selector)).filter((rs) => (rs.metadata?.ownerReferences ?? []).some((ref: Obj) => ref.uid === o.metadata.uid));
      return describeDeployment(o, rss, events, r.now);
    }
    case 'replicasets':
      return describeReplicaSet(o, list(r, kindInfo('pods'), ns, labelSelectorAsString(o.spec?.selector)), events, r.now);
    case 'nodes': {
      const lease = r.req({ verb: 'get', resource: 'leases', namespace: 'kube-node-lease', name: o.metadata.name });
      const pods = list(r, kindInfo('pods'), undefined, undefined, `spec.nodeName=${o.metadata.name}`);
      return describeNode(o, lease.ok ? lease.object : undefined, pods, events, r.now);
    }
    case 'namespaces': return describeNamespace(o);
    case 'services':
      return describeService(o, list(r, kindInfo('endpointslices'), ns, `kubernetes.io/service-name=${o.metadata.name}`), events, r.now);
    case 'endpointslices': return describeEndpointSlice(o, events, r.now);
    // Lease and Event have no describer of their own in kubectl: the generic one prints every field.
    default: return describeGeneric(o, events, r.now);
  }
}

// ---------------------------------------------------------------- apply / create

function manifestObjects(r: Run, text: string, source: string): Obj[] {
  const bytes = new TextEncoder().encode(text).length;
  if (bytes > MAX_MANIFEST_BYTES) throw new Fail(`error: ${source}: manifest is ${bytes} bytes, more than the 64 KiB this simulator accepts`);
  const docs = parseAllDocuments(text, { maxAliasCount: MAX_ALIAS_COUNT, version: '1.2' } as Obj);
  const docList = Array.isArray(docs) ? docs : [docs];
  if (docList.length > MAX_MANIFEST_DOCUMENTS) throw new Fail(`error: ${source}: ${docList.length} documents, more than the ${MAX_MANIFEST_DOCUMENTS} this simulator accepts`);
  const out: Obj[] = [];
  for (const d of docList) {
    if (d.errors.length) {
      const e = d.errors[0];
      const line = e.linePos?.[0]?.line;
      throw new Fail(`error: error parsing ${source}: error converting YAML to JSON: yaml: ${line ? `line ${line}: ` : ''}${e.message.split('\n')[0].replace(/ at line \d+, column \d+:?$/, '')}`);
    }
    let v: unknown;
    try { v = d.toJS({ maxAliasCount: MAX_ALIAS_COUNT }); } catch (e) {
      // go-yaml's wording for the same guard (a billion-laughs document).
      const msg = /alias/i.test((e as Error).message) ? 'error converting YAML to JSON: yaml: document contains excessive aliasing' : (e as Error).message;
      throw new Fail(`error: error parsing ${source}: ${msg}`);
    }
    if (v === null || v === undefined) continue;
    if (typeof v !== 'object' || Array.isArray(v)) throw new Fail(`error: error parsing ${source}: error unmarshaling JSON: json: cannot unmarshal ${Array.isArray(v) ? 'array' : typeof v === 'string' ? 'string' : 'number'} into Go value of type map[string]interface {}`);
    const o = v as Obj;
    if (o.kind === 'List' && Array.isArray(o.items)) out.push(...o.items); else out.push(o);
  }
  return out;
}

function readSource(r: Run, file: string): string {
  if (file === '-') return r.stdin ?? '';
  const t = r.host.readFile?.(file);
  if (t === undefined) throw new Fail(`error: the path "${file}" does not exist`);
  return t;
}

function lastApplied(o: Obj): string {
  return JSON.stringify(sortKeysDeep(o)) + '\n';
}

function sortKeysDeep(v: unknown): unknown {
  if (Array.isArray(v)) return v.map(sortKeysDeep);
  if (v && typeof v === 'object') return Object.fromEntries(Object.keys(v).sort().map((k) => [k, sortKeysDeep((v as Record<string, unknown>)[k])]));
  return v;
}

const LAST_APPLIED = 'kubectl.kubernetes.io/last-applied-configuration';

function cmdApply(r: Run, argv: string[]): void {
  const p = parse(r, 'apply', argv, { filename: { kind: 'string', short: 'f' }, 'dry-run': { kind: 'string' }, validate: { kind: 'string' }, 'server-side': { kind: 'bool' } });
  const file = str(p, 'filename');
  if (!file) throw new Fail('error: must specify one of -f and -k');
  const source = file === '-' ? 'STDIN' : `"${file}"`;
  const objs = manifestObjects(r, readSource(r, file), file === '-' ? 'STDIN' : file);
  if (!objs.length) throw new Fail('error: no objects passed to apply');
  for (const m of objs) {
    try { applyOne(r, p, m, source); } catch (e) { if (e instanceof Fail) r.error(e.message); else throw e; }
  }
}

function applyOne(r: Run, p: Parsed, m: Obj, source: string): void {
  if (!m.kind) throw new Fail(`error: error validating ${source}: error validating data: kind not set; if you choose to ignore these errors, turn validation off with --validate=false`);
  if (!m.apiVersion) throw new Fail(`error: error validating ${source}: error validating data: apiVersion not set; if you choose to ignore these errors, turn validation off with --validate=false`);
  const resource = resourceForKind(m.kind);
  const info = resource ? RESOURCES[resource] : undefined;
  const expectedVersion = info ? (info.group ? `${info.group}/${info.version}` : info.version) : '';
  if (!resource || m.apiVersion !== expectedVersion) {
    throw new Fail(`error: resource mapping not found for name: "${m.metadata?.name ?? ''}" namespace: "${m.metadata?.namespace ?? ''}" from ${source}: no matches for kind "${m.kind}" in version "${m.apiVersion}"\nensure CRDs are installed first`);
  }
  const kind = kindInfo(resource);
  const name = m.metadata?.name;
  if (!name) throw new Fail(`error: error when retrieving current configuration of:\nResource: "${resource}", GroupVersionKind: "${m.kind}"\nName: "", Namespace: "${nsOf(p)}"\nfrom server for: ${source}: resource name may not be empty`);
  const flagNs = str(p, 'namespace');
  if (kind.namespaced && flagNs && m.metadata?.namespace && m.metadata.namespace !== flagNs) {
    throw new Fail(`error: the namespace from the provided object "${m.metadata.namespace}" does not match the namespace "${flagNs}". You must pass '--namespace=${m.metadata.namespace}' to perform this operation.`);
  }
  const ns = kind.namespaced ? (m.metadata?.namespace || nsOf(p)) : undefined;
  const manifest: Obj = structuredClone(m);
  manifest.metadata = { ...manifest.metadata, ...(ns ? { namespace: ns } : {}) };
  manifest.metadata.annotations = { ...manifest.metadata.annotations };
  const applied = lastApplied(manifest);
  const dry = str(p, 'dry-run');
  const suffix = dry === 'client' || dry === 'server' ? ` (${dry} dry run)` : '';
  const cur = r.req({ verb: 'get', resource, namespace: ns, name });
  if (!cur.ok) {
    if (cur.code !== 404) {
      if (cur.code === 0) throw new Fail(`error: error validating ${source}: error validating data: failed to download openapi: Get "https://127.0.0.1:6443/openapi/v2?timeout=32s": dial tcp 127.0.0.1:6443: connect: connection refused; if you choose to ignore these errors, turn validation off with --validate=false`);
      throw new Fail(apiError(cur.status));
    }
    const body = structuredClone(manifest);
    body.metadata.annotations[LAST_APPLIED] = applied;
    if (dry !== 'client') {
      const res = r.req({ verb: 'create', resource, namespace: ns, body, options: dry === 'server' ? { dryRun: true } : undefined });
      if (!res.ok) throw new Fail(apiError(res.status));
    }
    r.print(`${kind.singular}/${name} created${suffix}\n`);
    return;
  }
  const live = cur.object as Obj;
  const prev = (() => { try { return JSON.parse(live.metadata?.annotations?.[LAST_APPLIED] ?? '{}'); } catch { return {}; } })();
  const next: Obj = structuredClone(live);
  // A three-way merge in miniature: fields the last apply set but this one drops are removed;
  // fields set by others (controllers, kubectl scale) and not named by either apply are kept.
  next.metadata.labels = { ...next.metadata.labels };
  for (const k of Object.keys(prev.metadata?.labels ?? {})) if (!(k in (manifest.metadata.labels ?? {}))) delete next.metadata.labels[k];
  Object.assign(next.metadata.labels, manifest.metadata.labels ?? {});
  if (!Object.keys(next.metadata.labels).length) delete next.metadata.labels;
  next.metadata.annotations = { ...next.metadata.annotations };
  for (const k of Object.keys(prev.metadata?.annotations ?? {})) if (!(k in manifest.metadata.annotations)) delete next.metadata.annotations[k];
  Object.assign(next.metadata.annotations, manifest.metadata.annotations, { [LAST_APPLIED]: applied });
  for (const top of Object.keys(manifest)) {
    if (top === 'metadata' || top === 'status' || top === 'apiVersion' || top === 'kind') continue;
    if (manifest[top] && typeof manifest[top] === 'object' && !Array.isArray(manifest[top]) && next[top] && typeof next[top] === 'object') {
      const merged = mergeDeep(next[top], manifest[top]);
      for (const k of Object.keys(prev[top] ?? {})) if (!(k in manifest[top])) delete merged[k];
      next[top] = merged;
    } else next[top] = manifest[top];
  }
  for (const top of Object.keys(prev)) if (!(top in manifest) && top !== 'status' && top !== 'metadata') delete next[top];
  if (dry === 'client') { r.print(`${kind.singular}/${name} configured${suffix}\n`); return; }
  const res = r.req({ verb: 'update', resource, namespace: ns, name, body: next, options: dry === 'server' ? { dryRun: true } : undefined });
  if (!res.ok) throw new Fail(apiError(res.status));
  r.print(`${kind.singular}/${name} ${res.revision === undefined ? 'unchanged' : 'configured'}${suffix}\n`);
}

/** Strategic-merge in miniature: maps merge, lists of named items merge by name, the rest is replaced. */
function mergeDeep(live: unknown, want: unknown): Obj {
  const isMap = (v: unknown) => !!v && typeof v === 'object' && !Array.isArray(v);
  if (isMap(live) && isMap(want)) {
    const out: Obj = { ...(live as Obj) };
    for (const [k, v] of Object.entries(want as Obj)) out[k] = mergeDeep((live as Obj)[k], v);
    return out;
  }
  const named = (v: unknown) => Array.isArray(v) && v.every((x) => isMap(x) && typeof x.name === 'string');
  if (named(live) && named(want)) return (want as Obj[]).map((w) => mergeDeep((live as Obj[]).find((l) => l.name === w.name), w));
  // Lists of maps without a name key (ports): element by element, so server defaults survive.
  const maps = (v: unknown) => Array.isArray(v) && v.every(isMap);
  if (maps(live) && maps(want) && (live as Obj[]).length === (want as Obj[]).length) return (want as Obj[]).map((w, i) => mergeDeep((live as Obj[])[i], w));
  return want;
}

// kubectl create subcommands for objects this cluster does not have, and why.
const CREATE_NOT_SIMULATED: Record<string, string> = {
  configmap: 'the simulated cluster has no ConfigMaps', cm: 'the simulated cluster has no ConfigMaps',
  secret: 'the simulated cluster has no Secrets',
  job: 'the simulated cluster runs no Job controller', cronjob: 'the simulated cluster runs no CronJob controller', cj: 'the simulated cluster runs no CronJob controller',
  ingress: 'the simulated cluster has no Ingresses', ing: 'the simulated cluster has no Ingresses',
  role: 'RBAC objects are built into this simulator, not created', clusterrole: 'RBAC objects are built into this simulator, not created',
  rolebinding: 'RBAC objects are built into this simulator, not created', clusterrolebinding: 'RBAC objects are built into this simulator, not created',
  serviceaccount: 'the simulated cluster has no ServiceAccount objects', sa: 'the simulated cluster has no ServiceAccount objects',
  quota: 'the simulated cluster has no ResourceQuotas', priorityclass: 'the simulated cluster has no PriorityClasses', pc: 'the simulated cluster has no PriorityClasses',
  poddisruptionbudget: 'the simulated cluster has no PodDisruptionBudgets', pdb: 'the simulated cluster has no PodDisruptionBudgets',
  token: 'the simulated cluster issues no ServiceAccount tokens',
};

function cmdCreate(r: Run, argv: string[]): void {
  if (argv[0] === 'namespace' || argv[0] === 'ns') { cmdCreateNamespace(r, argv.slice(1)); return; }
  if (argv[0] === 'service' || argv[0] === 'svc') { cmdCreateService(r, argv.slice(1)); return; }
  if (argv[0] !== undefined && Object.hasOwn(CREATE_NOT_SIMULATED, argv[0])) {
    throw new Fail(`error: kubectl create ${argv[0]} is a real command that this simulator does not run: ${CREATE_NOT_SIMULATED[argv[0]]}`);
  }
  if (argv[0] !== 'deployment' && argv[0] !== 'deploy') {
    if (argv[0] === '-f' || argv[0]?.startsWith('--filename')) { cmdApplyAsCreate(r, argv); return; }
    throw new Fail(argv[0] && !argv[0].startsWith('-') ? `error: unknown command "${argv[0]}" for "kubectl create"` : 'error: must specify one of -f and -k');
  }
  const p = parse(r, 'create deployment', argv.slice(1), { image: { kind: 'string' }, replicas: { kind: 'string', short: 'r' }, port: { kind: 'string' }, 'dry-run': { kind: 'string' }, output: { kind: 'string', short: 'o' } });
  const name = p.args[0];
  if (!name) throw new Fail('error: exactly one NAME is required, got 0\nSee \'kubectl create deployment -h\' for help and examples');
  const image = str(p, 'image');
  if (!image) throw new Fail('error: required flag(s) "image" not set');
  const replicas = str(p, 'replicas') === undefined ? 1 : Number(str(p, 'replicas'));
  if (!Number.isInteger(replicas)) throw new Fail(`error: invalid argument "${str(p, 'replicas')}" for "-r, --replicas" flag: strconv.ParseInt: parsing "${str(p, 'replicas')}": invalid syntax\nSee 'kubectl create deployment --help' for usage.`);
  const port = str(p, 'port');
  const ns = nsOf(p);
  const body: Obj = deploymentFor(name, image, replicas, ns, port === undefined ? undefined : Number(port));
  const res = r.req({ verb: 'create', resource: 'deployments', namespace: ns, body });
  // create_deployment.go wraps the API error in its own words (so no "Error from server (…)").
  if (!res.ok) throw new Fail(res.code === 0 ? apiError(res.status) : `error: failed to create deployment: ${res.status.message}`);
  r.print(`deployment.apps/${name} created\n`);
}

/** kubectl create namespace NAME. */
function cmdCreateNamespace(r: Run, argv: string[]): void {
  const p = parse(r, 'create namespace', argv, {});
  if (p.args.length !== 1) throw new Fail(`error: exactly one NAME is required, got ${p.args.length}\nSee 'kubectl create namespace -h' for help and examples`);
  const name = p.args[0];
  const res = r.req({ verb: 'create', resource: 'namespaces', body: { apiVersion: 'v1', kind: 'Namespace', metadata: { name } } });
  if (!res.ok) throw new Fail(apiError(res.status));
  r.print(`namespace/${name} created\n`);
}

/** validation.IsValidPortName's complaints, joined as create service joins them. */
function portNameErrors(name: string): string[] {
  const errs: string[] = [];
  if (name.length > 15) errs.push('must be no more than 15 characters');
  if (!/^[-a-z0-9]+$/.test(name)) errs.push('must contain only alpha-numeric characters (a-z, 0-9), and hyphens (-)');
  if (!/[a-z]/.test(name)) errs.push('must contain at least one letter (a-z)');
  if (name.includes('--')) errs.push('must not contain consecutive hyphens');
  if (name.length > 0 && (name.startsWith('-') || name.endsWith('-'))) errs.push('must not begin or end with a hyphen');
  return errs;
}

/** create service's parsePorts: `port[:targetPort]`, the port as utilsnet.ParsePort reads it, the target a number or a port name. */
function parseServicePort(spec: string): { port: number; targetPort: number | string } {
  const parts = spec.split(':');
  const portText = parts[0];
  // strconv.ParseUint(port, 10, 16): digits only, at most 65535 (0 is allowed here).
  if (!/^\d+$/.test(portText)) throw new Fail(`error: strconv.ParseUint: parsing ${JSON.stringify(portText)}: invalid syntax`);
  const port = Number(portText);
  if (port > 65535) throw new Fail(`error: strconv.ParseUint: parsing ${JSON.stringify(portText)}: value out of range`);
  if (parts.length === 1) return { port, targetPort: port };
  const target = parts[1];
  if (/^[+-]?\d+$/.test(target)) {
    const n = Number(target);
    if (n < 1 || n > 65535) throw new Fail('error: must be between 1 and 65535, inclusive');
    return { port, targetPort: n };
  }
  const errs = portNameErrors(target);
  if (errs.length) throw new Fail(`error: ${errs.join(',')}`);
  return { port, targetPort: target };
}

/** kubectl create service clusterip|nodeport NAME --tcp=port[:targetPort] (selector and label app=NAME). */
function cmdCreateService(r: Run, argv: string[]): void {
  const types: Record<string, string> = { clusterip: 'ClusterIP', nodeport: 'NodePort' };
  const sub = argv[0];
  if (sub === 'loadbalancer' || sub === 'externalname') {
    throw new Fail(`error: kubectl create service ${sub} is a real command that this simulator does not run: ${sub === 'loadbalancer' ? 'the simulated cluster has no cloud load balancers' : 'the simulated cluster has no DNS'}`);
  }
  if (!sub || !Object.hasOwn(types, sub)) throw new Fail(sub ? `error: unknown command "${sub}" for "kubectl create service"` : 'error: Required subcommand not specified.');
  const type = types[sub];
  const p = parse(r, `create service ${sub}`, argv.slice(1), { tcp: { kind: 'strings' }, clusterip: { kind: 'string' }, 'node-port': { kind: 'string' } });
  if (p.args.length !== 1) throw new Fail(`error: exactly one NAME is required, got ${p.args.length}\nSee 'kubectl create service ${sub} -h' for help and examples`);
  const name = p.args[0];
  const tcp = str(p, 'tcp')?.split(',').filter((x) => x !== '') ?? [];
  const clusterIP = sub === 'clusterip' ? str(p, 'clusterip') : undefined;
  // ServiceOptions.Validate (the headless `--clusterip=None` needs no port).
  if (clusterIP !== 'None' && tcp.length === 0) throw new Fail('error: at least one tcp port specifier must be provided');
  const nodePort = sub === 'nodeport' && str(p, 'node-port') !== undefined ? Number(str(p, 'node-port')) : 0;
  const ports = tcp.map((spec) => {
    const { port, targetPort } = parseServicePort(spec);
    const sp: Obj = { name: spec.replace(/:/g, '-'), port, targetPort, protocol: 'TCP' };
    if (nodePort) sp.nodePort = nodePort;
    return sp;
  });
  const spec: Obj = { ports, selector: { app: name }, type };
  if (clusterIP !== undefined && clusterIP !== '') spec.clusterIP = clusterIP;
  const ns = nsOf(p);
  const res = r.req({ verb: 'create', resource: 'services', namespace: ns, body: { apiVersion: 'v1', kind: 'Service', metadata: { name, namespace: ns, labels: { app: name } }, spec } });
  if (!res.ok) throw new Fail(res.code === 0 ? apiError(res.status) : `error: failed to create ${type} service: ${res.status.message}`);
  r.print(`service/${name} created\n`);
}

/** kubectl api-versions: the group/versions the API server serves, sorted. */
function cmdApiVersions(r: Run, argv: string[]): void {
  parse(r, 'api-versions', argv, {});
  const gv = new Set(Object.values(RESOURCES).map((i) => (i.group ? `${i.group}/${i.version}` : i.version)));
  for (const v of [...gv].sort()) r.print(`${v}\n`);
}

function cmdApplyAsCreate(r: Run, argv: string[]): void {
  const p = parse(r, 'create', argv, { filename: { kind: 'string', short: 'f' } });
  const file = str(p, 'filename')!;
  const objs = manifestObjects(r, readSource(r, file), file === '-' ? 'STDIN' : file);
  for (const m of objs) {
    const resource = resourceForKind(m.kind ?? '');
    if (!resource) { r.error(`error: resource mapping not found for name: "${m.metadata?.name ?? ''}" namespace: "" from "${file}": no matches for kind "${m.kind}" in version "${m.apiVersion}"\nensure CRDs are installed first`); continue; }
    const kind = kindInfo(resource);
    const ns = kind.namespaced ? (m.metadata?.namespace || nsOf(p)) : undefined;
    const res = r.req({ verb: 'create', resource, namespace: ns, body: m });
    if (!res.ok) { r.error(apiError(res.status)); continue; }
    r.print(`${kind.singular}/${m.metadata?.name} created\n`);
  }
}

// ---------------------------------------------------------------- scale, set image, label, expose

function oneTarget(r: Run, args: string[], cmd: string): { kind: KindInfo; name: string } {
  const t = targets(args);
  if (t.names.length !== 1) throw new Fail(`error: ${t.names.length ? 'there is no need to specify more than one resource' : 'resource(s) were provided, but no name was specified'}\nSee 'kubectl ${cmd} -h' for help and examples`);
  return t.names[0];
}

function cmdScale(r: Run, argv: string[]): void {
  const p = parse(r, 'scale', argv, { replicas: { kind: 'string' }, 'current-replicas': { kind: 'string' } });
  const rep = str(p, 'replicas');
  if (rep === undefined) throw new Fail('error: required flag(s) "replicas" not set');
  const n = Number(rep);
  if (!Number.isInteger(n)) throw new Fail(`error: invalid argument "${rep}" for "--replicas" flag: strconv.ParseInt: parsing "${rep}": invalid syntax\nSee 'kubectl scale --help' for usage.`);
  if (n < 0) throw new Fail('error: The --replicas=COUNT flag is required, and COUNT must be greater than or equal to 0');
  const t = targets(p.args);
  if (!t.names.length) throw new Fail('error: resource(s) were provided, but no name was specified');
  for (const { kind, name } of t.names) {
    if (kind.resource !== 'deployments' && kind.resource !== 'replicasets') { r.error(`error: no scaler has been implemented for {"${RESOURCES[kind.resource].group}" "${RESOURCES[kind.resource].kind}"}`); continue; }
    const res = r.req(scaleRequest(kind.resource, name, n, nsOf(p)));
    if (!res.ok) { if (res.code === 0) throw new Fail(apiError(res.status)); r.error(apiError(res.status)); continue; }
    r.print(`${kind.singular}/${name} scaled\n`);
  }
}

function cmdSet(r: Run, argv: string[]): void {
  if (argv[0] !== 'image') throw new Fail(argv[0] ? `error: unknown command "${argv[0]}" for "kubectl set"` : 'error: Required subcommand not specified.');
  const p = parse(r, 'set image', argv.slice(1), {});
  const pairs = p.args.filter((a) => a.includes('='));
  const rest = p.args.filter((a) => !a.includes('='));
  if (!pairs.length) throw new Fail('error: at least one image update is required\nSee \'kubectl set image -h\' for help and examples');
  const { kind, name } = oneTarget(r, rest, 'set image');
  const ns = nsOf(p);
  const d = r.must({ verb: 'get', resource: kind.resource, namespace: ns, name });
  const tpl = kind.resource === 'pods' ? d : d.spec?.template;
  const containers: Obj[] = structuredClone(tpl?.spec?.containers ?? []);
  for (const pair of pairs) {
    const [cname, image] = [pair.slice(0, pair.indexOf('=')), pair.slice(pair.indexOf('=') + 1)];
    const targetsC = cname === '*' ? containers : containers.filter((c) => c.name === cname);
    if (!targetsC.length) throw new Fail(`error: unable to find container named "${cname}"`);
    for (const c of targetsC) c.image = image;
  }
  const patch = kind.resource === 'pods' ? { spec: { containers: containers.map((c) => ({ name: c.name, image: c.image })) } }
    : { spec: { template: { spec: { containers: containers.map((c) => ({ name: c.name, image: c.image })) } } } };
  r.must({ verb: 'patch', resource: kind.resource, namespace: ns, name, body: patch });
  r.print(`${kind.singular}/${name} image updated\n`);
}

/**
 * What `kubectl label` and `kubectl annotate` share: the `k=v` (set) and `k-` (remove) arguments, and
 * the objects the rest of the arguments name (`TYPE NAME…`, `TYPE/NAME`, or `TYPE -l SELECTOR`).
 */
function keyValueUpdates(r: Run, p: Parsed, what: 'label' | 'annotation', check?: (k: string, v: string, arg: string) => void): { set: Record<string, string>; remove: string[]; objs: { kind: KindInfo; name: string }[] } {
  const changes = p.args.filter((a) => a.includes('=') || a.endsWith('-'));
  const rest = p.args.filter((a) => !changes.includes(a));
  const cmd = what === 'label' ? 'label' : 'annotate';
  if (!changes.length) throw new Fail(`error: at least one ${what} update is required\nSee 'kubectl ${cmd} -h' for help and examples`);
  const set: Record<string, string> = {};
  const remove: string[] = [];
  for (const c of changes) {
    if (c.endsWith('-') && !c.includes('=')) { remove.push(c.slice(0, -1)); continue; }
    const k = c.slice(0, c.indexOf('='));
    const v = c.slice(c.indexOf('=') + 1);
    check?.(k, v, c);
    set[k] = v;
  }
  const sel = str(p, 'selector');
  let objs: { kind: KindInfo; name: string }[];
  // --all (or a selector) picks every object of the type; a selector narrows it.
  if (sel !== undefined || p.flags.all === true) {
    const kind = kindOrFail(rest[0] ?? '');
    objs = list(r, kind, nsOf(p), sel).map((o) => ({ kind, name: o.metadata.name as string }));
  } else objs = targets(rest).names;
  if (!objs.length) throw new Fail('error: one or more resources must be specified as <resource> <name> or <resource>/<name>');
  return { set, remove, objs };
}

function cmdLabel(r: Run, argv: string[]): void {
  const p = parse(r, 'label', argv, { overwrite: { kind: 'bool' }, selector: { kind: 'string', short: 'l' }, all: { kind: 'bool' } });
  const { set, remove, objs } = keyValueUpdates(r, p, 'label', (k, v, arg) => {
    if (!/^([a-z0-9.-]+\/)?[A-Za-z0-9]([-A-Za-z0-9_.]*[A-Za-z0-9])?$/.test(k) || !/^(([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9])?$/.test(v)) throw new Fail(`error: invalid label spec: ${arg}`);
  });
  const ns = nsOf(p);
  for (const { kind, name } of objs) {
    const cur = r.req({ verb: 'get', resource: kind.resource, namespace: kind.namespaced ? ns : undefined, name });
    if (!cur.ok) { if (cur.code === 0) throw new Fail(apiError(cur.status)); r.error(apiError(cur.status)); continue; }
    const labels: Record<string, string> = { ...(cur.object as Obj).metadata?.labels };
    const patch: Record<string, string | null> = {};
    let bad = false;
    for (const [k, v] of Object.entries(set)) {
      if (k in labels && labels[k] !== v && !bool(p, 'overwrite')) { r.error(`error: '${k}' already has a value (${labels[k]}), and --overwrite is false`); bad = true; break; }
      if (labels[k] !== v) patch[k] = v;
    }
    if (bad) continue;
    for (const k of remove) if (k in labels) patch[k] = null;
    if (!Object.keys(patch).length) { r.print(`${kind.singular}/${name} not labeled\n`); continue; }
    r.must({ verb: 'patch', resource: kind.resource, namespace: kind.namespaced ? ns : undefined, name, body: { metadata: { labels: patch } }, options: { patchType: 'merge' } });
    r.print(`${kind.singular}/${name} ${Object.keys(set).length ? 'labeled' : 'unlabeled'}\n`);
  }
}

function cmdExpose(r: Run, argv: string[]): void {
  const p = parse(r, 'expose', argv, { port: { kind: 'string' }, 'target-port': { kind: 'string' }, type: { kind: 'string' }, name: { kind: 'string' }, protocol: { kind: 'string' } });
  const { kind, name } = oneTarget(r, p.args, 'expose');
  const ns = nsOf(p);
  const o = r.must({ verb: 'get', resource: kind.resource, namespace: kind.namespaced ? ns : undefined, name });
  let selector: Record<string, string> | undefined;
  if (kind.resource === 'deployments' || kind.resource === 'replicasets') selector = o.spec?.selector?.matchLabels;
  else if (kind.resource === 'pods' || kind.resource === 'services') selector = kind.resource === 'pods' ? o.metadata?.labels : o.spec?.selector;
  else throw new Fail(`error: cannot expose a ${RESOURCES[kind.resource].kind}`);
  if (!selector || !Object.keys(selector).length) throw new Fail(`error: couldn't retrieve selectors via --selector flag or introspection: the ${RESOURCES[kind.resource].kind} has no label selector`);
  let port = str(p, 'port');
  if (port === undefined) {
    const cps: Obj[] = ((kind.resource === 'pods' ? o.spec?.containers : o.spec?.template?.spec?.containers) ?? []).flatMap((c: Obj) => c.ports ?? []);
    if (!cps.length) throw new Fail(`error: couldn't find port via --port flag or introspection\nSee 'kubectl expose -h' for help and examples`);
    port = String(cps[0].containerPort);
  }
  const tp = str(p, 'target-port');
  const svcName = str(p, 'name') ?? name;
  const portSpec: Obj = { port: Number(port), protocol: str(p, 'protocol') ?? 'TCP', targetPort: tp === undefined ? Number(port) : /^\d+$/.test(tp) ? Number(tp) : tp };
  const body: Obj = { apiVersion: 'v1', kind: 'Service', metadata: { name: svcName, namespace: ns, labels: o.metadata?.labels }, spec: { ports: [portSpec], selector, type: str(p, 'type') ?? 'ClusterIP' } };
  r.must({ verb: 'create', resource: 'services', namespace: ns, body });
  r.print(`service/${svcName} exposed\n`);
}

// ---------------------------------------------------------------- delete

/** parseCascadingFlag: background (the default), foreground or orphan; the old booleans still work, with a warning. */
function cascadingStrategy(r: Run, flag: string): 'Background' | 'Foreground' | 'Orphan' {
  switch (flag) {
    case 'orphan': return 'Orphan';
    case 'foreground': return 'Foreground';
    case 'background': return 'Background';
  }
  const b = parseGoBool(flag);
  if (b === undefined) throw new Fail(`error: invalid cascade value (${flag}). Must be "background", "foreground", or "orphan"`);
  r.warn(`warning: --cascade=${flag} is deprecated (boolean value) and can be replaced with --cascade=${b ? 'background' : 'orphan'}.\n`);
  return b ? 'Background' : 'Orphan';
}

/** strconv.ParseBool. */
function parseGoBool(s: string): boolean | undefined {
  if (['1', 't', 'T', 'TRUE', 'true', 'True'].includes(s)) return true;
  if (['0', 'f', 'F', 'FALSE', 'false', 'False'].includes(s)) return false;
  return undefined;
}

function cmdDelete(r: Run, argv: string[]): void {
  const p = parse(r, 'delete', argv, {
    selector: { kind: 'string', short: 'l' }, 'grace-period': { kind: 'string' }, force: { kind: 'bool' }, now: { kind: 'bool' },
    wait: { kind: 'bool' }, all: { kind: 'bool' }, 'all-namespaces': { kind: 'bool', short: 'A' }, filename: { kind: 'string', short: 'f' }, 'ignore-not-found': { kind: 'bool' },
    'field-selector': { kind: 'string' }, cascade: { kind: 'string', noOptDefault: 'background' },
  });
  const propagationPolicy = cascadingStrategy(r, str(p, 'cascade') ?? 'background');
  let grace = str(p, 'grace-period') === undefined ? -1 : Number(str(p, 'grace-period'));
  if (!Number.isInteger(grace)) throw new Fail(`error: invalid argument "${str(p, 'grace-period')}" for "--grace-period" flag: strconv.ParseInt: parsing "${str(p, 'grace-period')}": invalid syntax\nSee 'kubectl delete --help' for usage.`);
  const force = bool(p, 'force');
  if (bool(p, 'now')) grace = 1;
  if (grace === 0 && !force) grace = 1;
  if (force && grace < 0) grace = 0;
  const ns = nsOf(p);
  const objs: { kind: KindInfo; name: string; namespace?: string }[] = [];
  const file = str(p, 'filename');
  if (file) {
    for (const m of manifestObjects(r, readSource(r, file), file === '-' ? 'STDIN' : file)) {
      const res = resourceForKind(m.kind ?? '');
      if (!res) continue;
      const k = kindInfo(res);
      objs.push({ kind: k, name: m.metadata?.name, namespace: k.namespaced ? m.metadata?.namespace || ns : undefined });
    }
  } else {
    if (!p.args.length) throw new Fail('error: You must provide one or more resources by argument or filename.\nExample resource specifications include:\n   \'-f rsrc.yaml\'\n   \'--filename=rsrc.json\'\n   \'<resource> <name>\'\n   \'<resource>\'');
    const t = targets(p.args);
    if (t.kinds.length) {
      if (str(p, 'selector') === undefined && str(p, 'field-selector') === undefined && !bool(p, 'all')) throw new Fail('error: resource(s) were provided, but no name was specified');
      const allNs = bool(p, 'all-namespaces');
      for (const kind of t.kinds) {
        const items = list(r, kind, allNs ? undefined : ns, str(p, 'selector'), str(p, 'field-selector'));
        objs.push(...items.map((o) => ({ kind, name: o.metadata.name, namespace: o.metadata.namespace })));
      }
      if (!objs.length) { noResources(r, allNs ? undefined : ns, t.kinds.some((k) => k.namespaced)); return; }
    }
    objs.push(...t.names.map((x) => ({ ...x, namespace: x.kind.namespaced ? ns : undefined })));
  }
  if (grace === 0 && force) r.warn('Warning: Immediate deletion does not wait for confirmation that the running resource has been terminated. The resource may continue to run on the cluster indefinitely.\n');
  const waitFor: { kind: KindInfo; name: string; namespace?: string; uid?: string; grace: number }[] = [];
  for (const o of objs) {
    const options: Obj = {};
    if (grace >= 0) options.gracePeriodSeconds = grace;
    options.propagationPolicy = propagationPolicy;
    const res = r.req({ verb: 'delete', resource: o.kind.resource, namespace: o.namespace, name: o.name, options });
    if (!res.ok) {
      if (res.code === 0) throw new Fail(apiError(res.status));
      if (res.code === 404 && bool(p, 'ignore-not-found')) continue;
      r.error(apiError(res.status));
      continue;
    }
    const op = grace === 0 && force ? 'force deleted' : 'deleted';
    r.print(o.namespace ? `${o.kind.singular} "${o.name}" ${op} from ${o.namespace} namespace\n` : `${o.kind.singular} "${o.name}" ${op}\n`);
    const left = res.object as Obj;
    waitFor.push({ ...o, uid: left?.metadata?.uid, grace: Number(left?.metadata?.deletionGracePeriodSeconds ?? 0) });
  }
  if (p.flags.wait === false) return;
  // --wait (default true): block until the objects are gone, as kubectl does, capped in simulated time.
  // A foreground deletion also waits for the dependents' own graceful termination.
  const cap = Math.max(0, ...waitFor.map((w) => w.grace)) * 1000 + 10_000 + (propagationPolicy === 'Foreground' ? 60_000 : 0);
  const start = r.now;
  const gone = (w: (typeof waitFor)[number]) => {
    const cur = storeGet(r.cluster.world.state.store, w.kind.resource, storeKey(w.kind.resource, w.namespace, w.name));
    return !cur || (w.uid && cur.metadata?.uid !== w.uid);
  };
  while (waitFor.some((w) => !gone(w)) && r.now - start < cap) r.cluster.advance(100);
}

// ---------------------------------------------------------------- rollout

function rolloutTarget(r: Run, args: string[], sub: string): { name: string } {
  const t = targets(args);
  if (!t.names.length) throw new Fail(`error: required resource not specified\nSee 'kubectl rollout ${sub} -h' for help and examples`);
  const { kind, name } = t.names[0];
  if (kind.resource !== 'deployments') throw new Fail(`error: no ${sub === 'status' ? 'status viewer' : sub === 'history' ? 'history viewer' : 'rollbacker'} has been implemented for {"${RESOURCES[kind.resource].group}" "${RESOURCES[kind.resource].kind}"}`);
  return { name };
}

/** The line `kubectl rollout status` prints for a Deployment's state, and whether it is final. */
export function rolloutStatusLine(d: Obj): { line: string; done: boolean; error?: boolean } {
  const name = d.metadata?.name;
  const st = d.status ?? {};
  if ((d.metadata?.generation ?? 0) > (st.observedGeneration ?? 0)) return { line: 'Waiting for deployment spec update to be observed...', done: false };
  const prog = (st.conditions ?? []).find((c: Obj) => c.type === 'Progressing');
  if (prog?.reason === 'ProgressDeadlineExceeded') return { line: `error: deployment "${name}" exceeded its progress deadline`, done: true, error: true };
  const spec = d.spec?.replicas ?? 1;
  const updated = st.updatedReplicas ?? 0;
  if (updated < spec) return { line: `Waiting for deployment "${name}" rollout to finish: ${updated} out of ${spec} new replicas have been updated...`, done: false };
  if ((st.replicas ?? 0) > updated) return { line: `Waiting for deployment "${name}" rollout to finish: ${(st.replicas ?? 0) - updated} old replicas are pending termination...`, done: false };
  if ((st.availableReplicas ?? 0) < updated) return { line: `Waiting for deployment "${name}" rollout to finish: ${st.availableReplicas ?? 0} of ${updated} updated replicas are available...`, done: false };
  return { line: `deployment "${name}" successfully rolled out`, done: true };
}

function ownedReplicaSets(r: Run, d: Obj): Obj[] {
  return list(r, kindInfo('replicasets'), d.metadata.namespace, labelSelectorAsString(d.spec?.selector))
    .filter((rs) => (rs.metadata?.ownerReferences ?? []).some((ref: Obj) => ref.uid === d.metadata.uid));
}

const revisionOf = (o: Obj) => Number(o.metadata?.annotations?.['deployment.kubernetes.io/revision'] ?? 0);

function cmdRollout(r: Run, argv: string[]): void {
  const sub = argv[0];
  const subs = ['status', 'history', 'undo', 'pause', 'resume', 'restart'];
  if (!sub || !subs.includes(sub)) throw new Fail(sub ? `error: unknown command "${sub}" for "kubectl rollout"` : 'error: Required subcommand not specified.');
  const p = parse(r, `rollout ${sub}`, argv.slice(1), sub === 'undo' ? { 'to-revision': { kind: 'string' } } : sub === 'status' ? { watch: { kind: 'bool', short: 'w' }, timeout: { kind: 'string' } } : sub === 'history' ? { revision: { kind: 'string' } } : {});
  const { name } = rolloutTarget(r, p.args, sub);
  const ns = nsOf(p);
  const get = () => r.must({ verb: 'get', resource: 'deployments', namespace: ns, name });
  const d = get();
  const qualified = `deployment.apps/${name}`;
  switch (sub) {
    case 'status': {
      // kubectl watches the Deployment and prints each distinct line; here simulated time runs
      // forward until the rollout finishes or its progress deadline (plus slack) passes.
      const deadline = r.now + ((d.spec?.progressDeadlineSeconds ?? 600) + 60) * 1000;
      let last = '';
      let cur = d;
      for (;;) {
        const s = rolloutStatusLine(cur);
        if (s.error) throw new Fail(s.line);
        if (s.line !== last) { r.print(s.line + '\n'); last = s.line; }
        if (s.done) return;
        if (r.now >= deadline) throw new Fail('error: timed out waiting for the condition');
        r.cluster.advance(100);
        const o = storeGet(r.cluster.world.state.store, 'deployments', storeKey('deployments', ns, name));
        if (!o) throw new Fail(`error: deployment "${name}" was deleted`);
        cur = o;
      }
    }
    case 'history': {
      const rss = ownedReplicaSets(r, d).sort((a, b) => revisionOf(a) - revisionOf(b));
      const revision = str(p, 'revision') === undefined ? 0 : Number(str(p, 'revision'));
      if (!Number.isInteger(revision)) throw new Fail(`error: invalid argument "${str(p, 'revision')}" for "--revision" flag: strconv.ParseInt: parsing "${str(p, 'revision')}": invalid syntax\nSee 'kubectl rollout history --help' for usage.`);
      if (revision < 0) throw new Fail(`error: revision must be a positive integer: ${revision}`);
      if (revision > 0) {
        // ViewHistory with a revision: that ReplicaSet's pod template, printed by printTemplate.
        const rs = rss.find((x) => revisionOf(x) === revision);
        if (!rs) throw new Fail(`error: unable to find the specified revision`);
        r.print(`${qualified} with revision #${revision}\n${podTemplateText(rs.spec?.template ?? {})}\n`);
        return;
      }
      if (!rss.length) { r.print('No rollout history found.\n'); return; }
      let t = 'REVISION\tCHANGE-CAUSE\n';
      for (const rs of rss) t += `${revisionOf(rs)}\t${rs.metadata?.annotations?.['kubernetes.io/change-cause'] ?? '<none>'}\n`;
      r.print(`${qualified} \n${tabwriteGet(t)}\n`);
      return;
    }
    case 'undo': {
      if (d.spec?.paused) throw new Fail(`error: you cannot rollback a paused deployment; resume it first with 'kubectl rollout resume deployment/${name}' and try again`);
      const toRev = Number(str(p, 'to-revision') ?? 0);
      const rss = ownedReplicaSets(r, d);
      let target: Obj | undefined;
      if (toRev === 0) {
        const sorted = rss.filter((x) => revisionOf(x) > 0).sort((a, b) => revisionOf(b) - revisionOf(a));
        if (sorted.length < 2) throw new Fail(`error: no rollout history found for deployment "${name}"`);
        target = sorted[1];
      } else {
        target = rss.find((x) => revisionOf(x) === toRev);
        if (!target) throw new Fail(`error: unable to find specified revision ${toRev} in history`);
      }
      if (sameTemplate(target.spec.template, d.spec.template)) {
        r.print(`${qualified} skipped rollback (current template already matches revision ${revisionOf(target)})\n`);
        return;
      }
      const tpl = structuredClone(target.spec.template);
      if (tpl.metadata?.labels) delete tpl.metadata.labels['pod-template-hash'];
      const next = structuredClone(d);
      next.spec.template = tpl;
      r.must({ verb: 'update', resource: 'deployments', namespace: ns, name, body: next });
      r.print(`${qualified} rolled back\n`);
      return;
    }
    case 'pause':
      if (d.spec?.paused) throw new Fail(`error: deployments.apps "${name}" is already paused`);
      r.must({ verb: 'patch', resource: 'deployments', namespace: ns, name, body: { spec: { paused: true } } });
      r.print(`${qualified} paused\n`);
      return;
    case 'resume':
      if (!d.spec?.paused) throw new Fail(`error: deployments.apps "${name}" is not paused`);
      r.must({ verb: 'patch', resource: 'deployments', namespace: ns, name, body: { spec: { paused: null } }, options: { patchType: 'merge' } });
      r.print(`${qualified} resumed\n`);
      return;
    case 'restart':
      if (d.spec?.paused) throw new Fail(`error: deployments.apps "${name}" can't restart paused deployment (run rollout resume first)`);
      r.must({ verb: 'patch', resource: 'deployments', namespace: ns, name, body: { spec: { template: { metadata: { annotations: { 'kubectl.kubernetes.io/restartedAt': rfc3339(r.now) } } } } } });
      r.print(`${qualified} restarted\n`);
      return;
  }
}

function tabwriteGet(t: string): string {
  return printTableRaw(t);
}

// ---------------------------------------------------------------- nodes: cordon, drain, taint

function setUnschedulable(r: Run, name: string, on: boolean): void {
  const n = r.must({ verb: 'get', resource: 'nodes', name });
  const word = on ? 'cordoned' : 'uncordoned';
  if (!!n.spec?.unschedulable === on) { r.print(`node/${name} already ${word}\n`); return; }
  r.must({ verb: 'patch', resource: 'nodes', name, body: { spec: { unschedulable: on ? true : null } }, options: { patchType: 'merge' } });
  r.print(`node/${name} ${word}\n`);
}

function cmdCordon(r: Run, argv: string[], on: boolean): void {
  const cmd = on ? 'cordon' : 'uncordon';
  const p = parse(r, cmd, argv, { selector: { kind: 'string', short: 'l' } });
  if (!p.args.length) throw new Fail(`error: USAGE: ${cmd} NODE [flags]\nSee 'kubectl ${cmd} -h' for help and examples`);
  for (const n of p.args) setUnschedulable(r, n.replace(/^(node|nodes|no)\//, ''), on);
}

function cmdDrain(r: Run, argv: string[]): void {
  const p = parse(r, 'drain', argv, { 'ignore-daemonsets': { kind: 'bool' }, 'delete-emptydir-data': { kind: 'bool' }, force: { kind: 'bool' }, 'grace-period': { kind: 'string' }, timeout: { kind: 'string' }, 'disable-eviction': { kind: 'bool' } });
  if (p.args.length !== 1) throw new Fail('error: USAGE: drain NODE [flags]\nSee \'kubectl drain -h\' for help and examples');
  const node = p.args[0].replace(/^(node|nodes|no)\//, '');
  setUnschedulable(r, node, true);
  const pods = list(r, kindInfo('pods'), undefined, undefined, `spec.nodeName=${node}`);
  const ds: string[] = [];
  const unmanaged: string[] = [];
  const evict: Obj[] = [];
  for (const pod of pods) {
    const key = `${pod.metadata.namespace}/${pod.metadata.name}`;
    if (pod.metadata?.annotations?.['kubernetes.io/config.mirror']) continue;
    if (pod.status?.phase === 'Succeeded' || pod.status?.phase === 'Failed') { evict.push(pod); continue; }
    const owner = (pod.metadata?.ownerReferences ?? []).find((o: Obj) => o.controller);
    if (owner?.kind === 'DaemonSet') { ds.push(key); continue; }
    if (!owner && !bool(p, 'force')) { unmanaged.push(key); continue; }
    evict.push(pod);
  }
  const errs: string[] = [];
  if (ds.length && !bool(p, 'ignore-daemonsets')) errs.push(`cannot delete DaemonSet-managed Pods (use --ignore-daemonsets to ignore): ${ds.join(', ')}`);
  if (unmanaged.length) errs.push(`cannot delete Pods that declare no controller (use --force to override): ${unmanaged.join(', ')}`);
  if (errs.length) {
    const agg = errs.length > 1 ? `[${errs.join(', ')}]` : errs[0];
    throw new Fail(`error: unable to drain node "${node}" due to error: ${agg}, continuing command...\nThere are pending nodes to be drained:\n ${node}\nerror: ${agg}`);
  }
  if (ds.length) r.warn(`Warning: ignoring DaemonSet-managed Pods: ${ds.join(', ')}\n`);
  const grace = str(p, 'grace-period') === undefined ? undefined : Number(str(p, 'grace-period'));
  for (const pod of evict) {
    r.print(`evicting pod ${pod.metadata.namespace}/${pod.metadata.name}\n`);
    const res = r.req({ verb: 'create', resource: 'pods', namespace: pod.metadata.namespace, name: pod.metadata.name, subresource: 'eviction', body: { apiVersion: 'policy/v1', kind: 'Eviction', metadata: { name: pod.metadata.name, namespace: pod.metadata.namespace }, ...(grace !== undefined && grace >= 0 ? { deleteOptions: { gracePeriodSeconds: grace } } : {}) } });
    if (!res.ok && res.code !== 404) throw new Fail(apiError(res.status));
  }
  const timeoutMs = str(p, 'timeout') ? parseDurationMs(str(p, 'timeout')!) ?? 0 : 0;
  const cap = timeoutMs > 0 ? timeoutMs : 5 * 60_000;
  const start = r.now;
  const pending = [...evict];
  for (;;) {
    for (let i = 0; i < pending.length; i++) {
      const pod = pending[i];
      const cur = storeGet(r.cluster.world.state.store, 'pods', storeKey('pods', pod.metadata.namespace, pod.metadata.name));
      if (!cur || cur.metadata?.uid !== pod.metadata.uid) { r.print(`pod/${pod.metadata.name} evicted\n`); pending.splice(i--, 1); }
    }
    if (!pending.length) break;
    if (r.now - start >= cap) {
      const pod = pending[0];
      const err = `error when waiting for pod "${pod.metadata.name}" in namespace "${pod.metadata.namespace}" to terminate: global timeout reached: ${goDur(cap)}`;
      throw new Fail(`There are pending pods in node "${node}" when an error occurred: ${err}\n${pending.map((x) => `pod/${x.metadata.name}`).join('\n')}\nerror: unable to drain node "${node}" due to error: ${err}, continuing command...\nThere are pending nodes to be drained:\n ${node}\nerror: ${err}`);
    }
    r.cluster.advance(100);
  }
  r.print(`node/${node} drained\n`);
}

function goDur(ms: number): string {
  const s = Math.floor(ms / 1000);
  const h = Math.floor(s / 3600); const m = Math.floor((s % 3600) / 60); const sec = s % 60;
  return h ? `${h}h${m}m${sec}s` : m ? `${m}m${sec}s` : `${sec}s`;
}

/** Parse a Go-style duration (`500ms`, `30s`, `5m`, `1h2m`, `1.5s`) to ms; undefined when malformed. */
export function parseDurationMs(s: string): number | undefined {
  if (s === '0') return 0;
  const re = /(\d+(?:\.\d+)?)(ms|h|m|s)/gy;
  let total = 0;
  let matched = 0;
  let m: RegExpExecArray | null;
  while ((m = re.exec(s))) {
    const n = parseFloat(m[1]);
    total += n * (m[2] === 'h' ? 3_600_000 : m[2] === 'm' ? 60_000 : m[2] === 's' ? 1000 : 1);
    matched = re.lastIndex;
  }
  if (!s || matched !== s.length) return undefined;
  return Math.round(total);
}

const EFFECTS = ['NoSchedule', 'PreferNoSchedule', 'NoExecute'];

function cmdTaint(r: Run, argv: string[]): void {
  const p = parse(r, 'taint', argv, { overwrite: { kind: 'bool' }, selector: { kind: 'string', short: 'l' }, all: { kind: 'bool' } });
  const specs = p.args.filter((a) => a.includes(':') || a.endsWith('-') || a.includes('='));
  const rest = p.args.filter((a) => !specs.includes(a));
  const t = targets(rest);
  if (!t.names.length || !specs.length) throw new Fail('error: at least one taint update is required\nSee \'kubectl taint -h\' for help and examples');
  for (const { kind } of t.names) if (kind.resource !== 'nodes') throw new Fail(`error: invalid resource type ${RESOURCES[kind.resource].kind.toLowerCase()}s, only node types are supported`);
  const add: Obj[] = [];
  const remove: { key: string; effect?: string }[] = [];
  for (const s of specs) {
    if (s.endsWith('-')) {
      const body = s.slice(0, -1);
      const [kv, effect] = body.split(':');
      const key = kv.split('=')[0];
      if (effect && !EFFECTS.includes(effect)) throw new Fail(`error: invalid taint effect: ${effect}, unsupported taint effect`);
      remove.push({ key, effect });
    } else {
      const m = /^([^=:]+)(?:=([^:]*))?:(.*)$/.exec(s);
      if (!m) throw new Fail(`error: invalid taint spec: ${s}, unknown taint spec`);
      if (!EFFECTS.includes(m[3])) throw new Fail(`error: invalid taint effect: ${m[3]}, unsupported taint effect`);
      add.push({ key: m[1], ...(m[2] ? { value: m[2] } : {}), effect: m[3] });
    }
  }
  for (const { name } of t.names) {
    const n = r.must({ verb: 'get', resource: 'nodes', name });
    let taints: Obj[] = [...(n.spec?.taints ?? [])];
    for (const a of add) {
      const i = taints.findIndex((x) => x.key === a.key && x.effect === a.effect);
      if (i >= 0 && !bool(p, 'overwrite')) throw new Fail(`error: node ${name} already has ${a.key} taint(s) with same effect(s) and --overwrite is false`);
      if (i >= 0) taints[i] = a; else taints.push(a);
    }
    for (const rm of remove) {
      const before = taints.length;
      taints = taints.filter((x) => !(x.key === rm.key && (!rm.effect || x.effect === rm.effect)));
      if (taints.length === before) throw new Fail(`error: taint "${rm.key}${rm.effect ? ':' + rm.effect : ''}" not found`);
    }
    r.must({ verb: 'patch', resource: 'nodes', name, body: { spec: { taints: taints.length ? taints : null } }, options: { patchType: 'merge' } });
    r.print(`node/${name} ${add.length ? 'tainted' : 'untainted'}\n`);
  }
}

// ---------------------------------------------------------------- cluster-info, version

function cmdClusterInfo(r: Run, argv: string[]): void {
  parse(r, 'cluster-info', argv, {});
  const res = r.req({ verb: 'list', resource: 'services', namespace: 'kube-system', options: { labelSelector: 'kubernetes.io/cluster-service=true' } });
  if (!res.ok) throw new Fail(`\nTo further debug and diagnose cluster problems, use 'kubectl cluster-info dump'.\n${apiError(res.status)}`);
  r.print('Kubernetes control plane is running at https://127.0.0.1:6443\n');
  for (const s of (res.object as Obj).items ?? []) {
    const name = s.metadata?.labels?.['kubernetes.io/name'] ?? s.metadata.name;
    const port = s.spec?.ports?.[0]?.name ? `:${s.spec.ports[0].name}` : '';
    r.print(`${name} is running at https://127.0.0.1:6443/api/v1/namespaces/kube-system/services/${s.metadata.name}${port}/proxy\n`);
  }
  r.print('\nTo further debug and diagnose cluster problems, use \'kubectl cluster-info dump\'.\n');
}

function cmdVersion(r: Run, argv: string[]): void {
  const p = parse(r, 'version', argv, { client: { kind: 'bool' }, output: { kind: 'string', short: 'o' } });
  r.print(`Client Version: ${KUBECTL_VERSION}\nKustomize Version: v5.7.1\n`);
  if (bool(p, 'client')) return;
  const res = r.req({ verb: 'get', resource: 'namespaces', name: 'default' });
  if (!res.ok && res.code === 0) throw new Fail(apiError(res.status));
  r.print(`Server Version: ${KUBECTL_VERSION}\n`);
}

// ---------------------------------------------------------------- entry

const COMMANDS: Record<string, (r: Run, argv: string[]) => void> = {
  get: cmdGet, describe: cmdDescribe, apply: cmdApply, create: cmdCreate, scale: cmdScale, set: cmdSet,
  rollout: cmdRollout, delete: cmdDelete, cordon: (r, a) => cmdCordon(r, a, true), uncordon: (r, a) => cmdCordon(r, a, false),
  drain: cmdDrain, taint: cmdTaint, label: cmdLabel, expose: cmdExpose, 'cluster-info': cmdClusterInfo, version: cmdVersion, events: cmdEvents, wait: cmdWait, logs: cmdLogs, run: cmdRun, annotate: cmdAnnotate, patch: cmdPatch, top: cmdTop, 'api-resources': cmdApiResources, 'api-versions': cmdApiVersions, auth: cmdAuth,
};

/**
 * Real kubectl commands the simulator leaves out, with why: a reader who types one learns it exists
 * and what to use here instead, rather than being told there is no such command.
 */
const NOT_SIMULATED: Record<string, string> = {
  exec: 'the simulated containers run no processes to start a shell or a command in (kubectl logs and describe pod show what they do)',
  attach: 'the simulated containers have no terminal to attach to (kubectl logs shows their output)',
  'port-forward': 'there is no network between your machine and the simulated pods',
  proxy: 'there is no network between your machine and the simulated API server',
  cp: 'the simulated containers have no file systems',
  debug: 'the simulated containers run no processes to add a debugging container beside',
  edit: 'there is no editor here; use kubectl patch, kubectl set image or kubectl apply -f - instead',
  replace: 'use kubectl apply -f - instead',
  explain: 'the API documentation is not bundled with this simulator (see kubernetes.io/docs/reference/kubernetes-api/)',
  autoscale: 'the cluster runs no metrics-server and no HorizontalPodAutoscaler controller',
  certificate: 'the simulated cluster has no certificate signing',
  config: 'the simulator has one cluster and one user (kubernetes-admin); there is no kubeconfig to change',
  plugin: 'the simulator has no plugins',
  kustomize: 'apply a manifest with kubectl apply -f - instead',
  diff: 'apply the manifest and read the result with kubectl get -o yaml instead',
};

/** kubectl's short help (what a bare `kubectl` prints). */
export const KUBECTL_HELP = `kubectl controls the Kubernetes cluster manager.

 Find more information at: https://kubernetes.io/docs/reference/kubectl/

Commands in this simulator:
  create             Create a deployment, namespace or service (clusterip, nodeport), or objects from a file
  run                Run a particular image on the cluster (one pod)
  expose             Take a deployment and expose it as a new Kubernetes service
  get                Display one or many resources
  describe           Show details of a specific resource
  events             List events
  logs               Print the logs for a container in a pod
  apply              Apply a configuration to a resource by file name or stdin
  delete             Delete resources by names, label selectors or file names
  scale              Set a new size for a deployment or replica set
  set image          Update the image of a pod template
  rollout            Manage the rollout of a deployment (status, history, undo, pause, resume, restart)
  label              Update the labels on a resource
  annotate           Update the annotations on a resource
  patch              Update fields of a resource (strategic merge, JSON merge or JSON patch)
  top                Display resource usage (needs a metrics-server, which this cluster does not run)
  auth can-i         Check whether an action is allowed (--as to ask for another user)
  cordon, uncordon   Mark node as unschedulable / schedulable
  drain              Drain node in preparation for maintenance
  taint              Update the taints on one or more nodes
  cluster-info       Display cluster information
  api-resources      Print the supported API resources on the server
  api-versions       Print the supported API versions on the server
  version            Print the client and server version information
  wait               Wait for a specific condition on one or many resources
`;

/** Run one kubectl command line against the cluster (the `kubectl` word is optional). */
export function runKubectl(cluster: SimCluster, argv: string | string[], stdin?: string, host: KubectlHost = {}): KubectlResult {
  const r = new Run(cluster, stdin, host);
  try {
    let args: string[];
    try { args = typeof argv === 'string' ? tokenize(argv) : [...argv]; } catch (e) {
      if (e instanceof TokenizeError) throw new Fail(`error: ${e.message}`);
      throw e;
    }
    if (args[0] === 'kubectl') args.shift();
    // Global flags may come before the command (`kubectl -n kube-system get pods`).
    const pre: string[] = [];
    while (args.length && args[0].startsWith('-')) {
      const a = args.shift()!;
      pre.push(a);
      if (GLOBAL_VALUED.has(a) && args.length) pre.push(args.shift()!);
    }
    const cmd = args.shift();
    if (cmd === undefined) { r.print(KUBECTL_HELP); return { stdout: r.out, stderr: r.err, exitCode: 0 }; }
    const fn = Object.hasOwn(COMMANDS, cmd) ? COMMANDS[cmd] : undefined;
    if (!fn && Object.hasOwn(NOT_SIMULATED, cmd)) throw new Fail(`error: kubectl ${cmd} is a real command that this simulator does not run: ${NOT_SIMULATED[cmd]}`);
    if (!fn) throw new Fail(`error: unknown command "${cmd}" for "kubectl"`);
    fn(r, [...args, ...pre]);
  } catch (e) {
    if (e instanceof Fail) r.error(e.message);
    else r.error(`error: ${(e as Error)?.message ?? String(e)}`);
  }
  return { stdout: r.out, stderr: r.err, exitCode: r.failed ? 1 : 0 };
}

function printTableRaw(t: string): string { return tabwrite(t, DESCRIBE_TABS); }
