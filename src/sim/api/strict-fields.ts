// Strict field validation (fieldValidation=Strict, which kubectl sends on create and apply): the
// strict decoder (sigs.k8s.io/json's UnmarshalStrict, and the unstructured converter a patch goes
// through) reports each member that names no field of its Go struct as `unknown field "spec.foo"`.
// In kubectl's lazy chunk: no other client asks for it.
// Simplified: the structs a reader writes by hand are listed field by field (k8s.io/api v1.37);
// below a field whose struct is not listed (status, volumes, affinity, securityContext, lifecycle,
// envFrom, valueFrom …) nothing is checked.
import { RESOURCES } from './resources.ts';
import { type Status, statusError } from './status.ts';
import { parsed } from './strict-fields-cache.ts';

/**
 * Each struct's JSON fields, space-separated; `name:Struct` descends into a listed struct and
 * `name:Struct[]` into each item of a list of them. A bare name is a leaf or an unlisted struct.
 */
const STRUCTS: Record<string, string> = {
  Meta: 'name generateName namespace selfLink uid resourceVersion generation creationTimestamp deletionTimestamp deletionGracePeriodSeconds labels annotations ownerReferences:OwnerRef[] finalizers managedFields',
  OwnerRef: 'apiVersion kind name uid controller blockOwnerDeletion',
  Selector: 'matchLabels matchExpressions:Requirement[]',
  Requirement: 'key operator values',
  Template: 'metadata:Meta spec:PodSpec',
  PodSpec:
    'volumes initContainers:Container[] containers:Container[] ephemeralContainers restartPolicy terminationGracePeriodSeconds activeDeadlineSeconds dnsPolicy nodeSelector ' +
    'serviceAccountName serviceAccount automountServiceAccountToken nodeName hostNetwork hostPID hostIPC shareProcessNamespace securityContext imagePullSecrets hostname subdomain ' +
    'affinity schedulerName tolerations:Toleration[] hostAliases priorityClassName priority dnsConfig readinessGates runtimeClassName enableServiceLinks preemptionPolicy overhead ' +
    'topologySpreadConstraints setHostnameAsFQDN os hostUsers schedulingGates resourceClaims resources hostnameOverride workloadRef',
  Container:
    'name image command args workingDir ports:Port[] envFrom env:Env[] resources:Resources resizePolicy restartPolicy restartPolicyRules volumeMounts volumeDevices ' +
    'livenessProbe:Probe readinessProbe:Probe startupProbe:Probe lifecycle terminationMessagePath terminationMessagePolicy imagePullPolicy securityContext stdin stdinOnce tty',
  Port: 'name hostPort containerPort protocol hostIP',
  Env: 'name value valueFrom',
  Resources: 'limits requests claims',
  Probe:
    'exec:Exec httpGet:HTTPGet tcpSocket:TCPSocket grpc:GRPC initialDelaySeconds timeoutSeconds periodSeconds successThreshold failureThreshold terminationGracePeriodSeconds',
  Exec: 'command',
  HTTPGet: 'path port host scheme httpHeaders',
  TCPSocket: 'port host',
  GRPC: 'port service',
  Toleration: 'key operator value effect tolerationSeconds',
  Pod: 'apiVersion kind metadata:Meta spec:PodSpec status',
  Deployment: 'apiVersion kind metadata:Meta spec:DeploymentSpec status',
  DeploymentSpec:
    'replicas selector:Selector template:Template strategy:Strategy minReadySeconds revisionHistoryLimit paused progressDeadlineSeconds',
  Strategy: 'type rollingUpdate:RollingUpdate',
  RollingUpdate: 'maxUnavailable maxSurge',
  ReplicaSet: 'apiVersion kind metadata:Meta spec:ReplicaSetSpec status',
  ReplicaSetSpec: 'replicas minReadySeconds selector:Selector template:Template',
  Service: 'apiVersion kind metadata:Meta spec:ServiceSpec status',
  ServiceSpec:
    'ports:ServicePort[] selector clusterIP clusterIPs type externalIPs sessionAffinity loadBalancerIP loadBalancerSourceRanges externalName externalTrafficPolicy ' +
    'healthCheckNodePort publishNotReadyAddresses sessionAffinityConfig ipFamilies ipFamilyPolicy allocateLoadBalancerNodePorts loadBalancerClass internalTrafficPolicy trafficDistribution',
  ServicePort: 'name protocol appProtocol port targetPort nodePort',
  Namespace: 'apiVersion kind metadata:Meta spec:NamespaceSpec status',
  NamespaceSpec: 'finalizers',
  PriorityClass: 'apiVersion kind metadata:Meta value globalDefault description preemptionPolicy',
  Node: 'apiVersion kind metadata:Meta spec:NodeSpec status',
  NodeSpec: 'podCIDR podCIDRs providerID unschedulable taints:Taint[] configSource externalID',
  Taint: 'key value effect timeAdded',
  PodDisruptionBudget: 'apiVersion kind metadata:Meta spec:PodDisruptionBudgetSpec status',
  PodDisruptionBudgetSpec: 'minAvailable selector:Selector maxUnavailable unhealthyPodEvictionPolicy',
};

/** The top struct of each resource's body. */
const TOP: Record<string, string> = {
  pods: 'Pod',
  deployments: 'Deployment',
  replicasets: 'ReplicaSet',
  services: 'Service',
  namespaces: 'Namespace',
  priorityclasses: 'PriorityClass',
  nodes: 'Node',
  poddisruptionbudgets: 'PodDisruptionBudget',
};

/** A struct's fields: JSON name → the struct below it ('' when unlisted), `[]` marking a list. */
function fieldsOf(struct: string): Map<string, string> {
  let m = parsed.get(struct);
  if (!m) {
    m = new Map(
      STRUCTS[struct].split(' ').map((f) => {
        const [n, t = ''] = f.split(':');
        return [n, t];
      }),
    );
    parsed.set(struct, m);
  }
  return m;
}

const isMap = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

function walk(v: unknown, struct: string, path: string, out: string[]): void {
  if (!isMap(v)) return;
  const fields = fieldsOf(struct);
  for (const k of Object.keys(v)) {
    const at = path ? `${path}.${k}` : k;
    const t = fields.get(k);
    if (t === undefined) {
      out.push(at);
      continue;
    }
    if (!t) continue;
    if (!t.endsWith('[]')) {
      walk(v[k], t, at, out);
      continue;
    }
    const item = v[k];
    if (Array.isArray(item)) item.forEach((x, i) => walk(x, t.slice(0, -2), `${at}[${i}]`, out));
  }
}

/** The paths of the body's members that name no field of their struct, in the body's order (UnmarshalStrict's). */
export function unknownFields(resource: string, body: unknown): string[] {
  const top = TOP[resource];
  const out: string[] = [];
  if (top) walk(body, top, '', out);
  return out;
}

/**
 * fieldValidation=Strict on a write: the 400 for the body's unknown fields, undefined when it has
 * none. A POST's or PUT's body is strictly decoded (transformDecodeError's words); a patched object
 * goes through the unstructured converter, whose strict error is a bare BadRequest.
 */
export function strictFieldValidation(resource: string, body: unknown, patched: boolean): Status | undefined {
  const paths = unknownFields(resource, body);
  if (!paths.length) return undefined;
  const err = `strict decoding error: ${paths.map((p) => `unknown field "${p}"`).join(', ')}`;
  const { kind, version } = RESOURCES[resource];
  return statusError(
    400,
    'BadRequest',
    patched ? err : `${kind} in version "${version}" cannot be handled as a ${kind}: ${err}`,
  );
}
