// The two admission plugins every kube-apiserver runs on pods besides NamespaceLifecycle and
// DefaultTolerationSeconds: ServiceAccount (plugin/pkg/admission/serviceaccount) and Priority
// (plugin/pkg/admission/priority). They run in the order of the API server's plugin list.
import { generateName } from '../util/names.ts';
import type { AdmissionAttributes, AdmissionPlugin } from './config.ts';
import type { Unstructured } from '../api/unstructured.ts';
import type { Pod } from 'kubernetes-types/core/v1';
import type { ApiHost } from './server.ts';
import { type Status, statusError } from '../api/status.ts';
import { storeGet } from './store.ts';
import { storeKey } from '../api/resources.ts';
import { getDefaultPriorityClass, getPriorityClass, validatePriorityClassAdmission } from './priority-class.ts';

/** serviceaccount.DefaultServiceAccountName. */
const DEFAULT_SERVICE_ACCOUNT = 'default';
const MIRROR_POD_ANNOTATION = 'kubernetes.io/config.mirror';

function isMirrorPod(pod: Pod): boolean {
  return pod.metadata?.annotations?.[MIRROR_POD_ANNOTATION] !== undefined;
}

/** serviceaccount.ServiceAccountVolumeName: the token volume's name prefix. */
const SERVICE_ACCOUNT_VOLUME_NAME = 'kube-api-access';
/** serviceaccount.DefaultAPITokenMountPath. */
const DEFAULT_API_TOKEN_MOUNT_PATH = '/var/run/secrets/kubernetes.io/serviceaccount';

/** TokenVolumeSource: the bound token (3607 s, WarnOnlyBoundTokenExpirationSeconds), the cluster CA and the namespace. */
function tokenVolumeSource(): Unstructured {
  return {
    sources: [
      { serviceAccountToken: { expirationSeconds: 3607, path: 'token' } },
      { configMap: { name: 'kube-root-ca.crt', items: [{ key: 'ca.crt', path: 'ca.crt' }] } },
      {
        downwardAPI: {
          items: [{ path: 'namespace', fieldRef: { apiVersion: 'v1', fieldPath: 'metadata.namespace' } }],
        },
      },
    ],
    defaultMode: 420,
  };
}

/**
 * mountServiceAccountToken: every container (init containers first) that mounts nothing at the
 * token path gets the token volume there, read-only; the volume is added once, named
 * kube-api-access-<5 random chars> unless the pod has one already.
 */
function mountServiceAccountToken(h: ApiHost, spec: Unstructured): void {
  const volumes = (spec.volumes ?? []) as Unstructured[];
  const existing = volumes.find(
    (v) => typeof v.name === 'string' && v.name.startsWith(SERVICE_ACCOUNT_VOLUME_NAME + '-'),
  );
  // The suffix comes from a stream of its own, drawn even when no container needs the volume, as Go does.
  const name =
    (existing?.name as string | undefined) ??
    generateName(h.apiServer.volumeNameRng, SERVICE_ACCOUNT_VOLUME_NAME + '-');
  const mount = { name, readOnly: true, mountPath: DEFAULT_API_TOKEN_MOUNT_PATH };
  let needed = false;
  const withMount = (cs: Unstructured[] | undefined): Unstructured[] | undefined =>
    cs?.map((c) => {
      const mounts = (c.volumeMounts ?? []) as Unstructured[];
      if (mounts.some((m) => m.mountPath === DEFAULT_API_TOKEN_MOUNT_PATH)) return c;
      needed = true;
      return { ...c, volumeMounts: [...mounts, mount] };
    });
  if (spec.initContainers) spec.initContainers = withMount(spec.initContainers as Unstructured[]);
  if (spec.containers) spec.containers = withMount(spec.containers as Unstructured[]);
  if (!existing && needed) spec.volumes = [...volumes, { name, projected: tokenVolumeSource() }];
}

/**
 * ServiceAccount admission (CREATE of a pod, mirror pods excepted): the pod runs as `default` unless
 * it names an account, and unless automountServiceAccountToken is false it gets the projected token
 * volume (kube-api-access-xxxxx) mounted in every container unless the pod, or else its account,
 * says automountServiceAccountToken: false. A pod naming an account that does not exist is refused.
 * The real plugin looks `default` up ten times, 0.1–0.2 s apart, while the serviceaccount controller
 * (re)creates it; here a missing `default` is let through as if it had come within those tries.
 */
export const serviceAccountAdmission: AdmissionPlugin = {
  name: 'ServiceAccount',
  admit(a: AdmissionAttributes, h) {
    if (a.resource !== 'pods' || a.subresource || a.operation !== 'CREATE' || !a.object) return undefined;
    const pod = a.object;
    if (isMirrorPod(pod as Pod)) return undefined;
    const spec: Unstructured = { ...(pod.spec as Unstructured | undefined) };
    const account = (spec.serviceAccountName as string | undefined) || DEFAULT_SERVICE_ACCOUNT;
    spec.serviceAccountName = account;
    // The v1 conversion writes the deprecated field from the new one on every read.
    spec.serviceAccount = account;
    const sa = storeGet(h.store, 'serviceaccounts', storeKey('serviceaccounts', a.namespace, account));
    if (!sa && account !== DEFAULT_SERVICE_ACCOUNT) {
      return forbidden(
        a,
        `error looking up service account ${a.namespace}/${account}: serviceaccount "${account}" not found`,
      );
    }
    // shouldAutomount: the pod's preference, then the account's, then true.
    if ((spec.automountServiceAccountToken ?? sa?.automountServiceAccountToken) !== false)
      mountServiceAccountToken(h, spec);
    return { ...pod, spec };
  },
};

function forbidden(a: AdmissionAttributes, message: string): Status {
  return statusError(403, 'Forbidden', `pods "${a.name ?? ''}" is forbidden: ${message}`, {
    name: a.name,
    kind: 'pods',
  });
}

/**
 * Priority admission. For PriorityClasses, one globalDefault (priority-class.ts). For pods: the priority and preemptionPolicy come from the pod's PriorityClass,
 * or from the globalDefault class (the lowest-valued one if several), or are 0 and
 * PreemptLowerPriority when none exists; values the client set itself must agree. On an update the
 * stored values stay.
 */
export const priorityAdmission: AdmissionPlugin = {
  name: 'Priority',
  admit(a: AdmissionAttributes, h) {
    if (a.resource === 'priorityclasses') return validatePriorityClassAdmission(a, h);
    if (a.resource !== 'pods' || a.subresource || !a.object) return undefined;
    const pod = a.object as Unstructured;
    const spec = (pod.spec ?? {}) as Unstructured;
    if (a.operation === 'UPDATE') {
      const old = (a.oldObject?.spec ?? {}) as Unstructured;
      if (
        (spec.priority !== undefined || old.priority === undefined) &&
        (spec.preemptionPolicy !== undefined || old.preemptionPolicy === undefined)
      )
        return undefined;
      return {
        ...pod,
        spec: {
          ...spec,
          priority: spec.priority ?? old.priority,
          preemptionPolicy: spec.preemptionPolicy ?? old.preemptionPolicy,
        },
      };
    }
    if (a.operation !== 'CREATE') return undefined;
    // establishPriority.
    const className = spec.priorityClassName as string | undefined;
    let pcName = className ?? '';
    let priority = 0;
    let preemptionPolicy: string | undefined = 'PreemptLowerPriority';
    if (className) {
      const pc = getPriorityClass(h, className);
      if (!pc) return forbidden(a, `no PriorityClass with name ${className} was found`);
      priority = pc.value ?? 0;
      preemptionPolicy = pc.preemptionPolicy;
    } else {
      const dpc = getDefaultPriorityClass(h);
      if (dpc) {
        pcName = dpc.metadata?.name ?? '';
        priority = dpc.value ?? 0;
        preemptionPolicy = dpc.preemptionPolicy;
      }
    }
    if (spec.priority !== undefined && spec.priority !== priority) {
      return forbidden(
        a,
        `the integer value of priority (${String(spec.priority)}) must not be provided in pod spec; priority admission controller computed ${priority} from the given PriorityClass name`,
      );
    }
    const out: Unstructured = { ...spec, priority };
    if (pcName) out.priorityClassName = pcName;
    if (preemptionPolicy !== undefined) {
      if (spec.preemptionPolicy !== undefined && spec.preemptionPolicy !== preemptionPolicy) {
        return forbidden(
          a,
          `the string value of PreemptionPolicy (${String(spec.preemptionPolicy)}) must not be provided in pod spec; priority admission controller computed ${preemptionPolicy} from the given PriorityClass name`,
        );
      }
      out.preemptionPolicy = preemptionPolicy;
    }
    return { ...pod, spec: out };
  },
};
