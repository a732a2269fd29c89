// kubectl's printers: the table columns of each kind (pkg/printers/internalversion/printers.go),
// -o json (sorted keys, 4-space indent, HTML-escaped like Go's encoding/json), -o yaml and -o name.
import { stringify } from 'yaml';
import type {
  ConfigMap,
  Event,
  Namespace,
  Node,
  NodeSystemInfo,
  ObjectReference,
  PodTemplateSpec,
  Service,
} from 'kubernetes-types/core/v1';
import type { Deployment, ReplicaSet, ReplicaSetStatus } from 'kubernetes-types/apps/v1';
import type { Lease } from 'kubernetes-types/coordination/v1';
import type { EndpointSlice } from 'kubernetes-types/discovery/v1';
import type { ObjectMeta } from 'kubernetes-types/meta/v1';
import type { PodDisruptionBudget } from 'kubernetes-types/policy/v1';
import type { PriorityClass } from 'kubernetes-types/scheduling/v1';
import { labelSelectorAsString } from '../api/labels.ts';
import { fromUnstructured, type Unstructured } from '../api/unstructured.ts';
import { printPod, translateTimestampSince } from './print-pod.ts';
import { GET_TABS, tabwrite } from './tabwriter.ts';
import type { KindInfo } from './resources.ts';
import { mapOf } from '../util/table.ts';

/** Options of a table print. */
export interface TableOptions {
  wide?: boolean;
  allNamespaces?: boolean;
  showLabels?: boolean;
  /** -L/--label-columns: one column per label key, headed by its last path segment in capitals. */
  labelColumns?: string[];
  /** Prefix NAME with `kind.group/` (several kinds in one get). */
  withKind?: boolean;
  /** --no-headers (and a watch's later rows): no header line, so the columns are as wide as the rows alone. */
  noHeaders?: boolean;
  /** --output-watch-events: the watch event's type in an EVENT column before the others. */
  event?: string;
}

/** tableprinter.go's formattedEventType: the watch event types padded to one width. */
const EVENT_TYPES: Record<string, string> = {
  ADDED: 'ADDED   ',
  MODIFIED: 'MODIFIED',
  DELETED: 'DELETED ',
  ERROR: 'ERROR   ',
};

function labelsText(labels: Record<string, string> | undefined): string {
  const ks = Object.keys(labels ?? {}).sort();
  return ks.length ? ks.map((k) => `${k}=${labels![k]}`).join(',') : '<none>';
}

function orNone(s: string | undefined): string {
  return s ? s : '<none>';
}

function containersCells(tpl: PodTemplateSpec | undefined): string[] {
  const cs = tpl?.spec?.containers ?? [];
  return [cs.map((c) => c.name).join(','), cs.map((c) => c.image).join(',')];
}

/** Node ROLES: node-role.kubernetes.io/<role> and kubernetes.io/role labels. */
export function nodeRoles(labels: Record<string, string> | undefined): string {
  const roles = new Set<string>();
  for (const [k, v] of Object.entries(labels ?? {})) {
    if (k.startsWith('node-role.kubernetes.io/')) {
      const r = k.slice('node-role.kubernetes.io/'.length);
      if (r) roles.add(r);
    } else if (k === 'kubernetes.io/role' && v) roles.add(v);
  }
  return roles.size ? [...roles].sort().join(',') : '<none>';
}

/** Node STATUS: Ready / NotReady (False and Unknown) / Unknown (no condition), `,SchedulingDisabled` when cordoned. */
function nodeStatus(node: Node): string {
  const conds = node.status?.conditions ?? [];
  const statuses: string[] = [];
  const ready = conds.find((c) => c.type === 'Ready');
  if (!ready) statuses.push('Unknown');
  else statuses.push(ready.status === 'True' ? 'Ready' : 'NotReady');
  if (node.spec?.unschedulable) statuses.push('SchedulingDisabled');
  return statuses.join(',');
}

/**
 * `-o wide` KERNEL-VERSION: the kernel (or `<unknown>`) with the architecture after it in
 * parentheses, `6.1.0-40-amd64 (amd64)` (printNode, 1.36+; there is no ARCH column of its own).
 */
export function nodeKernelVersion(info: Partial<NodeSystemInfo>): string {
  const kernel = info.kernelVersion || '<unknown>';
  return info.architecture ? `${kernel} (${info.architecture})` : kernel;
}

/**
 * An Event in core/v1's field names: an events.k8s.io/v1 one (regarding, note, deprecatedSource,
 * deprecatedFirstTimestamp, deprecatedLastTimestamp, deprecatedCount, reportingController) renamed
 * as the API server's conversion renames it; a core/v1 one as it is. Typed as a core/v1 Event that
 * is still a map of JSON values, so callers that take either read it without a conversion.
 */
export function coreEvent(e: Unstructured): Event & Unstructured {
  if (
    e.involvedObject ||
    !(e.regarding || e.note !== undefined || e.deprecatedSource || e.deprecatedCount !== undefined)
  )
    return fromUnstructured<Event & Unstructured>(e);
  const {
    regarding,
    note,
    deprecatedSource,
    deprecatedFirstTimestamp,
    deprecatedLastTimestamp,
    deprecatedCount,
    reportingController,
    ...rest
  } = e;
  return fromUnstructured<Event & Unstructured>({
    ...rest,
    involvedObject: regarding ?? {},
    message: note,
    source: deprecatedSource ?? {},
    firstTimestamp: deprecatedFirstTimestamp,
    lastTimestamp: deprecatedLastTimestamp,
    count: deprecatedCount,
    reportingComponent: reportingController,
  });
}

/** An Event's cells as the server's printEvent computes them (the row's order is the caller's). */
interface EventCells {
  lastSeen: string;
  firstSeen: string;
  count: number;
  target: string;
  fieldPath: string;
  source: string;
  message: string;
}

/**
 * printEvent (printers.go): FIRST SEEN is firstTimestamp, else eventTime; LAST SEEN is lastTimestamp,
 * else FIRST SEEN, and series.lastObservedTime when the Event has a series (whose count is then
 * COUNT; a singleton of the new API has count 0, shown as 1). No "(x3 over 5m)": that is kubectl
 * events' and describe's. SOURCE is source.component, else reportingController (core/v1's JSON
 * `reportingComponent`), with the host
 * (else reportingInstance) after a comma.
 */
export function printEvent(event: Unstructured, now: number): EventCells {
  const o = coreEvent(event);
  const firstSeen = translateTimestampSince(o.firstTimestamp || o.eventTime, now);
  let lastSeen = o.lastTimestamp ? translateTimestampSince(o.lastTimestamp, now) : firstSeen;
  let count: number = o.count ?? 0;
  if (o.series) {
    lastSeen = translateTimestampSince(o.series.lastObservedTime, now);
    count = o.series.count ?? 0;
  } else if (count === 0) count = 1;
  const io: ObjectReference = o.involvedObject ?? {};
  const kind = String(io.kind ?? '').toLowerCase();
  const component = o.source?.component || o.reportingComponent || '';
  const instance = o.source?.host || o.reportingInstance || '';
  return {
    lastSeen,
    firstSeen,
    count,
    target: io.name ? `${kind}/${io.name}` : kind,
    fieldPath: io.fieldPath ?? '',
    source: instance ? `${component}, ${instance}` : component,
    message: String(o.message ?? '').trim(),
  };
}

function servicePorts(svc: Service): string {
  const ports = svc.spec?.ports ?? [];
  if (!ports.length) return '<none>';
  return ports
    .map((p) => (p.nodePort ? `${p.port}:${p.nodePort}/${p.protocol ?? 'TCP'}` : `${p.port}/${p.protocol ?? 'TCP'}`))
    .join(',');
}

function sliceEndpoints(s: EndpointSlice): string {
  const addrs: string[] = [];
  for (const e of s.endpoints ?? []) for (const a of e.addresses ?? []) addrs.push(a);
  if (!addrs.length) return '<unset>';
  const shown = addrs.slice(0, 3).join(',');
  return addrs.length > 3 ? `${shown} + ${addrs.length - 3} more...` : shown;
}

function slicePorts(s: EndpointSlice): string {
  const ps = s.ports ?? [];
  if (!ps.length) return '<unset>';
  return ps.map((p) => String(p.port ?? '')).join(',');
}

/** Columns (normal, then wide-only) and row cells for each resource. */
function columns(
  resource: string,
  obj: Unstructured,
  now: number,
): { head: string[]; wideHead: string[]; cells: string[]; wide: string[] } {
  const meta = metadataOf(obj);
  const age = translateTimestampSince(meta.creationTimestamp, now);
  const name = meta.name ?? '';
  // Each case knows its kind and reads the object as that type: an assertion, erased, as fromUnstructured
  // would be but for a call per row in a chunk at its byte limit.
  switch (resource) {
    case 'pods': {
      const r = printPod(obj, now, { wide: true });
      return {
        head: ['NAME', 'READY', 'STATUS', 'RESTARTS', 'AGE'],
        wideHead: ['IP', 'NODE', 'NOMINATED NODE', 'READINESS GATES'],
        cells: [name, r.ready, r.status, r.restarts, r.age],
        wide: [r.ip!, r.node!, r.nominatedNode!, r.readinessGates!],
      };
    }
    case 'deployments': {
      const o = obj as Deployment;
      const s = o.status ?? {};
      return {
        head: ['NAME', 'READY', 'UP-TO-DATE', 'AVAILABLE', 'AGE'],
        wideHead: ['CONTAINERS', 'IMAGES', 'SELECTOR'],
        cells: [
          name,
          `${s.readyReplicas ?? 0}/${o.spec?.replicas ?? 0}`,
          String(s.updatedReplicas ?? 0),
          String(s.availableReplicas ?? 0),
          age,
        ],
        wide: [...containersCells(o.spec?.template), labelSelectorAsString(o.spec?.selector) || '<none>'],
      };
    }
    case 'replicasets': {
      const o = obj as ReplicaSet;
      const s: Partial<ReplicaSetStatus> = o.status ?? {};
      return {
        head: ['NAME', 'DESIRED', 'CURRENT', 'READY', 'AGE'],
        wideHead: ['CONTAINERS', 'IMAGES', 'SELECTOR'],
        cells: [name, String(o.spec?.replicas ?? 0), String(s.replicas ?? 0), String(s.readyReplicas ?? 0), age],
        wide: [...containersCells(o.spec?.template), labelSelectorAsString(o.spec?.selector) || '<none>'],
      };
    }
    case 'nodes': {
      const o = obj as Node;
      const info: Partial<NodeSystemInfo> = o.status?.nodeInfo ?? {};
      const addr = (t: string) => (o.status?.addresses ?? []).find((a) => a.type === t)?.address;
      return {
        head: ['NAME', 'STATUS', 'ROLES', 'AGE', 'VERSION'],
        wideHead: ['INTERNAL-IP', 'EXTERNAL-IP', 'OS-IMAGE', 'KERNEL-VERSION', 'CONTAINER-RUNTIME'],
        cells: [name, nodeStatus(o), nodeRoles(meta.labels), age, info.kubeletVersion ?? ''],
        wide: [
          orNone(addr('InternalIP')),
          orNone(addr('ExternalIP')),
          info.osImage || '<unknown>',
          nodeKernelVersion(info),
          info.containerRuntimeVersion || '<unknown>',
        ],
      };
    }
    case 'events': {
      const o = fromUnstructured<Event>(obj);
      const e = printEvent(obj, now);
      return {
        head: ['LAST SEEN', 'TYPE', 'REASON', 'OBJECT', 'MESSAGE'],
        wideHead: [],
        cells: [e.lastSeen, o.type ?? '', o.reason ?? '', e.target, e.message],
        wide: [e.fieldPath, e.source, e.firstSeen, String(e.count), name],
      };
    }
    case 'leases':
      return {
        head: ['NAME', 'HOLDER', 'AGE'],
        wideHead: [],
        cells: [name, (obj as Lease).spec?.holderIdentity ?? '', age],
        wide: [],
      };
    case 'endpointslices': {
      const o = fromUnstructured<EndpointSlice>(obj);
      return {
        head: ['NAME', 'ADDRESSTYPE', 'PORTS', 'ENDPOINTS', 'AGE'],
        wideHead: [],
        cells: [name, o.addressType ?? '', slicePorts(o), sliceEndpoints(o), age],
        wide: [],
      };
    }
    case 'services': {
      const o = obj as Service;
      // getServiceExternalIP: an ExternalName Service's column is the name it points to.
      const ext =
        o.spec?.type === 'ExternalName'
          ? (o.spec.externalName ?? '')
          : (o.spec?.externalIPs ?? []).join(',') || (o.spec?.type === 'LoadBalancer' ? '<pending>' : '<none>');
      const sel = o.spec?.selector ? labelsText(o.spec.selector) : '<none>';
      return {
        head: ['NAME', 'TYPE', 'CLUSTER-IP', 'EXTERNAL-IP', 'PORT(S)', 'AGE'],
        wideHead: ['SELECTOR'],
        cells: [name, o.spec?.type ?? 'ClusterIP', o.spec?.clusterIP || '<none>', ext, servicePorts(o), age],
        wide: [sel],
      };
    }
    case 'namespaces':
      return {
        head: ['NAME', 'STATUS', 'AGE'],
        wideHead: [],
        cells: [name, (obj as Namespace).status?.phase ?? '', age],
        wide: [],
      };
    case 'priorityclasses': {
      // printPriorityClass fills PreemptionPolicy only with options.Wide, but real 1.37.2 kubectl shows
      // it in plain `get` too (oracle/traces/preemption.json): the server's table is asked for wide.
      const o = fromUnstructured<PriorityClass>(obj);
      return {
        head: ['NAME', 'VALUE', 'GLOBAL-DEFAULT', 'AGE', 'PREEMPTIONPOLICY'],
        wideHead: [],
        cells: [name, String(o.value ?? 0), String(o.globalDefault ?? false), age, o.preemptionPolicy ?? ''],
        wide: [],
      };
    }
    case 'poddisruptionbudgets': {
      // printPodDisruptionBudget: an unset bound is N/A; an IntOrString prints as its String().
      const o = obj as PodDisruptionBudget;
      return {
        head: ['NAME', 'MIN AVAILABLE', 'MAX UNAVAILABLE', 'ALLOWED DISRUPTIONS', 'AGE'],
        wideHead: [],
        cells: [
          name,
          String(o.spec?.minAvailable ?? 'N/A'),
          String(o.spec?.maxUnavailable ?? 'N/A'),
          String(o.status?.disruptionsAllowed ?? 0),
          age,
        ],
        wide: [],
      };
    }
    case 'configmaps': {
      const o = obj as ConfigMap;
      return {
        head: ['NAME', 'DATA', 'AGE'],
        wideHead: [],
        cells: [name, String(Object.keys(o.data ?? {}).length + Object.keys(o.binaryData ?? {}).length), age],
        wide: [],
      };
    }
    default:
      return { head: ['NAME', 'AGE'], wideHead: [], cells: [name, age], wide: [] };
  }
}

/** The object's metadata (ObjectMeta, whatever its kind), or an empty one. */
function metadataOf(obj: Unstructured): ObjectMeta {
  return (obj as { metadata?: ObjectMeta }).metadata ?? {};
}

/** One kind's table (kubectl get), aligned, with its header. */
export function printTable(kind: KindInfo, items: Unstructured[], now: number, opts: TableOptions = {}): string {
  let text = '';
  items.forEach((o, i) => {
    const c = columns(kind.resource, o, now);
    const meta = metadataOf(o);
    if (opts.withKind && kind.resource !== 'events') c.cells[0] = `${kind.singular}/${c.cells[0]}`;
    let head = [...c.head, ...(opts.wide ? c.wideHead : [])];
    let cells = [...c.cells, ...(opts.wide ? c.wide : [])];
    if (kind.resource === 'events' && opts.wide) {
      // Wide event columns interleave: LAST SEEN TYPE REASON OBJECT SUBOBJECT SOURCE MESSAGE FIRST SEEN COUNT NAME.
      head = ['LAST SEEN', 'TYPE', 'REASON', 'OBJECT', 'SUBOBJECT', 'SOURCE', 'MESSAGE', 'FIRST SEEN', 'COUNT', 'NAME'];
      cells = [
        c.cells[0],
        c.cells[1],
        c.cells[2],
        c.cells[3],
        c.wide[0],
        c.wide[1],
        c.cells[4],
        c.wide[2],
        c.wide[3],
        c.wide[4],
      ];
    }
    if (opts.allNamespaces && kind.namespaced) {
      head = ['NAMESPACE', ...head];
      cells = [meta.namespace ?? '', ...cells];
    }
    if (opts.labelColumns?.length) {
      head = [...head, ...opts.labelColumns.map((l) => l.split('/').pop()!.toUpperCase())];
      cells = [...cells, ...opts.labelColumns.map((l) => meta.labels?.[l] ?? '')];
    }
    if (opts.showLabels) {
      head = [...head, 'LABELS'];
      cells = [...cells, labelsText(meta.labels)];
    }
    // addColumns(beginning, …) after the table is decorated: before NAMESPACE too.
    if (opts.event) {
      head = ['EVENT', ...head];
      cells = [EVENT_TYPES[opts.event] ?? opts.event, ...cells];
    }
    if (i === 0 && !opts.noHeaders) text += head.join('\t') + '\n';
    text += cells.join('\t') + '\n';
  });
  return tabwrite(text, GET_TABS);
}

function sortKeys(v: unknown): unknown {
  if (Array.isArray(v)) return v.map(sortKeys);
  if (v && typeof v === 'object') {
    const o: Record<string, unknown> = {};
    for (const k of Object.keys(v).sort()) {
      const x = (v as Record<string, unknown>)[k];
      if (x !== undefined) o[k] = sortKeys(x);
    }
    return o;
  }
  return v;
}

/** Go's json.Marshal of an unstructured object: one line, sorted keys, <>& escaped. */
export function toCompactJSON(v: unknown): string {
  return JSON.stringify(sortKeys(v)).replace(
    /[<>&\u2028\u2029]/g,
    (c) => '\\u' + c.charCodeAt(0).toString(16).padStart(4, '0'),
  );
}

/** Go's json.MarshalIndent(obj, "", "    ") of an unstructured object: sorted keys, <>& escaped. */
export function toJSON(v: unknown): string {
  return JSON.stringify(sortKeys(v), null, 4).replace(
    /[<>&\u2028\u2029]/g,
    (c) => '\\u' + c.charCodeAt(0).toString(16).padStart(4, '0'),
  );
}

/**
 * The field order of the Go structs a generator fills (TypeMeta, ObjectMeta, DeploymentSpec,
 * PodSpec, Container, ContainerPort, ServiceSpec, ServicePort, PriorityClass …), as one list that keeps each
 * struct's own order: encoding/json writes a typed object's fields in that order, not sorted.
 */
const STRUCT_FIELD_ORDER = [
  'kind',
  'apiVersion',
  'metadata',
  'spec',
  'status',
  'name',
  'generateName',
  'namespace',
  'uid',
  'resourceVersion',
  'generation',
  'creationTimestamp',
  'deletionTimestamp',
  'labels',
  'annotations',
  'ownerReferences',
  'finalizers',
  'replicas',
  'volumes',
  'initContainers',
  'containers',
  'image',
  'command',
  'args',
  'workingDir',
  'hostPort',
  'containerPort',
  'protocol',
  'appProtocol',
  'port',
  'targetPort',
  'nodePort',
  'ports',
  'envFrom',
  'env',
  'resources',
  'selector',
  'matchLabels',
  'matchExpressions',
  'clusterIP',
  'clusterIPs',
  'type',
  'template',
  'strategy',
  'restartPolicy',
  'terminationGracePeriodSeconds',
  'dnsPolicy',
  'loadBalancer',
  // PriorityClass (after its ObjectMeta)
  'value',
  'globalDefault',
  'description',
  'preemptionPolicy',
];
const structRank = mapOf(STRUCT_FIELD_ORDER.map((k, i) => [k, i] as const));

function structOrder(v: unknown, inMap = false): unknown {
  if (Array.isArray(v)) return v.map((x) => structOrder(x));
  if (!v || typeof v !== 'object') return v;
  const keys = Object.keys(v).filter((k) => (v as Record<string, unknown>)[k] !== undefined);
  // Maps (labels, selectors' matchLabels) are Go maps: sorted keys. Structs: their field order.
  const rank = (k: string) => structRank.get(k) ?? STRUCT_FIELD_ORDER.length;
  keys.sort(inMap ? undefined : (a, b) => rank(a) - rank(b) || (a < b ? -1 : a > b ? 1 : 0));
  const maps = new Set(['labels', 'annotations', 'matchLabels', 'selector', 'nodeSelector']);
  return Object.fromEntries(
    keys.map((k) => [
      k,
      structOrder((v as Record<string, unknown>)[k], !inMap && maps.has(k) && !isLabelSelector(k, v)),
    ]),
  );
}
const isLabelSelector = (k: string, parent: object) => k === 'selector' && 'template' in parent;

/** kubectl -o json of a typed object a generator built (a client dry run): Go's field order. */
export function toTypedJSON(v: unknown): string {
  return JSON.stringify(structOrder(v), null, 4).replace(
    /[<>&\u2028\u2029]/g,
    (c) => '\\u' + c.charCodeAt(0).toString(16).padStart(4, '0'),
  );
}

/** sigs.k8s.io/yaml output: sorted keys, sequences flush with their key, YAML 1.1 quoting (timestamps, yes/no), long plain values folded. */
export function toYAML(v: unknown): string {
  return foldPlainScalars(
    stringify(sortKeys(v), { version: '1.1', indentSeq: false, lineWidth: 0, minContentWidth: 0 }),
  );
}

/**
 * go-yaml's emitter (yaml_emitter_write_plain_scalar, best_width 80): a plain mapping value breaks at
 * the first single space met once the line is past column 80, and goes on two columns in from its key.
 */
export function foldPlainScalars(text: string): string {
  return text.replace(
    /^( *(?:- )?)([^\s'"-][^:\n]*: )([^'"|>{[&*!#\s].{70,})$/gm,
    (line, lead: string, key: string, value: string) => {
      if ((lead + key + value).length <= 80) return line;
      const indent = '\n' + ' '.repeat(lead.length + 2);
      let out = lead + key;
      let col = out.length;
      for (let i = 0; i < value.length; i++) {
        const c = value[i];
        if (c === ' ' && value[i - 1] !== ' ' && col > 80 && value[i + 1] !== ' ' && i + 1 < value.length) {
          out += indent;
          col = indent.length - 1;
          continue;
        }
        out += c;
        col++;
      }
      return out;
    },
  );
}

/** A kubectl List wrapper (what -o json/yaml prints for a list or several objects). */
export function asList(items: Unstructured[]): Unstructured {
  return { apiVersion: 'v1', items, kind: 'List', metadata: { resourceVersion: '' } };
}
