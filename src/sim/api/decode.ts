// Decoding a request body into the Go types (k8s.io/api/{apps,core}/v1) as the API server's JSON
// serializer does: a value of the wrong JSON type is a 400 BadRequest (`json: cannot unmarshal string
// into Go struct field DeploymentSpec.spec.replicas of type int32`), before defaulting or validation
// see it; a null leaves the Go zero value (the field is dropped). Fields the simulator does not model
// decode as anything (`any`), as a stored object would carry them through.
import type { Unstructured } from './unstructured.ts';
import { RESOURCES } from './resources.ts';
import { type Status, statusError } from './status.ts';
import { quantityOf, quantityString } from './quantity.ts';
import { omitEmptyMeta } from './omit-empty-meta.ts';

/** A Go type as the decoder sees it. */
type GoType =
  | { t: 'string' | 'bool' | 'int32' | 'int64' | 'quantity' | 'intstr' | 'any'; go: string }
  | { t: 'struct'; go: string; fields: Record<string, GoType> }
  | { t: 'list' | 'map'; go: string; of: GoType };

const str = (go = 'string'): GoType => ({ t: 'string', go });
const bool: GoType = { t: 'bool', go: 'bool' };
const int32: GoType = { t: 'int32', go: 'int32' };
const int64: GoType = { t: 'int64', go: 'int64' };
const any: GoType = { t: 'any', go: '' };
const intstr: GoType = { t: 'intstr', go: 'intstr.IntOrString' };
const quantity: GoType = { t: 'quantity', go: 'resource.Quantity' };
const struct = (go: string, fields: Record<string, GoType>): GoType => ({ t: 'struct', go, fields });
const list = (of: GoType): GoType => ({ t: 'list', go: `[]${of.go}`, of });
const map = (of: GoType, go = `map[string]${of.go}`): GoType => ({ t: 'map', go, of });

const stringMap = map(str());
const resourceList = map(quantity, 'v1.ResourceList');
const objectMeta = struct('v1.ObjectMeta', {
  name: str(),
  generateName: str(),
  namespace: str(),
  uid: str('types.UID'),
  resourceVersion: str(),
  generation: int64,
  deletionGracePeriodSeconds: int64,
  labels: stringMap,
  annotations: stringMap,
  finalizers: list(str()),
  ownerReferences: list(
    struct('v1.OwnerReference', {
      apiVersion: str(),
      kind: str(),
      name: str(),
      uid: str('types.UID'),
      controller: bool,
      blockOwnerDeletion: bool,
    }),
  ),
});
const typeMeta = { apiVersion: str(), kind: str() };
const labelSelector = struct('v1.LabelSelector', {
  matchLabels: stringMap,
  matchExpressions: list(
    struct('v1.LabelSelectorRequirement', {
      key: str(),
      operator: str('v1.LabelSelectorOperator'),
      values: list(str()),
    }),
  ),
});
const probe = struct('v1.Probe', {
  exec: struct('v1.ExecAction', { command: list(str()) }),
  httpGet: struct('v1.HTTPGetAction', { path: str(), port: intstr, host: str(), scheme: str('v1.URIScheme') }),
  tcpSocket: struct('v1.TCPSocketAction', { port: intstr, host: str() }),
  grpc: struct('v1.GRPCAction', { port: int32, service: str() }),
  initialDelaySeconds: int32,
  timeoutSeconds: int32,
  periodSeconds: int32,
  successThreshold: int32,
  failureThreshold: int32,
  terminationGracePeriodSeconds: int64,
});
const container = struct('v1.Container', {
  name: str(),
  image: str(),
  command: list(str()),
  args: list(str()),
  workingDir: str(),
  ports: list(
    struct('v1.ContainerPort', {
      name: str(),
      hostPort: int32,
      containerPort: int32,
      protocol: str('v1.Protocol'),
      hostIP: str(),
    }),
  ),
  env: list(struct('v1.EnvVar', { name: str(), value: str(), valueFrom: any })),
  resources: struct('v1.ResourceRequirements', { limits: resourceList, requests: resourceList }),
  livenessProbe: probe,
  readinessProbe: probe,
  startupProbe: probe,
  imagePullPolicy: str('v1.PullPolicy'),
  terminationMessagePath: str(),
  terminationMessagePolicy: str('v1.TerminationMessagePolicy'),
  restartPolicy: str('v1.ContainerRestartPolicy'),
});
const toleration = struct('v1.Toleration', {
  key: str(),
  operator: str('v1.TolerationOperator'),
  value: str(),
  effect: str('v1.TaintEffect'),
  tolerationSeconds: int64,
});
const podSpec = struct('v1.PodSpec', {
  initContainers: list(container),
  containers: list(container),
  restartPolicy: str('v1.RestartPolicy'),
  terminationGracePeriodSeconds: int64,
  activeDeadlineSeconds: int64,
  dnsPolicy: str('v1.DNSPolicy'),
  nodeSelector: stringMap,
  serviceAccountName: str(),
  nodeName: str(),
  hostNetwork: bool,
  schedulerName: str(),
  tolerations: list(toleration),
  priorityClassName: str(),
  priority: int32,
  hostname: str(),
  subdomain: str(),
});
const podTemplate = struct('v1.PodTemplateSpec', { metadata: objectMeta, spec: podSpec });

/** The Go type of each resource's body, from the top (`Deployment` names the struct in errors). */
const BODIES: Record<string, GoType> = {
  deployments: struct('v1.Deployment', {
    ...typeMeta,
    metadata: objectMeta,
    spec: struct('v1.DeploymentSpec', {
      replicas: int32,
      selector: labelSelector,
      template: podTemplate,
      minReadySeconds: int32,
      revisionHistoryLimit: int32,
      paused: bool,
      progressDeadlineSeconds: int32,
      strategy: struct('v1.DeploymentStrategy', {
        type: str('v1.DeploymentStrategyType'),
        rollingUpdate: struct('v1.RollingUpdateDeployment', { maxUnavailable: intstr, maxSurge: intstr }),
      }),
    }),
  }),
  replicasets: struct('v1.ReplicaSet', {
    ...typeMeta,
    metadata: objectMeta,
    spec: struct('v1.ReplicaSetSpec', {
      replicas: int32,
      minReadySeconds: int32,
      selector: labelSelector,
      template: podTemplate,
    }),
  }),
  pods: struct('v1.Pod', { ...typeMeta, metadata: objectMeta, spec: podSpec }),
  services: struct('v1.Service', {
    ...typeMeta,
    metadata: objectMeta,
    spec: struct('v1.ServiceSpec', {
      ports: list(
        struct('v1.ServicePort', {
          name: str(),
          protocol: str('v1.Protocol'),
          appProtocol: str(),
          port: int32,
          targetPort: intstr,
          nodePort: int32,
        }),
      ),
      selector: stringMap,
      clusterIP: str(),
      clusterIPs: list(str()),
      type: str('v1.ServiceType'),
      externalIPs: list(str()),
      sessionAffinity: str('v1.ServiceAffinity'),
      externalName: str(),
      externalTrafficPolicy: str('v1.ServiceExternalTrafficPolicy'),
      internalTrafficPolicy: str('v1.ServiceInternalTrafficPolicy'),
      ipFamilies: list(str('v1.IPFamily')),
      ipFamilyPolicy: str('v1.IPFamilyPolicy'),
      publishNotReadyAddresses: bool,
    }),
  }),
  priorityclasses: struct('v1.PriorityClass', {
    ...typeMeta,
    metadata: objectMeta,
    value: int32,
    globalDefault: bool,
    description: str(),
    preemptionPolicy: str('v1.PreemptionPolicy'),
  }),
  poddisruptionbudgets: struct('v1.PodDisruptionBudget', {
    ...typeMeta,
    metadata: objectMeta,
    spec: struct('v1.PodDisruptionBudgetSpec', {
      minAvailable: intstr,
      selector: labelSelector,
      maxUnavailable: intstr,
      unhealthyPodEvictionPolicy: str('v1.UnhealthyPodEvictionPolicyType'),
    }),
  }),
  namespaces: struct('v1.Namespace', {
    ...typeMeta,
    metadata: objectMeta,
    spec: struct('v1.NamespaceSpec', { finalizers: list(str('v1.FinalizerName')) }),
  }),
  nodes: struct('v1.Node', {
    ...typeMeta,
    metadata: objectMeta,
    spec: struct('v1.NodeSpec', {
      podCIDR: str(),
      podCIDRs: list(str()),
      providerID: str(),
      unschedulable: bool,
      taints: list(struct('v1.Taint', { key: str(), value: str(), effect: str('v1.TaintEffect') })),
    }),
    status: struct('v1.NodeStatus', {
      capacity: resourceList,
      allocatable: resourceList,
      phase: str('v1.NodePhase'),
      conditions: list(
        struct('v1.NodeCondition', {
          type: str('v1.NodeConditionType'),
          status: str('v1.ConditionStatus'),
          reason: str(),
          message: str(),
        }),
      ),
      addresses: list(struct('v1.NodeAddress', { type: str('v1.NodeAddressType'), address: str() })),
    }),
  }),
};

/** The JSON kind Go's decoder names in an UnmarshalTypeError ("string", "number 1.5", "object" …). */
function jsonKind(v: unknown, withNumber: boolean): string {
  if (typeof v === 'string') return 'string';
  if (typeof v === 'boolean') return 'bool';
  if (typeof v === 'number') return withNumber ? `number ${JSON.stringify(v)}` : 'number';
  return Array.isArray(v) ? 'array' : 'object';
}

/** Decoding failed: the first type error (Go keeps decoding and reports the first) or an Unmarshaler's error (it stops at once). */
class DecodeError {
  readonly message: string;
  constructor(message: string) {
    this.message = message;
  }
}

interface Walk {
  first?: DecodeError;
  path: string[];
  struct: string;
}

function typeError(w: Walk, value: string, type: string): void {
  w.first ??= new DecodeError(
    w.path.length
      ? `json: cannot unmarshal ${value} into Go struct field ${w.struct}.${w.path.join('.')} of type ${type}`
      : `json: cannot unmarshal ${value} into Go value of type ${type}`,
  );
}

/** A null number (NaN or ±Infinity in JavaScript encodes as null). */
const isNull = (v: unknown): boolean => v === null || v === undefined || (typeof v === 'number' && !Number.isFinite(v));

/**
 * Decode `v` as `type`: returns the value as Go would keep it (nulls dropped from structs, a null
 * element of a list or map as the zero value), the same object when nothing changes. Throws a
 * DecodeError for an Unmarshaler's error (quantities, IntOrString).
 */
function decodeValue(v: unknown, type: GoType, w: Walk): unknown {
  switch (type.t) {
    case 'any':
      return v;
    case 'string':
      if (typeof v !== 'string') typeError(w, jsonKind(v, false), type.go);
      return v;
    case 'bool':
      if (typeof v !== 'boolean') typeError(w, jsonKind(v, false), type.go);
      return v;
    case 'int32':
    case 'int64': {
      if (typeof v !== 'number') {
        typeError(w, jsonKind(v, false), type.go);
        return v;
      }
      const lim = type.t === 'int32' ? 2 ** 31 : 2 ** 63;
      if (!Number.isInteger(v) || v < -lim || v >= lim || /[e.]/.test(JSON.stringify(v)))
        typeError(w, jsonKind(v, true), type.go);
      return v;
    }
    case 'intstr':
      // IntOrString.UnmarshalJSON: a string is a string; anything else goes into an int32 (no struct context).
      if (typeof v === 'string') return v;
      if (typeof v !== 'number' || !Number.isInteger(v) || v < -(2 ** 31) || v >= 2 ** 31)
        throw new DecodeError(`json: cannot unmarshal ${jsonKind(v, true)} into Go value of type int32`);
      return v;
    case 'quantity': {
      // Quantity.UnmarshalJSON parses the raw JSON text (quotes stripped) with ParseQuantity, and
      // MarshalJSON writes it back as String() does: "0.5" is stored as "500m", a number as a string.
      let q;
      try {
        q = quantityOf(typeof v === 'string' ? v : JSON.stringify(v));
      } catch (e) {
        throw new DecodeError((e as Error).message);
      }
      const stored = quantityString(q);
      return stored === v ? v : stored;
    }
    case 'list': {
      if (!Array.isArray(v)) {
        typeError(w, jsonKind(v, false), type.go);
        return v;
      }
      let out: unknown[] | undefined;
      for (let i = 0; i < v.length; i++) {
        const x = v[i];
        const d = isNull(x) ? zero(type.of) : decodeValue(x, type.of, w);
        if (d !== x) (out ??= v.slice())[i] = d;
      }
      return out ?? v;
    }
    case 'map': {
      if (typeof v !== 'object' || v === null || Array.isArray(v)) {
        typeError(w, jsonKind(v, false), type.go);
        return v;
      }
      let out: Unstructured | undefined;
      for (const k in v as Unstructured) {
        const x = (v as Unstructured)[k];
        const d = isNull(x) ? zero(type.of) : decodeValue(x, type.of, w);
        if (d !== x) (out ??= { ...(v as Unstructured) })[k] = d;
      }
      return out ?? v;
    }
    case 'struct': {
      if (typeof v !== 'object' || v === null || Array.isArray(v)) {
        typeError(w, jsonKind(v, false), type.go);
        return v;
      }
      let out: Unstructured | undefined;
      const outer = w.struct;
      for (const k in v as Unstructured) {
        const ft = type.fields[k];
        if (!ft) continue;
        const x = (v as Unstructured)[k];
        if (isNull(x)) {
          out ??= { ...(v as Unstructured) };
          delete out[k];
          continue;
        }
        w.path.push(k);
        w.struct = type.go.slice(type.go.indexOf('.') + 1);
        const d = decodeValue(x, ft, w);
        w.path.pop();
        w.struct = outer;
        if (d !== x) (out ??= { ...(v as Unstructured) })[k] = d;
      }
      return out ?? v;
    }
  }
}

/** The Go zero value a null list element or map value decodes to. */
function zero(type: GoType): unknown {
  switch (type.t) {
    case 'string':
      return '';
    case 'bool':
      return false;
    case 'int32':
    case 'int64':
      return 0;
    case 'struct':
    case 'map':
      return {};
    case 'list':
      return [];
    case 'quantity':
      return '0';
    default:
      return null;
  }
}

/**
 * Decode a request body of `resource` into its Go type: the object as decoded (the same object when
 * nothing changes), or the 400 BadRequest the API server answers
 * (`Deployment in version "v1" cannot be handled as a Deployment: json: cannot unmarshal …`).
 */
export function decodeBody(resource: string, body: unknown): { obj: Unstructured } | { status: Status } {
  const type = BODIES[resource];
  if (!type) return { obj: omitEmptyMeta(body as Unstructured) };
  const w: Walk = { path: [], struct: '' };
  let obj: unknown;
  try {
    obj = decodeValue(body, type, w);
  } catch (e) {
    if (!(e instanceof DecodeError)) throw e;
    w.first = e;
  }
  if (w.first) {
    const { kind, version } = RESOURCES[resource];
    return {
      status: statusError(
        400,
        'BadRequest',
        `${kind} in version "${version}" cannot be handled as a ${kind}: ${w.first.message}`,
      ),
    };
  }
  return { obj: omitEmptyMeta(obj as Unstructured) };
}
