// The two admission plugins every kube-apiserver runs on pods besides NamespaceLifecycle and
// DefaultTolerationSeconds: ServiceAccount (plugin/pkg/admission/serviceaccount) and Priority
// (plugin/pkg/admission/priority). They run in the order of the API server's plugin list.
import type { AdmissionAttributes, AdmissionPlugin } from './admission.ts';
import type { Obj } from './request.ts';
import { type Status, statusError } from './status.ts';
import type { KObject } from './store.ts';
import { getDefaultPriorityClass, getPriorityClass, validatePriorityClassAdmission } from './priority-class.ts';

/** serviceaccount.DefaultServiceAccountName. */
export const DEFAULT_SERVICE_ACCOUNT = 'default';
const MIRROR_POD_ANNOTATION = 'kubernetes.io/config.mirror';

function isMirrorPod(pod: Obj): boolean {
  return pod.metadata?.annotations?.[MIRROR_POD_ANNOTATION] !== undefined;
}

/**
 * ServiceAccount admission (CREATE of a pod, mirror pods excepted): the pod runs as `default` unless
 * it names an account. Two parts are left out: the simulator has no ServiceAccount objects, so the
 * account is not looked up (a real API server refuses a pod whose account does not exist yet); and
 * the projected token volume (kube-api-access-xxxxx) is not mounted, since its name would be one
 * more rng draw per pod, moving every generated name the chapters quote, for a volume no simulated
 * kubelet mounts (oracle/differences.json lists it).
 */
export const serviceAccountAdmission: AdmissionPlugin = {
  name: 'ServiceAccount',
  admit(a: AdmissionAttributes) {
    if (a.resource !== 'pods' || a.subresource || a.operation !== 'CREATE' || !a.object) return undefined;
    const pod = a.object as Obj;
    if (isMirrorPod(pod)) return undefined;
    const spec: Obj = { ...pod.spec };
    const account = (spec.serviceAccountName as string | undefined) || DEFAULT_SERVICE_ACCOUNT;
    spec.serviceAccountName = account;
    // The v1 conversion writes the deprecated field from the new one on every read.
    spec.serviceAccount = account;
    return { ...pod, spec } as KObject;
  },
};

function forbidden(a: AdmissionAttributes, message: string): Status {
  return statusError(403, 'Forbidden', `pods "${a.name ?? ''}" is forbidden: ${message}`, { name: a.name, kind: 'pods' });
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
    const pod = a.object as Obj;
    const spec = (pod.spec ?? {}) as Obj;
    if (a.operation === 'UPDATE') {
      const old = (a.oldObject?.spec ?? {}) as Obj;
      if ((spec.priority !== undefined || old.priority === undefined) && (spec.preemptionPolicy !== undefined || old.preemptionPolicy === undefined)) return undefined;
      return { ...pod, spec: { ...spec, priority: spec.priority ?? old.priority, preemptionPolicy: spec.preemptionPolicy ?? old.preemptionPolicy } } as KObject;
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
      return forbidden(a, `the integer value of priority (${String(spec.priority)}) must not be provided in pod spec; priority admission controller computed ${priority} from the given PriorityClass name`);
    }
    const out: Obj = { ...spec, priority };
    if (pcName) out.priorityClassName = pcName;
    if (preemptionPolicy !== undefined) {
      if (spec.preemptionPolicy !== undefined && spec.preemptionPolicy !== preemptionPolicy) {
        return forbidden(a, `the string value of PreemptionPolicy (${String(spec.preemptionPolicy)}) must not be provided in pod spec; priority admission controller computed ${preemptionPolicy} from the given PriorityClass name`);
      }
      out.preemptionPolicy = preemptionPolicy;
    }
    return { ...pod, spec: out } as KObject;
  },
};
