// kubectl describe for pods, nodes, deployments, replicasets, services and namespaces, following pkg/describe/describe.go's field
// order, its PrefixWriter levels and its tabwriter (padding 2), with the Events section.
import { labelSelectorAsString } from '../api/labels.ts';
import { translateTimestampSince } from './print-pod.ts';
import { parseTime } from '../util/time.ts';
import { quantityMilliValue, quantityValue } from '../api/quantity.ts';
import { DESCRIBE_TABS, tabwrite } from './tabwriter.ts';
import { goSort } from './go-sort.ts';
import { coreEvent, nodeRoles } from './printers.ts';
import { setOf } from '../util/table.ts';
import { fromUnstructured, isMap, type Unstructured } from '../api/unstructured.ts';
import type {
  ConfigMap,
  Container,
  ContainerState,
  ContainerStatus,
  Event,
  Namespace,
  Node,
  NodeSystemInfo,
  Pod,
  PodSpec,
  PodTemplateSpec,
  Probe,
  ProjectedVolumeSource,
  Service,
  ServiceAccount,
  Taint,
  Toleration,
  Volume,
  VolumeMount,
} from 'kubernetes-types/core/v1';
import type { Deployment, DeploymentSpec, ReplicaSet } from 'kubernetes-types/apps/v1';
import type { Lease } from 'kubernetes-types/coordination/v1';
import type { EndpointSlice } from 'kubernetes-types/discovery/v1';
import type { ObjectMeta } from 'kubernetes-types/meta/v1';
import type { PodDisruptionBudget, PodDisruptionBudgetStatus } from 'kubernetes-types/policy/v1';
import type { PriorityClass } from 'kubernetes-types/scheduling/v1';

const DAYS = ['Sun', 'Mon', 'Tue', 'Wed', 'Thu', 'Fri', 'Sat'];
const MONTHS = ['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec'];

/** time.RFC1123Z in UTC: `Thu, 01 Jan 2026 00:00:00 +0000`. */
function rfc1123z(ts: string | undefined): string {
  if (!ts) return '<unset>';
  const d = new Date(ts);
  if (isNaN(d.getTime())) return '<unset>';
  const p = (n: number) => String(n).padStart(2, '0');
  return `${DAYS[d.getUTCDay()]}, ${p(d.getUTCDate())} ${MONTHS[d.getUTCMonth()]} ${d.getUTCFullYear()} ${p(d.getUTCHours())}:${p(d.getUTCMinutes())}:${p(d.getUTCSeconds())} +0000`;
}

class Out {
  text = '';
  w(level: number, s: string): void {
    this.text += '  '.repeat(level) + s;
  }
  done(): string {
    return tabwrite(this.text, DESCRIBE_TABS);
  }
}

/**
 * printLabelsMultiline and its kin: the title (a template's carries its two spaces in the title
 * itself), then one entry a line; a further line starts with the inner indent alone, a tab.
 */
function multiline(o: Out, title: string, entries: string[], indent = ''): void {
  o.w(0, `${indent}${title}:\t`);
  if (!entries.length) {
    o.w(0, '<none>\n');
    return;
  }
  entries.forEach((e, i) => {
    if (i > 0) o.w(0, '\t');
    o.w(0, e + '\n');
  });
}

function labels(l: Record<string, string> | undefined): string[] {
  return Object.keys(l ?? {})
    .sort()
    .map((k) => `${k}=${l![k]}`);
}

/** maxAnnotationLen: a longer (or multi-line) annotation prints under its key, each line cut there by shorten. */
const MAX_ANNOTATION_LEN = 140;

function annotations(a: Record<string, string> | undefined): string[] {
  return Object.keys(a ?? {})
    .filter((k) => k !== 'kubectl.kubernetes.io/last-applied-configuration')
    .sort()
    .map((k) => {
      const v = a![k].replace(/\n$/, '');
      if (v.length + k.length + 2 <= MAX_ANNOTATION_LEN && !v.includes('\n')) return `${k}: ${v}`;
      return (
        `${k}:\n` +
        v
          .split('\n')
          .map((l) => `\t  ${l.length > MAX_ANNOTATION_LEN - 2 ? l.slice(0, MAX_ANNOTATION_LEN - 2) + '...' : l}`)
          .join('\n')
      );
    });
}

function tolerations(ts: Toleration[] | undefined): string[] {
  return (ts ?? []).map((t) => {
    let s = t.key ?? '';
    if (t.value) s += `=${t.value}`;
    if (t.effect) s += `:${t.effect}`;
    if (t.operator) s += ` op=${t.operator}`;
    if (t.tolerationSeconds !== undefined && t.tolerationSeconds !== null) s += ` for ${t.tolerationSeconds}s`;
    return s;
  });
}

function taints(ts: Taint[] | undefined): string[] {
  return (ts ?? []).map((t) => `${t.key}${t.value ? '=' + t.value : ''}:${t.effect}`);
}

function ports(c: Container): [string, string] {
  const ps = c.ports ?? [];
  if (!ps.length) return ['<none>', '<none>'];
  return [
    ps.map((p) => `${p.containerPort}/${p.protocol ?? 'TCP'}`).join(', '),
    ps.map((p) => `${p.hostPort ?? 0}/${p.protocol ?? 'TCP'}`).join(', '),
  ];
}

function containerState(o: Out, title: string, st: ContainerState | undefined): void {
  if (st?.running) {
    o.w(2, `${title}:\tRunning\n`);
    o.w(3, `Started:\t${rfc1123z(st.running.startedAt)}\n`);
  } else if (st?.waiting) {
    o.w(2, `${title}:\tWaiting\n`);
    if (st.waiting.reason) o.w(3, `Reason:\t${st.waiting.reason}\n`);
  } else if (st?.terminated) {
    const t = st.terminated;
    o.w(2, `${title}:\tTerminated\n`);
    if (t.reason) o.w(3, `Reason:\t${t.reason}\n`);
    if (t.message) o.w(3, `Message:\t${t.message}\n`);
    o.w(3, `Exit Code:\t${t.exitCode ?? 0}\n`);
    if (t.signal) o.w(3, `Signal:\t${t.signal}\n`);
    o.w(3, `Started:\t${rfc1123z(t.startedAt)}\n`);
    o.w(3, `Finished:\t${rfc1123z(t.finishedAt)}\n`);
  } else {
    o.w(2, `${title}:\tWaiting\n`);
  }
}

function resourcesBlock(o: Out, c: Container): void {
  for (const [title, m] of [
    ['Limits', c.resources?.limits ?? {}],
    ['Requests', c.resources?.requests ?? {}],
  ] as const) {
    const ks = Object.keys(m).sort();
    if (!ks.length) continue;
    o.w(2, `${title}:\n`);
    for (const k of ks) o.w(3, `${k}:\t${m[k]}\n`);
  }
}

function probe(p: Probe): string {
  let s = 'unknown';
  if (p.httpGet) s = `http-get http://:${p.httpGet.port}${p.httpGet.path ?? ''}`;
  else if (p.tcpSocket) s = `tcp-socket :${p.tcpSocket.port}`;
  else if (p.exec) s = `exec [${(p.exec.command ?? []).join(' ')}]`;
  return `${s} delay=${p.initialDelaySeconds ?? 0}s timeout=${p.timeoutSeconds ?? 1}s period=${p.periodSeconds ?? 10}s #success=${p.successThreshold ?? 1} #failure=${p.failureThreshold ?? 3}`;
}

function containers(o: Out, cs: Container[], statuses: ContainerStatus[] | undefined, template: boolean): void {
  for (const c of cs) {
    const st = statuses?.find((s) => s.name === c.name);
    o.w(1, `${template ? ' ' : ''}${c.name}:\n`);
    if (st) o.w(2, `Container ID:\t${st.containerID ?? ''}\n`);
    o.w(2, `Image:\t${c.image}\n`);
    if (st) o.w(2, `Image ID:\t${st.imageID ?? ''}\n`);
    const [port, hostPort] = ports(c);
    o.w(2, `${port.includes(',') ? 'Ports' : 'Port'}:\t${port}\n`);
    o.w(2, `${hostPort.includes(',') ? 'Host Ports' : 'Host Port'}:\t${hostPort}\n`);
    if (c.command?.length) {
      o.w(2, 'Command:\n');
      for (const x of c.command) o.w(3, `${x}\n`);
    }
    if (c.args?.length) {
      o.w(2, 'Args:\n');
      for (const x of c.args) o.w(3, `${x}\n`);
    }
    if (st) {
      containerState(o, 'State', st.state);
      if (st.lastState?.terminated) containerState(o, 'Last State', st.lastState);
      o.w(2, `Ready:\t${st.ready ? 'True' : 'False'}\n`);
      o.w(2, `Restart Count:\t${st.restartCount ?? 0}\n`);
    }
    resourcesBlock(o, c);
    if (c.livenessProbe) o.w(2, `Liveness:\t${probe(c.livenessProbe)}\n`);
    if (c.readinessProbe) o.w(2, `Readiness:\t${probe(c.readinessProbe)}\n`);
    if (c.startupProbe) o.w(2, `Startup:\t${probe(c.startupProbe)}\n`);
    const env = c.env ?? [];
    if (!env.length) o.w(2, 'Environment:\t<none>\n');
    else {
      o.w(2, 'Environment:\n');
      for (const e of env) o.w(3, `${e.name}:\t${e.value ?? ''}\n`);
    }
    describeContainerVolumes(o, c.volumeMounts ?? []);
  }
}

/** describeContainerVolumes: each mount, sorted by path, as `path from volume (ro|rw)`. */
function describeContainerVolumes(o: Out, mounts: VolumeMount[]): void {
  if (!mounts.length) {
    o.w(2, 'Mounts:\t<none>\n');
    return;
  }
  o.w(2, 'Mounts:\n');
  for (const m of [...mounts].sort((a, b) => (a.mountPath < b.mountPath ? -1 : a.mountPath > b.mountPath ? 1 : 0))) {
    o.w(
      3,
      `${m.mountPath} from ${m.name} (${[m.readOnly ? 'ro' : 'rw', ...(m.subPath ? [`path=${JSON.stringify(m.subPath)}`] : [])].join(',')})\n`,
    );
  }
}

/** describeVolumes for the pod's volumes; projected ones (the service-account token) in full. */
function describeVolumes(o: Out, volumes: Volume[]): void {
  if (!volumes.length) {
    o.w(0, 'Volumes:\t<none>\n');
    return;
  }
  o.w(0, 'Volumes:\n');
  for (const v of volumes) {
    o.w(1, `${v.name}:\n`);
    if (v.projected) printProjectedVolumeSource(o, v.projected);
    else if (v.emptyDir)
      o.w(
        2,
        `Type:\tEmptyDir (a temporary directory that shares a pod's lifetime)\n    Medium:\t${v.emptyDir.medium ?? ''}\n    SizeLimit:\t${v.emptyDir.sizeLimit ?? '<unset>'}\n`,
      );
  }
}

/** printProjectedVolumeSource: one line (or two) per source. */
function printProjectedVolumeSource(o: Out, p: ProjectedVolumeSource): void {
  o.w(2, 'Type:\tProjected (a volume that contains injected data from multiple sources)\n');
  for (const s of p.sources ?? []) {
    if (s.secret) o.w(2, `SecretName:\t${s.secret.name}\n    Optional:\t${s.secret.optional === true}\n`);
    else if (s.downwardAPI) o.w(2, 'DownwardAPI:\ttrue\n');
    else if (s.configMap)
      o.w(2, `ConfigMapName:\t${s.configMap.name}\n    Optional:\t${s.configMap.optional === true}\n`);
    else if (s.serviceAccountToken) o.w(2, `TokenExpirationSeconds:\t${s.serviceAccountToken.expirationSeconds}\n`);
  }
}

/**
 * DescribeEvents: `Events:  <none>` or the Type/Reason/Age/From/Message table, sorted by
 * lastTimestamp (SortableEvents, Go's sort.Sort; an Event of the new API has none and comes first).
 * Age is eventTime's, else firstTimestamp's, with `(x3 over 5m)` when the Event has a series or a
 * count above 1; From is source.component, else reportingController (JSON `reportingComponent`); a fieldPath leads the message
 * (`spec.containers{web}: Container started`). Nothing at all when --show-events is off (undefined).
 */
function describeEvents(o: Out, events: Event[] | undefined, now: number): void {
  if (!events) return;
  if (!events.length) {
    o.w(0, 'Events:\t<none>\n');
    return;
  }
  // eventsFor's fresh array of core/v1 Events, sorted in place.
  const sorted = events;
  const last = (e: Event) => parseTime(e.lastTimestamp) ?? -Infinity;
  goSort(sorted, (a, b) => last(a) < last(b));
  o.w(0, 'Events:\n');
  o.w(1, 'Type\tReason\tAge\tFrom\tMessage\n');
  o.w(1, '----\t------\t----\t----\t-------\n');
  for (const e of sorted) {
    const first = e.eventTime
      ? translateTimestampSince(e.eventTime, now)
      : translateTimestampSince(e.firstTimestamp, now);
    const interval = e.series
      ? `${translateTimestampSince(e.series.lastObservedTime, now)} (x${e.series.count} over ${first})`
      : (e.count ?? 0) > 1
        ? `${translateTimestampSince(e.lastTimestamp, now)} (x${e.count} over ${first})`
        : first;
    const from = e.source?.component || e.reportingComponent || '';
    const message = String(e.message ?? '').trim();
    const fieldPath = e.involvedObject?.fieldPath;
    o.w(
      1,
      `${e.type ?? ''}\t${e.reason ?? ''}\t${interval}\t${from}\t${fieldPath ? `${fieldPath}: ${message}` : message}\n`,
    );
  }
}

/** The Events about one object (searchEvents' field selector), or undefined when events are not shown. */
function eventsFor(
  events: Unstructured[] | undefined,
  kind: string | undefined,
  name: string | undefined,
  namespace: string | undefined,
  uid: string | undefined,
): Event[] | undefined {
  return events
    ?.map(coreEvent)
    .filter(
      (e) =>
        e.involvedObject?.kind === kind &&
        e.involvedObject?.name === name &&
        (namespace === undefined || e.involvedObject?.namespace === namespace || e.metadata?.namespace === namespace) &&
        (!uid || !e.involvedObject?.uid || e.involvedObject.uid === uid),
    );
}

/** kubectl describe pod. */
export function describePod(pod: Pod, events: Unstructured[] | undefined, now: number): string {
  const o = new Out();
  const m: ObjectMeta = pod.metadata ?? {};
  const spec: Partial<PodSpec> = pod.spec ?? {};
  const st = pod.status ?? {};
  o.w(0, `Name:\t${m.name}\n`);
  o.w(0, `Namespace:\t${m.namespace}\n`);
  o.w(0, `Priority:\t${spec.priority ?? 0}\n`);
  if (spec.priorityClassName) o.w(0, `Priority Class Name:\t${spec.priorityClassName}\n`);
  o.w(0, `Service Account:\t${spec.serviceAccountName ?? 'default'}\n`);
  o.w(0, `Node:\t${spec.nodeName ? `${spec.nodeName}/${st.hostIP ?? ''}` : '<none>'}\n`);
  if (st.startTime) o.w(0, `Start Time:\t${rfc1123z(st.startTime)}\n`);
  multiline(o, 'Labels', labels(m.labels));
  multiline(o, 'Annotations', annotations(m.annotations));
  if (m.deletionTimestamp && st.phase !== 'Succeeded' && st.phase !== 'Failed') {
    // translateTimestampSince(deletionTimestamp): "<invalid>" while the grace period still runs, as kubectl prints.
    o.w(0, `Status:\tTerminating (lasts ${translateTimestampSince(m.deletionTimestamp, now)})\n`);
    o.w(0, `Termination Grace Period:\t${m.deletionGracePeriodSeconds ?? 0}s\n`);
  } else {
    o.w(0, `Status:\t${st.phase ?? ''}\n`);
  }
  if (st.reason) o.w(0, `Reason:\t${st.reason}\n`);
  if (st.message) o.w(0, `Message:\t${st.message}\n`);
  o.w(0, `IP:\t${st.podIP ?? ''}\n`);
  const ips = st.podIPs ?? [];
  if (!ips.length) o.w(0, 'IPs:\t<none>\n');
  else {
    o.w(0, 'IPs:\n');
    for (const ip of ips) o.w(1, `IP:\t${ip.ip}\n`);
  }
  const owner = (m.ownerReferences ?? []).find((r) => r.controller);
  if (owner) o.w(0, `Controlled By:\t${owner.kind}/${owner.name}\n`);
  if (st.nominatedNodeName) o.w(0, `NominatedNodeName:\t${st.nominatedNodeName}\n`);
  o.w(0, 'Containers:\n');
  containers(o, spec.containers ?? [], st.containerStatuses, false);
  const conds = st.conditions ?? [];
  if (conds.length) {
    o.w(0, 'Conditions:\n');
    o.w(1, 'Type\tStatus\n');
    for (const c of conds) o.w(1, `${c.type} \t${c.status} \n`);
  }
  describeVolumes(o, spec.volumes ?? []);
  o.w(0, `QoS Class:\t${st.qosClass ?? 'BestEffort'}\n`);
  multiline(o, 'Node-Selectors', labels(spec.nodeSelector));
  multiline(o, 'Tolerations', tolerations(spec.tolerations));
  describeEvents(o, eventsFor(events, 'Pod', m.name, m.namespace, m.uid), now);
  return o.done();
}

function intOrString(v: unknown): string {
  return v === undefined || v === null ? '' : String(v);
}

/** kubectl describe deployment (with its old and new ReplicaSets). */
export function describeDeployment(
  d: Deployment,
  rss: ReplicaSet[],
  events: Unstructured[] | undefined,
  now: number,
): string {
  const o = new Out();
  const m: ObjectMeta = d.metadata ?? {};
  const spec: Partial<DeploymentSpec> = d.spec ?? {};
  const st = d.status ?? {};
  o.w(0, `Name:\t${m.name}\n`);
  o.w(0, `Namespace:\t${m.namespace}\n`);
  o.w(0, `CreationTimestamp:\t${rfc1123z(m.creationTimestamp)}\n`);
  multiline(o, 'Labels', labels(m.labels));
  multiline(o, 'Annotations', annotations(m.annotations));
  o.w(0, `Selector:\t${labelSelectorAsString(spec.selector)}\n`);
  o.w(
    0,
    `Replicas:\t${spec.replicas ?? 0} desired | ${st.updatedReplicas ?? 0} updated | ${st.replicas ?? 0} total | ${st.availableReplicas ?? 0} available | ${st.unavailableReplicas ?? 0} unavailable\n`,
  );
  o.w(0, `StrategyType:\t${spec.strategy?.type ?? ''}\n`);
  o.w(0, `MinReadySeconds:\t${spec.minReadySeconds ?? 0}\n`);
  const ru = spec.strategy?.rollingUpdate;
  if (ru)
    o.w(
      0,
      `RollingUpdateStrategy:\t${intOrString(ru.maxUnavailable)} max unavailable, ${intOrString(ru.maxSurge)} max surge\n`,
    );
  const tpl: PodTemplateSpec = spec.template ?? {};
  podTemplate(o, tpl);
  const conds = st.conditions ?? [];
  if (conds.length) {
    o.w(0, 'Conditions:\n');
    o.w(1, 'Type\tStatus\tReason\n');
    o.w(1, '----\t------\t------\n');
    for (const c of conds) o.w(1, `${c.type} \t${c.status}\t${c.reason ?? ''}\n`);
  }
  const fmt = (rs: ReplicaSet) =>
    `${rs.metadata!.name} (${rs.status?.replicas ?? 0}/${rs.spec?.replicas ?? 0} replicas created)`;
  // GetAllReplicaSets sorts by creation (name breaks ties); the oldest matching template is the new one.
  const sorted = [...rss].sort(byCreationTimestamp);
  const newRS = sorted.find((rs) => sameTemplate(rs.spec?.template, tpl));
  // describe prints FindOldReplicaSets' second set: every old ReplicaSet, those scaled to 0 too.
  const old = sorted.filter((rs) => rs !== newRS);
  if (old.length || newRS) {
    o.w(0, `OldReplicaSets:\t${old.length ? old.map(fmt).join(', ') : '<none>'}\n`);
    o.w(0, `NewReplicaSet:\t${newRS ? fmt(newRS) : '<none>'}\n`);
  }
  describeEvents(o, eventsFor(events, 'Deployment', m.name, m.namespace, m.uid), now);
  return o.done();
}

/** DescribePodTemplate: the Pod Template block of describe deployment and replicaset (and of rollout history --revision). */
function podTemplate(o: Out, tpl: PodTemplateSpec): void {
  o.w(0, 'Pod Template:\n');
  multiline(o, 'Labels', labels(tpl.metadata?.labels), '  ');
  // Printed when the template has any annotation, even one printAnnotationsMultiline skips.
  if (Object.keys(tpl.metadata?.annotations ?? {}).length)
    multiline(o, 'Annotations', annotations(tpl.metadata?.annotations), '  ');
  o.w(1, 'Containers:\n');
  containers(o, tpl.spec?.containers ?? [], undefined, true);
  o.w(1, 'Volumes:\t<none>\n');
  multiline(o, 'Node-Selectors', labels(tpl.spec?.nodeSelector), '  ');
  multiline(o, 'Tolerations', tolerations(tpl.spec?.tolerations), '  ');
}

/**
 * rollout history's printTemplate: the same block through a PrefixWriter on a plain buffer, so its
 * tabs are printed as they are (no tabwriter lines them up).
 */
export function podTemplateText(tpl: PodTemplateSpec): string {
  const o = new Out();
  podTemplate(o, tpl);
  return o.text;
}

/** replicaSetsByCreationTimestamp's Less: older first, the name breaking a tie. */
function byCreationTimestamp(a: ReplicaSet, b: ReplicaSet): number {
  const ta = Date.parse(a.metadata?.creationTimestamp ?? '') || 0;
  const tb = Date.parse(b.metadata?.creationTimestamp ?? '') || 0;
  if (ta !== tb) return ta - tb;
  const na: string = a.metadata?.name ?? '',
    nb: string = b.metadata?.name ?? '';
  return na < nb ? -1 : na > nb ? 1 : 0;
}

/** Templates equal apart from the pod-template-hash label (deploymentutil.EqualIgnoreHash). */
export function sameTemplate(a: PodTemplateSpec | undefined, b: PodTemplateSpec | undefined): boolean {
  const strip = (t: PodTemplateSpec | undefined) => {
    const c: PodTemplateSpec = structuredClone(t ?? {});
    if (c.metadata?.labels) delete c.metadata.labels['pod-template-hash'];
    return JSON.stringify(sortDeep(c));
  };
  return strip(a) === strip(b);
}

function sortDeep(v: unknown): unknown {
  if (Array.isArray(v)) return v.map(sortDeep);
  if (v && typeof v === 'object')
    return Object.fromEntries(
      Object.keys(v)
        .sort()
        .map((k) => [k, sortDeep((v as Record<string, unknown>)[k])]),
    );
  return v;
}

function cpuString(milli: number): string {
  return milli % 1000 === 0 ? String(milli / 1000) : `${milli}m`;
}
function memString(bytes: number): string {
  if (bytes === 0) return '0';
  for (const [u, f] of [
    ['Gi', 2 ** 30],
    ['Mi', 2 ** 20],
    ['Ki', 2 ** 10],
  ] as const)
    if (bytes % f === 0) return `${bytes / f}${u}`;
  return String(bytes);
}

/** kubectl describe node (with its lease and the pods on it). */
export function describeNode(
  node: Node,
  leaseObject: unknown,
  pods: Pod[],
  events: Unstructured[] | undefined,
  now: number,
): string {
  // The GET's body (an API result's object is unknown), or undefined when the node has no Lease.
  const lease = leaseObject as Lease | undefined;
  const o = new Out();
  const m: ObjectMeta = node.metadata ?? {};
  const st = node.status ?? {};
  o.w(0, `Name:\t${m.name}\n`);
  o.w(0, `Roles:\t${nodeRoles(m.labels)}\n`);
  multiline(o, 'Labels', labels(m.labels));
  multiline(o, 'Annotations', annotations(m.annotations));
  o.w(0, `CreationTimestamp:\t${rfc1123z(m.creationTimestamp)}\n`);
  multiline(o, 'Taints', taints(node.spec?.taints));
  o.w(0, `Unschedulable:\t${node.spec?.unschedulable ? 'true' : 'false'}\n`);
  if (lease) {
    o.w(0, 'Lease:\n');
    o.w(1, `HolderIdentity:\t${lease.spec?.holderIdentity ?? '<unset>'}\n`);
    o.w(1, `AcquireTime:\t${lease.spec?.acquireTime ? rfc1123z(lease.spec.acquireTime) : '<unset>'}\n`);
    o.w(1, `RenewTime:\t${lease.spec?.renewTime ? rfc1123z(lease.spec.renewTime) : '<unset>'}\n`);
  }
  const conds = st.conditions ?? [];
  if (conds.length) {
    o.w(0, 'Conditions:\n');
    o.w(1, 'Type\tStatus\tLastHeartbeatTime\tLastTransitionTime\tReason\tMessage\n');
    o.w(1, '----\t------\t-----------------\t------------------\t------\t-------\n');
    for (const c of conds)
      o.w(
        1,
        `${c.type} \t${c.status} \t${rfc1123z(c.lastHeartbeatTime)} \t${rfc1123z(c.lastTransitionTime)} \t${c.reason ?? ''} \t${c.message ?? ''}\n`,
      );
  }
  const addrs = st.addresses ?? [];
  if (addrs.length) {
    o.w(0, 'Addresses:\n');
    for (const a of addrs) o.w(1, `${a.type}:\t${a.address}\n`);
  }
  for (const [title, res] of [
    ['Capacity', st.capacity ?? {}],
    ['Allocatable', st.allocatable ?? {}],
  ] as const) {
    const ks = Object.keys(res).sort();
    if (!ks.length) continue;
    o.w(0, `${title}:\n`);
    for (const k of ks) o.w(1, `${k}:\t${res[k]}\n`);
  }
  const ni: Partial<NodeSystemInfo> = st.nodeInfo ?? {};
  o.w(0, 'System Info:\n');
  o.w(1, `Machine ID:\t${ni.machineID ?? ''}\n`);
  o.w(1, `System UUID:\t${ni.systemUUID ?? ''}\n`);
  o.w(1, `Boot ID:\t${ni.bootID ?? ''}\n`);
  o.w(1, `Kernel Version:\t${ni.kernelVersion ?? ''}\n`);
  o.w(1, `OS Image:\t${ni.osImage ?? ''}\n`);
  o.w(1, `Operating System:\t${ni.operatingSystem ?? ''}\n`);
  o.w(1, `Architecture:\t${ni.architecture ?? ''}\n`);
  o.w(1, `Container Runtime Version:\t${ni.containerRuntimeVersion ?? ''}\n`);
  o.w(1, `Kubelet Version:\t${ni.kubeletVersion ?? ''}\n`);
  if (node.spec?.podCIDR) {
    o.w(0, `PodCIDR:\t${node.spec.podCIDR}\n`);
    o.w(0, `PodCIDRs:\t${(node.spec.podCIDRs ?? [node.spec.podCIDR]).join(',')}\n`);
  }
  const live = pods.filter((p) => p.status?.phase !== 'Succeeded' && p.status?.phase !== 'Failed');
  const allocCpu = quantityMilliValue(st.allocatable?.cpu ?? 0);
  const allocMem = quantityValue(st.allocatable?.memory ?? 0);
  const pct = (v: number, of: number) => (of > 0 ? Math.trunc((v * 100) / of) : 0);
  const sum = (p: Pod, kind: 'requests' | 'limits', r: 'cpu' | 'memory') =>
    (p.spec?.containers ?? []).reduce((s: number, c: Container) => {
      const q = c.resources?.[kind]?.[r];
      return s + (q === undefined ? 0 : r === 'cpu' ? quantityMilliValue(q) : quantityValue(q));
    }, 0);
  o.w(0, `Non-terminated Pods:\t(${live.length} in total)\n`);
  // describeNodeResource writes an empty column after Name ("Name\t\tCPU Requests").
  o.w(1, 'Namespace\tName\t\tCPU Requests\tCPU Limits\tMemory Requests\tMemory Limits\tAge\n');
  o.w(1, '---------\t----\t\t------------\t----------\t---------------\t-------------\t---\n');
  let tc = 0;
  let tcl = 0;
  let tm = 0;
  let tml = 0;
  for (const p of live) {
    const c = sum(p, 'requests', 'cpu');
    const cl = sum(p, 'limits', 'cpu');
    const mm = sum(p, 'requests', 'memory');
    const ml = sum(p, 'limits', 'memory');
    tc += c;
    tcl += cl;
    tm += mm;
    tml += ml;
    o.w(
      1,
      `${p.metadata!.namespace}\t${p.metadata!.name}\t\t${cpuString(c)} (${pct(c, allocCpu)}%)\t${cpuString(cl)} (${pct(cl, allocCpu)}%)\t${memString(mm)} (${pct(mm, allocMem)}%)\t${memString(ml)} (${pct(ml, allocMem)}%)\t${translateTimestampSince(p.metadata!.creationTimestamp, now)}\n`,
    );
  }
  o.w(0, 'Allocated resources:\n');
  o.w(1, '(Total limits may be over 100 percent, i.e., overcommitted.)\n');
  o.w(1, 'Resource\tRequests\tLimits\n');
  o.w(1, '--------\t--------\t------\n');
  o.w(1, `cpu\t${cpuString(tc)} (${pct(tc, allocCpu)}%)\t${cpuString(tcl)} (${pct(tcl, allocCpu)}%)\n`);
  o.w(1, `memory\t${memString(tm)} (${pct(tm, allocMem)}%)\t${memString(tml)} (${pct(tml, allocMem)}%)\n`);
  o.w(1, 'ephemeral-storage\t0 (0%)\t0 (0%)\n');
  for (const k of Object.keys(st.allocatable ?? {})
    .filter((x) => x.startsWith('hugepages-'))
    .sort())
    o.w(1, `${k}\t0 (0%)\t0 (0%)\n`);
  describeEvents(o, eventsFor(events, 'Node', m.name, undefined, undefined), now);
  return o.done();
}

/** kubectl describe replicaset (with the pod phase counts of the pods it controls). */
export function describeReplicaSet(
  rs: ReplicaSet,
  pods: Pod[],
  events: Unstructured[] | undefined,
  now: number,
): string {
  const o = new Out();
  const m: ObjectMeta = rs.metadata ?? {};
  o.w(0, `Name:\t${m.name}\n`);
  o.w(0, `Namespace:\t${m.namespace}\n`);
  o.w(0, `Selector:\t${labelSelectorAsString(rs.spec?.selector)}\n`);
  multiline(o, 'Labels', labels(m.labels));
  multiline(o, 'Annotations', annotations(m.annotations));
  const owner = (m.ownerReferences ?? []).find((r) => r.controller);
  if (owner) o.w(0, `Controlled By:\t${owner.kind}/${owner.name}\n`);
  o.w(0, `Replicas:\t${rs.status?.replicas ?? 0} current / ${rs.spec?.replicas ?? 0} desired\n`);
  const mine = pods.filter((p) => (p.metadata?.ownerReferences ?? []).some((r) => r.uid === m.uid));
  const count = (phase: string) => mine.filter((p) => (p.status?.phase ?? 'Pending') === phase).length;
  o.w(
    0,
    `Pods Status:\t${count('Running')} Running / ${count('Pending')} Waiting / ${count('Succeeded')} Succeeded / ${count('Failed')} Failed\n`,
  );
  podTemplate(o, rs.spec?.template ?? {});
  const conds = rs.status?.conditions ?? [];
  if (conds.length) {
    o.w(0, 'Conditions:\n');
    o.w(1, 'Type\tStatus\tReason\n');
    o.w(1, '----\t------\t------\n');
    for (const c of conds) o.w(1, `${c.type} \t${c.status}\t${c.reason ?? ''}\n`);
  }
  describeEvents(o, eventsFor(events, 'ReplicaSet', m.name, m.namespace, m.uid), now);
  return o.done();
}

/** formatEndpointSlices: the ready `ip:port`s of one service port, three at most then "+ N more...". */
function formatEndpointSlices(slices: EndpointSlice[], portName: string): string {
  if (!slices.length) return '<none>';
  const list: string[] = [];
  const max = 3;
  let more = false;
  let count = 0;
  for (const s of slices) {
    const ports = s.ports ?? [];
    const eps = s.endpoints ?? [];
    if (!ports.length) {
      for (const e of eps) {
        if (list.length === max) more = true;
        if (e.conditions?.ready === false) continue;
        if (!more) list.push(e.addresses?.[0]);
        count++;
      }
      continue;
    }
    for (const p of ports) {
      if ((p.name ?? '') !== portName) continue;
      for (const e of eps) {
        if (list.length === max) more = true;
        if (e.conditions?.ready === false) continue;
        if (!more) list.push(`${e.addresses?.[0]}:${p.port}`);
        count++;
      }
    }
  }
  const ret = list.join(',');
  return more ? `${ret} + ${count - max} more...` : ret;
}

/** kubectl describe service (describeService: the fields in its order, Endpoints from the EndpointSlices). */
export function describeService(
  svc: Service,
  slices: Unstructured[],
  events: Unstructured[] | undefined,
  now: number,
): string {
  const o = new Out();
  const m: ObjectMeta = svc.metadata ?? {};
  const spec = svc.spec ?? {};
  // EndpointSlice's addressType and endpoints are required fields: the list's items are read as that kind here.
  const endpointSlices = fromUnstructured<EndpointSlice[]>(slices);
  o.w(0, `Name:\t${m.name}\n`);
  o.w(0, `Namespace:\t${m.namespace}\n`);
  multiline(o, 'Labels', labels(m.labels));
  multiline(o, 'Annotations', annotations(m.annotations));
  const selector = labels(spec.selector);
  o.w(0, `Selector:\t${selector.length ? selector.join(',') : '<none>'}\n`);
  o.w(0, `Type:\t${spec.type}\n`);
  if (spec.ipFamilyPolicy) o.w(0, `IP Family Policy:\t${spec.ipFamilyPolicy}\n`);
  const families = spec.ipFamilies ?? [];
  o.w(0, `IP Families:\t${families.length ? families.join(',') : '<none>'}\n`);
  o.w(0, `IP:\t${spec.clusterIP ?? ''}\n`);
  const clusterIPs = spec.clusterIPs ?? [];
  o.w(0, `IPs:\t${clusterIPs.length ? clusterIPs.join(',') : '<none>'}\n`);
  for (const p of spec.ports ?? []) {
    const name = p.name || '<unset>';
    o.w(0, `Port:\t${name}\t${p.port}/${p.protocol}\n`);
    o.w(0, `TargetPort:\t${p.targetPort}/${p.protocol}\n`);
    if (p.appProtocol) o.w(0, `AppProtocol:\t${p.appProtocol}\n`);
    if (p.nodePort) o.w(0, `NodePort:\t${name}\t${p.nodePort}/${p.protocol}\n`);
    o.w(0, `Endpoints:\t${formatEndpointSlices(endpointSlices, p.name ?? '')}\n`);
  }
  o.w(0, `Session Affinity:\t${spec.sessionAffinity}\n`);
  if (spec.externalTrafficPolicy) o.w(0, `External Traffic Policy:\t${spec.externalTrafficPolicy}\n`);
  if (spec.internalTrafficPolicy) o.w(0, `Internal Traffic Policy:\t${spec.internalTrafficPolicy}\n`);
  describeEvents(o, eventsFor(events, 'Service', m.name, m.namespace, m.uid), now);
  return o.done();
}

/** kubectl describe namespace (this cluster has no ResourceQuotas or LimitRanges to list). */
export function describeNamespace(ns: Namespace): string {
  const o = new Out();
  const m: ObjectMeta = ns.metadata ?? {};
  o.w(0, `Name:\t${m.name}\n`);
  multiline(o, 'Labels', labels(m.labels));
  multiline(o, 'Annotations', annotations(m.annotations));
  o.w(0, `Status:\t${ns.status?.phase ?? ''}\n`);
  // A terminating namespace carries the namespace controller's deletion conditions.
  const conds = ns.status?.conditions ?? [];
  if (conds.length) {
    o.w(0, 'Conditions:\n');
    o.w(1, 'Type\tStatus\tLastTransitionTime\tReason\tMessage\n');
    o.w(1, '----\t------\t------------------\t------\t-------\n');
    for (const c of conds)
      o.w(1, `${c.type}\t${c.status}\t${rfc1123z(c.lastTransitionTime)}\t${c.reason ?? ''}\t${c.message ?? ''}\n`);
  }
  o.w(0, '\nNo resource quota.\n');
  o.w(0, '\nNo LimitRange resource.\n');
  return o.done();
}

/** kubectl describe priorityclass (describePriorityClass): annotations on one line, as FormatLabels. */
export function describePriorityClass(obj: Unstructured, events: Unstructured[] | undefined, now: number): string {
  // PriorityClass's value is a required field: the object is read as that kind here.
  const pc = fromUnstructured<PriorityClass>(obj);
  const o = new Out();
  const m: ObjectMeta = pc.metadata ?? {};
  o.w(0, `Name:\t${m.name}\n`);
  o.w(0, `Value:\t${pc.value ?? 0}\n`);
  o.w(0, `GlobalDefault:\t${pc.globalDefault ?? false}\n`);
  o.w(0, `PreemptionPolicy:\t${pc.preemptionPolicy ?? ''}\n`);
  o.w(0, `Description:\t${pc.description ?? ''}\n`);
  const a = m.annotations ?? {};
  const ann = Object.keys(a)
    .sort()
    .map((k) => `${k}=${a[k]}`)
    .join(',');
  o.w(0, `Annotations:\t${ann || '<none>'}\n`);
  describeEvents(o, eventsFor(events, 'PriorityClass', m.name, undefined, m.uid), now);
  return o.done();
}

/** kubectl describe poddisruptionbudget (describePodDisruptionBudgetV1): one bound, the selector, the status's counts. */
export function describePodDisruptionBudget(
  pdb: PodDisruptionBudget,
  events: Unstructured[] | undefined,
  now: number,
): string {
  const o = new Out();
  const m: ObjectMeta = pdb.metadata ?? {};
  const spec = pdb.spec ?? {};
  const st: Partial<PodDisruptionBudgetStatus> = pdb.status ?? {};
  o.w(0, `Name:\t${m.name}\n`);
  o.w(0, `Namespace:\t${m.namespace}\n`);
  if (spec.minAvailable !== undefined && spec.minAvailable !== null) o.w(0, `Min available:\t${spec.minAvailable}\n`);
  else if (spec.maxUnavailable !== undefined && spec.maxUnavailable !== null)
    o.w(0, `Max unavailable:\t${spec.maxUnavailable}\n`);
  // FormatLabelSelector: an empty selector is <none>.
  o.w(0, `Selector:\t${spec.selector ? labelSelectorAsString(spec.selector) || '<none>' : '<unset>'}\n`);
  o.w(0, 'Status:\n');
  o.w(2, `Allowed disruptions:\t${st.disruptionsAllowed ?? 0}\n`);
  o.w(2, `Current:\t${st.currentHealthy ?? 0}\n`);
  o.w(2, `Desired:\t${st.desiredHealthy ?? 0}\n`);
  o.w(2, `Total:\t${st.expectedPods ?? 0}\n`);
  describeEvents(o, eventsFor(events, 'PodDisruptionBudget', m.name, m.namespace, m.uid), now);
  return o.done();
}

/** kubectl describe endpointslice (describeEndpointSliceV1). */
export function describeEndpointSlice(obj: Unstructured, events: Unstructured[] | undefined, now: number): string {
  // EndpointSlice's addressType and endpoints are required fields: the object is read as that kind here.
  const eps = fromUnstructured<EndpointSlice>(obj);
  const o = new Out();
  const m: ObjectMeta = eps.metadata ?? {};
  o.w(0, `Name:\t${m.name}\n`);
  o.w(0, `Namespace:\t${m.namespace}\n`);
  multiline(o, 'Labels', labels(m.labels));
  multiline(o, 'Annotations', annotations(m.annotations));
  o.w(0, `AddressType:\t${eps.addressType ?? ''}\n`);
  const ports = eps.ports ?? [];
  if (!ports.length) o.w(0, 'Ports: <unset>\n');
  else {
    o.w(0, 'Ports:\n');
    o.w(1, 'Name\tPort\tProtocol\n');
    o.w(1, '----\t----\t--------\n');
    for (const p of ports) o.w(1, `${p.name ? p.name : '<unset>'}\t${p.port ?? '<unset>'}\t${p.protocol ?? ''}\n`);
  }
  const endpoints = eps.endpoints ?? [];
  if (!endpoints.length) o.w(0, 'Endpoints: <none>\n');
  else {
    o.w(0, 'Endpoints:\n');
    for (const e of endpoints) {
      o.w(1, `- Addresses:\t${(e.addresses ?? []).join(', ') || '<none>'}\n`);
      o.w(2, 'Conditions:\n');
      o.w(
        3,
        `Ready:\t${e.conditions?.ready === undefined || e.conditions?.ready === null ? '<unset>' : String(e.conditions.ready)}\n`,
      );
      o.w(2, `Hostname:\t${e.hostname ?? '<unset>'}\n`);
      if (e.targetRef) o.w(2, `TargetRef:\t${e.targetRef.kind}/${e.targetRef.name}\n`);
      o.w(2, `NodeName:\t${e.nodeName ?? '<unset>'}\n`);
      o.w(2, `Zone:\t${e.zone ?? '<unset>'}\n`);
    }
  }
  describeEvents(o, eventsFor(events, 'EndpointSlice', m.name, m.namespace, m.uid), now);
  return o.done();
}

/**
 * camelcase.Split (github.com/fatih/camelcase): runs of lower case, upper case, digits and other
 * characters, with the last capital of an upper-case run moved to the lower-case run after it.
 */
export function camelcaseSplit(src: string): string[] {
  const cls = (ch: string) => (/\p{Ll}/u.test(ch) ? 1 : /\p{Lu}/u.test(ch) ? 2 : /\p{Nd}/u.test(ch) ? 3 : 4);
  const runs: string[][] = [];
  let last = 0;
  for (const ch of src) {
    const c = cls(ch);
    if (c === last) runs[runs.length - 1].push(ch);
    else runs.push([ch]);
    last = c;
  }
  for (let i = 0; i < runs.length - 1; i++) {
    if (runs[i].length && cls(runs[i][0]) === 2 && cls(runs[i + 1][0]) === 1) runs[i + 1].unshift(runs[i].pop()!);
  }
  return runs.filter((r) => r.length).map((r) => r.join(''));
}

const ACRONYMS = setOf(['API', 'URL', 'UID', 'OSB', 'GUID']);

/** smartLabelFor: `leaseDurationSeconds` → `Lease Duration Seconds`, `apiVersion` → `API Version`; other names as they are. */
export function smartLabelFor(field: string): string {
  if (/[^\p{L}-]/u.test(field)) return field;
  return camelcaseSplit(field)
    .filter((p) => p !== '_')
    .map((p) => {
      if (ACRONYMS.has(p.toUpperCase())) return p.toUpperCase();
      // strings.Title: the first letter of each word (words split at non-letters) in capitals.
      return p.replace(/(^|[^\p{L}])(\p{L})/gu, (_, pre: string, ch: string) => pre + ch.toUpperCase());
    })
    .join(' ');
}

/** fmt's %v of a value of an unstructured object. */
function goValue(v: unknown): string {
  if (v === null || v === undefined) return '<nil>';
  if (typeof v === 'number' && !Number.isInteger(v)) return String(v);
  return String(v);
}

const GENERIC_SKIP = setOf([
  '.metadata.managedFields',
  '.metadata.name',
  '.metadata.namespace',
  '.metadata.labels',
  '.metadata.annotations',
]);

/** printUnstructuredContent: every field in name order, maps and lists indented, scalars after a tab. */
function printUnstructuredContent(o: Out, level: number, content: Unstructured, skipPrefix: string): void {
  for (const field of Object.keys(content).sort()) {
    const value = content[field];
    const skipExpr = `${skipPrefix}.${field}`;
    // An undefined field is not in the object the API server sends (JSON has no undefined).
    if (value === undefined || GENERIC_SKIP.has(skipExpr)) continue;
    if (isMap(value)) {
      o.w(level, `${smartLabelFor(field)}:\n`);
      printUnstructuredContent(o, level + 1, value, skipExpr);
    } else if (Array.isArray(value)) {
      o.w(level, `${smartLabelFor(field)}:\n`);
      const children: unknown[] = value;
      for (const child of children) {
        if (isMap(child)) printUnstructuredContent(o, level + 1, child, skipExpr);
        else o.w(level + 1, `${goValue(child)}\n`);
      }
    } else o.w(level, `${smartLabelFor(field)}:\t${goValue(value)}\n`);
  }
}

/** The generic describer kubectl uses for kinds without their own (Lease, Event): every field of the object. */
export function describeGeneric(obj: Unstructured, events: Unstructured[] | undefined, now: number): string {
  const o = new Out();
  // Any kind: only its TypeMeta and ObjectMeta are read by name.
  const typed = obj as { kind?: string; metadata?: ObjectMeta };
  const m = typed.metadata ?? {};
  o.w(0, `Name:\t${m.name ?? ''}\n`);
  o.w(0, `Namespace:\t${m.namespace ?? ''}\n`);
  multiline(o, 'Labels', labels(m.labels));
  multiline(o, 'Annotations', annotations(m.annotations));
  printUnstructuredContent(o, 0, obj, '');
  describeEvents(o, eventsFor(events, typed.kind, m.name, m.namespace, m.uid), now);
  return o.done();
}

/** kubectl describe serviceaccount (describeServiceAccount): the image pull secrets, one a line. */
export function describeServiceAccount(sa: ServiceAccount, events: Unstructured[] | undefined, now: number): string {
  const o = new Out();
  const m: ObjectMeta = sa.metadata ?? {};
  o.w(0, `Name:\t${m.name}\n`);
  o.w(0, `Namespace:\t${m.namespace}\n`);
  multiline(o, 'Labels', labels(m.labels));
  multiline(o, 'Annotations', annotations(m.annotations));
  const pull = (sa.imagePullSecrets ?? []).map((s) => s.name);
  if (!pull.length) o.w(0, 'Image pull secrets:\t<none>\n');
  pull.forEach((n, i) => o.w(0, `${i ? '                   ' : 'Image pull secrets:'}\t${n}\n`));
  describeEvents(o, eventsFor(events, 'ServiceAccount', m.name, m.namespace, m.uid), now);
  return o.done();
}

/** kubectl describe configmap (ConfigMapDescriber): each key and its value, then the binary keys' sizes. */
export function describeConfigMap(cm: ConfigMap, events: Unstructured[] | undefined, now: number): string {
  const o = new Out();
  const m: ObjectMeta = cm.metadata ?? {};
  o.w(0, `Name:\t${m.name}\n`);
  o.w(0, `Namespace:\t${m.namespace}\n`);
  multiline(o, 'Labels', labels(m.labels));
  multiline(o, 'Annotations', annotations(m.annotations));
  o.w(0, '\nData\n====\n');
  const data = cm.data ?? {};
  for (const k of Object.keys(data).sort()) o.w(0, `${k}:\n----\n${data[k]}\n\n`);
  o.w(0, '\nBinaryData\n====\n');
  // len() of the decoded bytes: base64's 4 characters hold 3.
  const binaryData = cm.binaryData ?? {};
  for (const k of Object.keys(binaryData).sort()) {
    const b = String(binaryData[k]);
    o.w(0, `${k}: ${(b.length * 3) / 4 - (b.match(/=*$/)?.[0].length ?? 0)} bytes\n`);
  }
  o.w(0, '\n');
  describeEvents(o, eventsFor(events, 'ConfigMap', m.name, m.namespace, m.uid), now);
  return o.done();
}
