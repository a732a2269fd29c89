// What every command shares, as kubectl's pkg/cmd/util and cli-runtime do: one invocation's output
// and requests (Run), the failure that ends it (Fail, printed as CheckErr prints it), and the
// resource arguments (`TYPE NAME…`, `TYPE/NAME`, `TYPE1,TYPE2`) turned into what to ask for.
import { goDuration } from '../../util/duration.ts';
import { KUBECTL_CONNECTION_REFUSED, type Status } from '../../api/status.ts';
import { RESOURCES } from '../../api/resources.ts';
import { type ApiRequest, type ApiResult, type RequestOptions } from '../../api/request.ts';
import type { SimCluster } from '../../cluster-types.ts';
import type { ObjectMeta } from 'kubernetes-types/meta/v1';
import { fromUnstructured, type Unstructured } from '../../api/unstructured.ts';
import { ambiguousShortcut, resolveKind, type KindInfo } from '../resources.ts';

/**
 * An object whose kind kubectl does not know statically (a manifest, a generic GET), with the fields
 * every kind has read as typed, as unstructured.Unstructured's GetKind, GetName, GetLabels… read them.
 */
export type MetaObject = Unstructured & { apiVersion?: string; kind?: string; metadata?: ObjectMeta };

/** An object as the API server returns it: its metadata always set (ObjectMeta of a stored object). */
export type Stored<T> = T & { metadata: ObjectMeta };
/** What one kubectl invocation printed and its exit code. */
export interface KubectlResult {
  stdout: string;
  stderr: string;
  exitCode: number;
}

/** Host services the pure interpreter cannot reach on its own (files for `apply -f FILE`). */
export interface KubectlHost {
  /** Contents of a file, or undefined when it does not exist. */
  readFile?(path: string): string | undefined;
}

/** A failure that ends the command: printed as-is on stderr (kubectl formats it first). */
export class Fail extends Error {}

/** One kubectl invocation: what it printed, whether it failed, and the requests it sends (with --as). */
export class Run {
  out = '';
  err = '';
  failed = false;
  /** The exit code when it is not 1 on failure (kubectl exec passes the command's own on). */
  exitCode: number | undefined;
  readonly cluster: SimCluster;
  readonly stdin: string | undefined;
  readonly host: KubectlHost;
  constructor(cluster: SimCluster, stdin: string | undefined, host: KubectlHost) {
    this.cluster = cluster;
    this.stdin = stdin;
    this.host = host;
  }
  print(s: string): void {
    this.out += s;
  }
  warn(s: string): void {
    this.err += s;
  }
  error(s: string): void {
    this.err += s.endsWith('\n') ? s : s + '\n';
    this.failed = true;
  }
  get now(): number {
    return this.cluster.now;
  }

  /** --as/--as-group: every request of the command carries them (the Impersonate-* headers). */
  impersonate: { user: string; groups?: string[] } | undefined;
  /** --request-timeout: client-go's Timeout, sent on every request as `?timeout=` (and ending a watch's stream). */
  requestTimeoutMs: number | undefined;
  req(r: ApiRequest): ApiResult<unknown> {
    if (this.requestTimeoutMs) r = { ...r, options: { ...r.options, timeout: goDuration(this.requestTimeoutMs) } };
    return this.cluster.request(
      this.impersonate ? { ...r, options: { ...r.options, impersonate: this.impersonate } } : r,
    );
  }
  /** A request that must succeed (else the command ends with kubectl's rendering of the error). */
  must<T = MetaObject>(r: ApiRequest): T {
    const res = this.req(r);
    if (!res.ok) throw new Fail(apiError(res.status));
    return res.object as T;
  }
}

/**
 * cmdutil.CheckErr of the errors a command gathered as it went on after each (an aggregate): one is
 * printed as it is; several one a line, without the `error: ` a single one carries (MultipleErrors).
 */
export function printAggregate(r: Run, errs: readonly string[]): void {
  if (errs.length === 1) r.error(errs[0]);
  else for (const e of errs) r.error(e.replace(/^error: /, ''));
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

/** Where a warning goes (a command's stderr). */
type Warner = Pick<Run, 'warn'>;

/** The resource a type argument names (`po`, `deploy`, `deployments.apps`), or kubectl's error; an ambiguous short name warns as the shortcut expander does. */
export function kindOrFail(arg: string, r: Warner): KindInfo {
  const k = resolveKind(arg);
  if (!k) throw new Fail(`error: the server doesn't have a resource type "${arg}"`);
  const also = ambiguousShortcut(arg);
  if (also) r.warn(`Warning: short name "${arg}" could also match lower priority resource ${also}\n`);
  return k;
}

/** The `all` category (pods, replicationcontrollers, services, daemonsets, deployments, …) as served here. */
const ALL_CATEGORY = ['pods', 'services', 'deployments', 'replicasets'];

/** `TYPE NAME…`, `TYPE/NAME …` or `TYPE1,TYPE2`: the (kind, name?) pairs of a command. */
export function targets(args: string[], r: Warner): { kinds: KindInfo[]; names: { kind: KindInfo; name: string }[] } {
  if (!args.length) return { kinds: [], names: [] };
  if (args.every((a) => a.includes('/'))) {
    return {
      kinds: [],
      names: args.map((a) => {
        const [t, ...n] = a.split('/');
        return { kind: kindOrFail(t, r), name: n.join('/') };
      }),
    };
  }
  if (args.some((a) => a.includes('/')))
    throw new Fail(
      "error: there is no need to specify a resource type as a separate argument when passing arguments in resource/name form (e.g. 'kubectl get resource/<resource_name>' instead of 'kubectl get resource resource/<resource_name>'",
    );
  // SplitResourceArgument: comma-separated types, duplicates dropped, an empty one kept (and refused).
  // The category `all` stands for the workload kinds this cluster serves, in kubectl's order.
  const types = args[0].split(',').flatMap((t) => (t === 'all' ? ALL_CATEGORY : [t]));
  const kinds = [...new Set(types)].map((t) => kindOrFail(t, r));
  const names = args.slice(1);
  if (names.includes('')) throw new Fail('error: resource name may not be empty');
  if (names.length && kinds.length > 1)
    return { kinds: [], names: kinds.flatMap((k) => names.map((n) => ({ kind: k, name: n }))) };
  return { kinds: names.length ? [] : kinds, names: names.map((n) => ({ kind: kinds[0], name: n })) };
}

/** LIST a resource (in a namespace, or all), each item given its apiVersion and kind. */
export function list<T extends object = MetaObject>(
  r: Run,
  kind: KindInfo,
  ns: string | undefined,
  selector?: string,
  fieldSelector?: string,
): T[] {
  return listAt<T>(r, kind, ns, selector, fieldSelector).items;
}

/** list, with the list's resourceVersion (where a watch that follows it starts); `limit`: the page size asked for. */
export function listAt<T extends object = MetaObject>(
  r: Run,
  kind: KindInfo,
  ns: string | undefined,
  selector?: string,
  fieldSelector?: string,
  limit?: number,
): { items: T[]; resourceVersion: string } {
  const opts: RequestOptions = {};
  if (limit !== undefined) opts.limit = limit;
  if (selector) opts.labelSelector = selector;
  if (fieldSelector) opts.fieldSelector = fieldSelector;
  const got = r.req({
    verb: 'list',
    resource: kind.resource,
    namespace: kind.namespaced ? ns : undefined,
    options: opts,
  });
  if (!got.ok) throw new Fail(apiError(enhanceListError(got.status, kind, selector, fieldSelector)));
  const res = got.object as { items?: Unstructured[]; metadata?: { resourceVersion?: string } };
  return {
    items: (res.items ?? []).map((o) => fromUnstructured<T>(withKind(kind, o))),
    resourceVersion: String(res.metadata?.resourceVersion ?? ''),
  };
}

/** cmdutil.AddSourceToErr: an API error of an object read from a file names the file (`error when creating "STDIN": …`). */
export function addSourceToErr(verb: string, source: string, s: Status): Status {
  return source && s.code !== 0 ? { ...s, message: `error when ${verb} ${JSON.stringify(source)}: ${s.message}` } : s;
}

/**
 * cli-runtime's EnhanceListError: a LIST's BadRequest or NotFound names what was listed
 * (`Unable to find "/v1, Resource=pods" that match label selector "…", field selector "…": …`).
 */
function enhanceListError(s: Status, kind: KindInfo, labelSelector = '', fieldSelector = ''): Status {
  if (s.code !== 400 && s.code !== 404) return s;
  const info = RESOURCES[kind.resource];
  const subj = `${info.group ?? ''}/${info.version}, Resource=${kind.resource}`;
  const message =
    !labelSelector && !fieldSelector
      ? `Unable to list ${JSON.stringify(subj)}: ${s.message}`
      : `Unable to find ${JSON.stringify(subj)} that match label selector ${JSON.stringify(labelSelector)}, field selector ${JSON.stringify(fieldSelector)}: ${s.message}`;
  return { ...s, message };
}

/** The object with apiVersion and kind set, as a typed list item prints them. */
export function withKind(kind: KindInfo, o: unknown): MetaObject {
  const info = RESOURCES[kind.resource];
  const m = o as MetaObject;
  return {
    ...m,
    apiVersion: m.apiVersion ?? (info.group ? `${info.group}/${info.version}` : info.version),
    kind: m.kind ?? info.kind,
  };
}

/** The human printers' "No resources found" line, on stderr. */
export function noResources(r: Run, ns: string | undefined, namespaced: boolean): void {
  r.warn(ns && namespaced ? `No resources found in ${ns} namespace.\n` : 'No resources found\n');
}

/** Exactly one TYPE NAME (or TYPE/NAME), or the error kubectl gives for none or several. */
export function oneTarget(r: Run, args: string[], cmd: string): { kind: KindInfo; name: string } {
  const t = targets(args, r);
  if (t.names.length !== 1)
    throw new Fail(
      `error: ${t.names.length ? 'there is no need to specify more than one resource' : 'resource(s) were provided, but no name was specified'}\nSee 'kubectl ${cmd} -h' for help and examples`,
    );
  return t.names[0];
}

/** The resource builder's error when a command is given no resources at all. */
export const NO_RESOURCES =
  "error: You must provide one or more resources by argument or filename.\nExample resource specifications include:\n   '-f rsrc.yaml'\n   '--filename=rsrc.json'\n   '<resource> <name>'\n   '<resource>'";

/** A command group's refusal of a word that names none of its subcommands (kubectl's DefaultSubCommandRun). */
export function unknownSubcommand(group: string, args: string[]): string {
  return `error: unknown command "${args.filter((a) => !a.startsWith('-')).join(' ')}"\nSee 'kubectl ${group} -h' for help and examples`;
}

/** strconv.ParseBool. */
export function parseGoBool(s: string): boolean | undefined {
  if (['1', 't', 'T', 'TRUE', 'true', 'True'].includes(s)) return true;
  if (['0', 'f', 'F', 'FALSE', 'false', 'False'].includes(s)) return false;
  return undefined;
}
