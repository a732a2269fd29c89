// Built-in validation (ValidateObjectMeta's names, ValidatePodUpdate, ValidateDeployment … in
// miniature) and the extra validators a cluster adds.
import { deepEqual } from '../util/names.ts';
import type { ApiServerConfig, Validator } from './config.ts';
import type { Unstructured } from '../api/unstructured.ts';
import type {
  Container,
  ContainerPort,
  Node,
  Pod,
  PodSpec,
  Probe,
  ResourceRequirements,
  ServiceSpec,
  Taint,
  Toleration,
} from 'kubernetes-types/core/v1';
import type { DeploymentSpec, DeploymentStrategy, ReplicaSetSpec } from 'kubernetes-types/apps/v1';
import type { LabelSelector, LabelSelectorRequirement, ObjectMeta, OwnerReference } from 'kubernetes-types/meta/v1';
import { labelSelectorMatches } from '../api/labels.ts';
import { type FieldError, GoValue } from '../api/status.ts';
import { quantityOf } from '../api/quantity.ts';
import { cmpQuantity as cmp, quantitySign } from '../api/quantity-cmp.ts';
import {
  DNS1123_LABEL_MSG,
  dns1123SubdomainErrors,
  inclusiveRangeError,
  isDNS1123Subdomain,
  labelValueErrors,
  maxLenError,
  qualifiedNameErrors,
  regexError,
} from '../api/name-validation.ts';
export { isDNS1123Subdomain } from '../api/name-validation.ts';
import { setOf } from '../util/table.ts';

/** Add a validator for a resource to one API server (runs after the built-in ones). */
export function registerValidator(config: ApiServerConfig, resource: string, v: Validator): void {
  (config.validators[resource] ??= []).push(v);
}

const DNS1123_LABEL = /^[a-z0-9]([-a-z0-9]*[a-z0-9])?$/;
const DNS1035_LABEL = /^[a-z]([-a-z0-9]*[a-z0-9])?$/;

/** ValidateObjectMeta's name check per resource kind of name. */
function validateName(resource: string, name: string): FieldError[] {
  if (resource === 'namespaces') {
    if (name.length > 63)
      return [{ type: 'Invalid', field: 'metadata.name', value: name, detail: 'must be no more than 63 characters' }];
    if (!DNS1123_LABEL.test(name))
      return [
        {
          type: 'Invalid',
          field: 'metadata.name',
          value: name,
          detail:
            "a lowercase RFC 1123 label must consist of lower case alphanumeric characters or '-', and must start and end with an alphanumeric character (e.g. 'my-name',  or '123-abc', regex used for validation is '[a-z0-9]([-a-z0-9]*[a-z0-9])?')",
        },
      ];
    return [];
  }
  if (resource === 'services') {
    if (!DNS1035_LABEL.test(name) || name.length > 63)
      return [
        {
          type: 'Invalid',
          field: 'metadata.name',
          value: name,
          detail:
            "a DNS-1035 label must consist of lower case alphanumeric characters or '-', start with an alphabetic character, and end with an alphanumeric character (e.g. 'my-name',  or 'abc-123', regex used for validation is '[a-z]([-a-z0-9]*[a-z0-9])?')",
        },
      ];
    return [];
  }
  if (name.length > 253)
    return [{ type: 'Invalid', field: 'metadata.name', value: name, detail: 'must be no more than 253 characters' }];
  if (!isDNS1123Subdomain(name))
    return [
      {
        type: 'Invalid',
        field: 'metadata.name',
        value: name,
        detail:
          "a lowercase RFC 1123 subdomain must consist of lower case alphanumeric characters, '-' or '.', and must start and end with an alphanumeric character (e.g. 'example.com', regex used for validation is '[a-z0-9]([-a-z0-9]*[a-z0-9])?(\\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*')",
      },
    ];
  return [];
}

/** ValidatePodUpdate's message when a pod's spec changes beyond the mutable fields. */
const POD_UPDATE_FORBIDDEN =
  'pod updates may not change fields other than `spec.containers[*].image`,`spec.initContainers[*].image`,`spec.activeDeadlineSeconds`,`spec.tolerations` (only additions to existing tolerations),`spec.terminationGracePeriodSeconds` (allow it to be set to 1 if it was previously negative)';

/** Whether a pod spec update only touches what Kubernetes allows (images, activeDeadlineSeconds, added tolerations). */
function podSpecUpdateAllowed(oldSpec: PodSpec | undefined, newSpec: PodSpec | undefined): boolean {
  if (deepEqual(oldSpec, newSpec)) return true;
  if (!oldSpec || !newSpec) return false;
  const strip = (spec: PodSpec): Unstructured => {
    const c: Unstructured = { ...spec };
    delete c.activeDeadlineSeconds;
    delete c.tolerations;
    for (const k of ['containers', 'initContainers']) {
      const list = c[k];
      if (Array.isArray(list)) c[k] = (list as Container[]).map((x) => ({ ...x, image: undefined }));
    }
    return c;
  };
  if (!deepEqual(strip(oldSpec), strip(newSpec))) return false;
  const oldTol: Toleration[] = oldSpec.tolerations ?? [];
  const newTol: Toleration[] = newSpec.tolerations ?? [];
  return oldTol.every((t) => newTol.some((n) => deepEqual(t, n)));
}

/** validation.IsDNS1123Label's messages. */
function dns1123LabelErrors(s: string): string[] {
  const errs: string[] = [];
  if (s.length > 63) errs.push(maxLenError(63));
  if (!DNS1123_LABEL.test(s))
    errs.push(regexError(DNS1123_LABEL_MSG, '[a-z0-9]([-a-z0-9]*[a-z0-9])?', 'my-name', '123-abc'));
  return errs;
}

/** validation.IsValidPortNum. */
const portNumErrors = (p: number): string[] => (p >= 1 && p <= 65535 ? [] : [inclusiveRangeError(1, 65535)]);

/** validation.IsValidPortName (IANA_SVC_NAME). */
function portNameErrors(port: string): string[] {
  const errs: string[] = [];
  if (port.length > 15) errs.push(maxLenError(15));
  if (!/^[-a-z0-9]+$/.test(port)) errs.push('must contain only alpha-numeric characters (a-z, 0-9), and hyphens (-)');
  if (!/[a-z]/.test(port)) errs.push('must contain at least one letter (a-z)');
  if (port.includes('--')) errs.push('must not contain consecutive hyphens');
  if (port.length > 0 && (port[0] === '-' || port[port.length - 1] === '-'))
    errs.push('must not begin or end with a hyphen');
  return errs;
}

const keys = (m: unknown): string[] => (m && typeof m === 'object' ? Object.keys(m).sort() : []);
const supported = (vals: string[]): string => `supported values: ${vals.map((v) => JSON.stringify(v)).join(', ')}`;
/** A NotSupported field error with the supported values, as field.NotSupported words it. */
export const notSupported = (field: string, value: unknown, vals: string[]): FieldError => ({
  type: 'NotSupported',
  field,
  value,
  detail: supported(vals),
});
export const nonNegative = (v: unknown, field: string): FieldError[] =>
  typeof v === 'number' && v < 0
    ? [{ type: 'Invalid', field, value: v, detail: 'must be greater than or equal to 0' }]
    : [];

/** ValidateLabels (map order is Go's random one; sorted here). */
function validateLabels(labels: Record<string, string> | undefined, field: string): FieldError[] {
  const errs: FieldError[] = [];
  for (const k of keys(labels)) {
    for (const m of qualifiedNameErrors(k)) errs.push({ type: 'Invalid', field, value: k, detail: m });
    for (const m of labelValueErrors(labels![k])) errs.push({ type: 'Invalid', field, value: labels![k], detail: m });
  }
  return errs;
}

/** ValidateAnnotations: keys are qualified names (lower case), the whole at most 256 KiB. */
function validateAnnotations(annotations: Record<string, string> | undefined, field: string): FieldError[] {
  const errs: FieldError[] = [];
  let size = 0;
  for (const k of keys(annotations)) {
    for (const m of qualifiedNameErrors(k.toLowerCase())) errs.push({ type: 'Invalid', field, value: k, detail: m });
    size += k.length + String(annotations![k]).length;
  }
  if (size > 262144) errs.push({ type: 'TooLong', field, detail: 'may not be more than 262144 bytes' });
  return errs;
}

/** A *metav1.LabelSelector as json.Marshal writes it (its omitempty fields left out; nil is null). */
function goLabelSelector(
  sel:
    | {
        matchLabels?: Record<string, string>;
        matchExpressions?: { key: string; operator: string; values?: string[] }[];
      }
    | undefined,
): GoValue {
  if (!sel) return new GoValue('null');
  const out: Record<string, unknown> = {};
  if (sel.matchLabels && Object.keys(sel.matchLabels).length)
    out.matchLabels = Object.fromEntries(
      Object.keys(sel.matchLabels)
        .sort()
        .map((k) => [k, sel.matchLabels![k]]),
    );
  if (sel.matchExpressions?.length)
    out.matchExpressions = sel.matchExpressions.map((e) =>
      e.values?.length ? { key: e.key, operator: e.operator, values: e.values } : { key: e.key, operator: e.operator },
    );
  return new GoValue(JSON.stringify(out));
}

/** An intstr.IntOrString as field errors print it: its MarshalJSON, `"150%"` or `0`. */
function goIntOrString(v: number | string): GoValue {
  return new GoValue(JSON.stringify(v));
}
export const PERCENT = /^[0-9]+%$/;

/** ValidatePositiveIntOrPercent. */
function validatePositiveIntOrPercent(v: number | string, field: string): FieldError[] {
  if (typeof v === 'string') {
    return PERCENT.test(v)
      ? []
      : [
          {
            type: 'Invalid',
            field,
            value: goIntOrString(v),
            detail: regexError(
              "a valid percent string must be a numeric string followed by an ending '%'",
              '[0-9]+%',
              '1%',
              '93%',
            ),
          },
        ];
  }
  return nonNegative(v, field);
}

/** getIntOrPercentValue: a percent's number, else IntValue() (Atoi of a string, 0 when it is none). */
export function intOrPercentValue(v: number | string): number {
  if (typeof v === 'number') return v;
  if (PERCENT.test(v)) return Number(v.slice(0, -1));
  return /^[+-]?\d+$/.test(v) ? Number(v) : 0;
}

/** ValidateObjectMeta's labels and annotations (the name is validateName's, on create). */
function validateMetaMaps(meta: ObjectMeta | undefined, path: string): FieldError[] {
  return [
    ...validateLabels(meta?.labels, `${path}.labels`),
    ...validateAnnotations(meta?.annotations, `${path}.annotations`),
  ];
}

/** An OwnerReference as encoding/json writes it (field order; the two pointers omitted when unset). */
function ownerRefJSON(r: OwnerReference | undefined): Unstructured {
  const o: Unstructured = {
    apiVersion: r?.apiVersion ?? '',
    kind: r?.kind ?? '',
    name: r?.name ?? '',
    uid: r?.uid ?? '',
  };
  if (r?.controller !== undefined && r?.controller !== null) o.controller = r.controller;
  if (r?.blockOwnerDeletion !== undefined && r?.blockOwnerDeletion !== null)
    o.blockOwnerDeletion = r.blockOwnerDeletion;
  return o;
}

/** ValidateOwnerReferences: each reference whole, and at most one controller. */
function validateOwnerReferences(refs: (OwnerReference | undefined)[] | undefined, path: string): FieldError[] {
  const errs: FieldError[] = [];
  let firstController = '';
  // validateOwnerReference is given the list's path, not the item's: its errors name no index.
  (refs ?? []).forEach((ref) => {
    const apiVersion = ref?.apiVersion ?? '';
    // schema.FromAPIVersionAndKind: an apiVersion ParseGroupVersion refuses (two slashes) or one
    // ending in a slash leaves the version empty.
    if (!apiVersion || apiVersion.split('/').length > 2 || apiVersion.endsWith('/'))
      errs.push({
        type: 'Invalid',
        field: `${path}.apiVersion`,
        value: apiVersion,
        detail: 'version must not be empty',
      });
    if (!ref?.kind) errs.push({ type: 'Invalid', field: `${path}.kind`, value: '', detail: 'must not be empty' });
    if (!ref?.name) errs.push({ type: 'Invalid', field: `${path}.name`, value: '', detail: 'must not be empty' });
    if (!ref?.uid) errs.push({ type: 'Invalid', field: `${path}.uid`, value: '', detail: 'must not be empty' });
    if (ref?.controller === true) {
      const name = `${ref.kind ?? ''}/${ref.name ?? ''}`;
      if (firstController)
        errs.push({
          type: 'Invalid',
          field: path,
          value: new GoValue(JSON.stringify((refs ?? []).map(ownerRefJSON))),
          detail: `Only one reference can have Controller set to true. Found "true" in references for ${firstController} and ${name}`,
        });
      else firstController = name;
    }
  });
  return errs;
}

/** ValidateFinalizers: each a qualified name, and not both orphan and foregroundDeletion. */
function validateFinalizers(finalizers: string[] | undefined, path: string): FieldError[] {
  const errs: FieldError[] = [];
  for (const f of finalizers ?? [])
    for (const m of qualifiedNameErrors(String(f))) errs.push({ type: 'Invalid', field: path, value: f, detail: m });
  if (finalizers?.includes('orphan') && finalizers.includes('foregroundDeletion')) {
    errs.push({
      type: 'Invalid',
      field: path,
      value: new GoValue(JSON.stringify(finalizers)),
      detail: 'finalizer orphan and foregroundDeletion cannot be both set',
    });
  }
  return errs;
}

/** ValidateLabelSelector, and whether LabelSelectorAsSelector would fail on it. */
export function validateLabelSelector(sel: LabelSelector, path: string): { errs: FieldError[]; convertible: boolean } {
  const errs = validateLabels(sel.matchLabels, `${path}.matchLabels`);
  let convertible = errs.length === 0;
  (sel.matchExpressions ?? []).forEach((e: LabelSelectorRequirement, i: number) => {
    const p = `${path}.matchExpressions[${i}]`;
    const values = e.values ?? [];
    const before = errs.length;
    if (e.operator === 'In' || e.operator === 'NotIn') {
      if (!values.length)
        errs.push({
          type: 'Required',
          field: `${p}.values`,
          detail: "must be specified when `operator` is 'In' or 'NotIn'",
        });
    } else if (e.operator === 'Exists' || e.operator === 'DoesNotExist') {
      if (values.length)
        errs.push({
          type: 'Forbidden',
          field: `${p}.values`,
          detail: "may not be specified when `operator` is 'Exists' or 'DoesNotExist'",
        });
    } else
      errs.push({
        type: 'Invalid',
        field: `${p}.operator`,
        value: e.operator ?? '',
        detail: 'not a valid selector operator',
      });
    for (const m of qualifiedNameErrors(e.key ?? ''))
      errs.push({ type: 'Invalid', field: `${p}.key`, value: e.key ?? '', detail: m });
    values.forEach((v, j) => {
      for (const m of labelValueErrors(v))
        errs.push({ type: 'Invalid', field: `${p}.values[${j}]`, value: v, detail: m });
    });
    if (errs.length > before) convertible = false;
  });
  return { errs, convertible };
}

const STANDARD_CONTAINER_RESOURCES = setOf(['cpu', 'memory', 'ephemeral-storage']);

/** Quantity.Cmp of two quantity strings (exact, however far apart their exponents). */
function cmpQuantity(a: string | number, b: string | number): number {
  return cmp(quantityOf(a), quantityOf(b));
}
const isNegativeQuantity = (q: string | number): boolean => quantitySign(quantityOf(q)) < 0;

/** ValidateResourceRequirements (container resources): names, non-negative values, requests ≤ limits. */
function validateResources(res: ResourceRequirements | undefined, path: string): FieldError[] {
  const errs: FieldError[] = [];
  const limits = res?.limits ?? {};
  const requests = res?.requests ?? {};
  const checkOne = (name: string, q: string | number, field: string): void => {
    const qn = qualifiedNameErrors(name);
    for (const m of qn) errs.push({ type: 'Invalid', field, value: name, detail: m });
    if (
      !qn.length &&
      !name.includes('/') &&
      !STANDARD_CONTAINER_RESOURCES.has(name) &&
      !name.startsWith('hugepages-')
    ) {
      errs.push({ type: 'Invalid', field, value: name, detail: 'must be a standard resource for containers' });
    }
    if (isNegativeQuantity(q))
      errs.push({ type: 'Invalid', field, value: String(q), detail: 'must be greater than or equal to 0' });
  };
  for (const name of keys(limits)) checkOne(name, limits[name], `${path}.limits[${name}]`);
  for (const name of keys(requests)) {
    checkOne(name, requests[name], `${path}.requests[${name}]`);
    if (name in limits) {
      const c = cmpQuantity(requests[name], limits[name]);
      // Resources that cannot be overcommitted (hugepages, extended ones) must have requests = limits.
      const overcommit = STANDARD_CONTAINER_RESOURCES.has(name);
      if (c !== 0 && !overcommit)
        errs.push({
          type: 'Invalid',
          field: `${path}.requests`,
          value: String(requests[name]),
          detail: `must be equal to ${name} limit of ${limits[name]}`,
        });
      else if (c > 0)
        errs.push({
          type: 'Invalid',
          field: `${path}.requests`,
          value: String(requests[name]),
          detail: `must be less than or equal to ${name} limit of ${limits[name]}`,
        });
    }
  }
  return errs;
}

const PROTOCOLS = ['SCTP', 'TCP', 'UDP'];

/** validateContainerPorts. */
function validateContainerPorts(ports: ContainerPort[] | undefined, path: string): FieldError[] {
  const errs: FieldError[] = [];
  const names = new Set<string>();
  (ports ?? []).forEach((p, i) => {
    const ip = `${path}[${i}]`;
    if (p.name) {
      const msgs = portNameErrors(p.name);
      if (msgs.length)
        for (const m of msgs) errs.push({ type: 'Invalid', field: `${ip}.name`, value: p.name, detail: m });
      else if (names.has(p.name)) errs.push({ type: 'Duplicate', field: `${ip}.name`, value: p.name });
      else names.add(p.name);
    }
    if (!p.containerPort) errs.push({ type: 'Required', field: `${ip}.containerPort` });
    else
      for (const m of portNumErrors(p.containerPort))
        errs.push({ type: 'Invalid', field: `${ip}.containerPort`, value: p.containerPort, detail: m });
    if (p.hostPort)
      for (const m of portNumErrors(p.hostPort))
        errs.push({ type: 'Invalid', field: `${ip}.hostPort`, value: p.hostPort, detail: m });
    if (p.protocol && !PROTOCOLS.includes(p.protocol)) errs.push(notSupported(`${ip}.protocol`, p.protocol, PROTOCOLS));
  });
  return errs;
}

/** A probe's numbers (validateProbe: non-negative, and successThreshold 1 for liveness and startup). */
function validateProbe(typed: Probe | undefined, path: string, mustBeOne: boolean): FieldError[] {
  if (!typed) return [];
  // The handlers and numbers are read by name, as the unstructured map they arrive as.
  const probe = typed as Unstructured;
  const errs: FieldError[] = [];
  const handlers = ['exec', 'httpGet', 'tcpSocket', 'grpc'].filter((k) => probe[k]);
  if (handlers.length === 0) errs.push({ type: 'Required', field: path, detail: 'must specify a handler type' });
  else if (handlers.length > 1)
    errs.push({
      type: 'Forbidden',
      field: `${path}.${handlers[1]}`,
      detail: 'may not specify more than 1 handler type',
    });
  for (const k of ['initialDelaySeconds', 'timeoutSeconds', 'periodSeconds', 'successThreshold', 'failureThreshold'])
    errs.push(...nonNegative(probe[k], `${path}.${k}`));
  if (mustBeOne && probe.successThreshold !== undefined && probe.successThreshold !== 1)
    errs.push({
      type: 'Invalid',
      field: `${path}.successThreshold`,
      value: probe.successThreshold,
      detail: 'must be 1',
    });
  for (const k of ['httpGet', 'tcpSocket']) {
    const port = (probe[k] as { port?: unknown } | undefined)?.port;
    if (typeof port === 'number')
      for (const m of portNumErrors(port))
        errs.push({ type: 'Invalid', field: `${path}.${k}.port`, value: port, detail: m });
    else if (typeof port === 'string')
      for (const m of portNameErrors(port))
        errs.push({ type: 'Invalid', field: `${path}.${k}.port`, value: port, detail: m });
  }
  return errs;
}

/** validateContainers / validateContainerCommon in the fields the simulator models. */
function validateContainers(containers: Container[] | undefined, path: string, init: boolean): FieldError[] {
  const errs: FieldError[] = [];
  if (!init && !containers?.length) {
    errs.push({ type: 'Required', field: path });
    return errs;
  }
  const seen = new Set<string>();
  (containers ?? []).forEach((c, i) => {
    const p = `${path}[${i}]`;
    if (!c.name) errs.push({ type: 'Required', field: `${p}.name` });
    else
      for (const m of dns1123LabelErrors(c.name))
        errs.push({ type: 'Invalid', field: `${p}.name`, value: c.name, detail: m });
    if (!c.image) errs.push({ type: 'Required', field: `${p}.image` });
    else if (c.image !== c.image.trim())
      errs.push({
        type: 'Invalid',
        field: `${p}.image`,
        value: c.image,
        detail: 'must not have leading or trailing whitespace',
      });
    errs.push(...validateContainerPorts(c.ports, `${p}.ports`));
    (c.env ?? []).forEach((e, j) => {
      if (!e.name) errs.push({ type: 'Required', field: `${p}.env[${j}].name` });
    });
    // (An empty imagePullPolicy, restartPolicy, dnsPolicy, protocol … is defaulted before validation, so never Required here.)
    if (c.imagePullPolicy && !['Always', 'IfNotPresent', 'Never'].includes(c.imagePullPolicy))
      errs.push(notSupported(`${p}.imagePullPolicy`, c.imagePullPolicy, ['Always', 'IfNotPresent', 'Never']));
    errs.push(...validateResources(c.resources, `${p}.resources`));
    if (c.name && seen.has(c.name)) errs.push({ type: 'Duplicate', field: `${p}.name`, value: c.name });
    if (c.name) seen.add(c.name);
    if (!init) {
      errs.push(...validateProbe(c.livenessProbe, `${p}.livenessProbe`, true));
      errs.push(...validateProbe(c.readinessProbe, `${p}.readinessProbe`, false));
      errs.push(...validateProbe(c.startupProbe, `${p}.startupProbe`, true));
    }
  });
  return errs;
}

const TAINT_EFFECTS = ['NoSchedule', 'PreferNoSchedule', 'NoExecute'];

/** ValidateTolerations. */
function validateTolerations(tols: Toleration[] | undefined, path: string): FieldError[] {
  const errs: FieldError[] = [];
  (tols ?? []).forEach((t, i) => {
    const p = `${path}[${i}]`;
    if (t.key)
      for (const m of qualifiedNameErrors(t.key))
        errs.push({ type: 'Invalid', field: `${p}.key`, value: t.key, detail: m });
    if (!t.key && t.operator !== 'Exists')
      errs.push({
        type: 'Invalid',
        field: `${p}.operator`,
        value: t.operator ?? '',
        detail: 'operator must be Exists when `key` is empty, which means "match all values and all keys"',
      });
    if (t.tolerationSeconds !== undefined && t.effect !== 'NoExecute')
      errs.push({
        type: 'Invalid',
        field: `${p}.effect`,
        value: t.effect ?? '',
        detail: "effect must be 'NoExecute' when `tolerationSeconds` is set",
      });
    if (!t.operator || t.operator === 'Equal') {
      const msgs = labelValueErrors(t.value ?? '');
      if (msgs.length)
        errs.push({ type: 'Invalid', field: `${p}.operator`, value: t.value ?? '', detail: msgs.join(';') });
    } else if (t.operator === 'Exists') {
      if (t.value)
        errs.push({
          type: 'Invalid',
          field: `${p}.operator`,
          value: t,
          detail: "value must be empty when `operator` is 'Exists'",
        });
    } else errs.push(notSupported(`${p}.operator`, t.operator, ['Equal', 'Exists']));
    if (t.effect && !TAINT_EFFECTS.includes(t.effect)) errs.push(notSupported(`${p}.effect`, t.effect, TAINT_EFFECTS));
  });
  return errs;
}

/** ValidatePodSpec in the fields the simulator models. */
function validatePodSpec(spec: PodSpec | undefined, path: string): FieldError[] {
  const s: Partial<PodSpec> = spec ?? {};
  const errs: FieldError[] = [];
  errs.push(...validateContainers(s.containers, `${path}.containers`, false));
  errs.push(...validateContainers(s.initContainers, `${path}.initContainers`, true));
  const names = new Set((s.containers ?? []).map((c) => c.name));
  (s.initContainers ?? []).forEach((c, i) => {
    if (c.name && names.has(c.name))
      errs.push({ type: 'Duplicate', field: `${path}.initContainers[${i}].name`, value: c.name });
  });
  if (s.restartPolicy && !['Always', 'OnFailure', 'Never'].includes(s.restartPolicy))
    errs.push(notSupported(`${path}.restartPolicy`, s.restartPolicy, ['Always', 'OnFailure', 'Never']));
  const dns = ['ClusterFirstWithHostNet', 'ClusterFirst', 'Default', 'None'];
  if (s.dnsPolicy && !dns.includes(s.dnsPolicy)) errs.push(notSupported(`${path}.dnsPolicy`, s.dnsPolicy, dns));
  errs.push(...validateLabels(s.nodeSelector, `${path}.nodeSelector`));
  if (s.serviceAccountName)
    for (const m of dns1123SubdomainErrors(s.serviceAccountName))
      errs.push({ type: 'Invalid', field: `${path}.serviceAccountName`, value: s.serviceAccountName, detail: m });
  if (s.nodeName)
    for (const m of dns1123SubdomainErrors(s.nodeName))
      errs.push({ type: 'Invalid', field: `${path}.nodeName`, value: s.nodeName, detail: m });
  if (s.activeDeadlineSeconds !== undefined && (s.activeDeadlineSeconds < 1 || s.activeDeadlineSeconds > 2147483647)) {
    errs.push({
      type: 'Invalid',
      field: `${path}.activeDeadlineSeconds`,
      value: s.activeDeadlineSeconds,
      detail: inclusiveRangeError(1, 2147483647),
    });
  }
  errs.push(...validateTolerations(s.tolerations, `${path}.tolerations`));
  return errs;
}

/** ValidatePodTemplateSpecForReplicaSet: labels the selector matches, a valid pod spec, restartPolicy Always. */
function validateTemplateForReplicaSet(spec: Partial<ReplicaSetSpec>, selectorOk: boolean): FieldError[] {
  const errs: FieldError[] = [];
  const t = spec.template;
  if (!t) return [{ type: 'Required', field: 'spec.template' }];
  const labels = t.metadata?.labels ?? {};
  const sel = spec.selector;
  const empty =
    (sel && !sel.matchLabels && !sel.matchExpressions?.length) ||
    (sel && !Object.keys(sel.matchLabels ?? {}).length && !sel.matchExpressions?.length);
  // A nil selector converts to labels.Nothing(), which matches no labels; an empty one to Everything().
  if (selectorOk && (!sel || (!empty && !labelSelectorMatches(sel, labels)))) {
    errs.push({
      type: 'Invalid',
      field: 'spec.template.metadata.labels',
      value: labels,
      detail: '`selector` does not match template `labels`',
    });
  }
  errs.push(...validateMetaMaps(t.metadata, 'spec.template.metadata'));
  errs.push(...validatePodSpec(t.spec, 'spec.template.spec'));
  const rp = t.spec?.restartPolicy;
  if (rp && rp !== 'Always') errs.push(notSupported('spec.template.spec.restartPolicy', rp, ['Always']));
  if (t.spec?.activeDeadlineSeconds !== undefined)
    errs.push({
      type: 'Invalid',
      field: 'spec.template.spec.activeDeadlineSeconds',
      value: t.spec.activeDeadlineSeconds,
      detail: 'activeDeadlineSeconds in ReplicaSet is not Supported',
    });
  return errs;
}

/** The selector checks ValidateDeploymentSpec and ValidateReplicaSetSpec share, then the template's. */
function validateSelectorAndTemplate(spec: Partial<ReplicaSetSpec>, errs: FieldError[]): void {
  let convertible = true;
  if (!spec.selector) errs.push({ type: 'Required', field: 'spec.selector' });
  else {
    const r = validateLabelSelector(spec.selector, 'spec.selector');
    errs.push(...r.errs);
    convertible = r.convertible;
    if (!Object.keys(spec.selector.matchLabels ?? {}).length && !(spec.selector.matchExpressions ?? []).length) {
      errs.push({
        type: 'Invalid',
        field: 'spec.selector',
        value: goLabelSelector(spec.selector),
        detail: 'empty selector is invalid for deployment',
      });
    }
  }
  if (!convertible)
    errs.push({
      type: 'Invalid',
      field: 'spec.selector',
      value: goLabelSelector(spec.selector),
      detail: 'invalid label selector',
    });
  else errs.push(...validateTemplateForReplicaSet(spec, true));
}

/** ValidateDeploymentStrategy. */
function validateStrategy(st: DeploymentStrategy | undefined): FieldError[] {
  const s: DeploymentStrategy = st ?? {};
  const errs: FieldError[] = [];
  if (s.type === 'Recreate') {
    if (s.rollingUpdate)
      errs.push({
        type: 'Forbidden',
        field: 'spec.strategy.rollingUpdate',
        detail: "may not be specified when strategy `type` is 'Recreate'",
      });
  } else if (s.type === 'RollingUpdate') {
    const ru = s.rollingUpdate;
    if (!ru)
      errs.push({
        type: 'Required',
        field: 'spec.strategy.rollingUpdate',
        detail: 'this should be defaulted and never be nil',
      });
    else {
      const mu = ru.maxUnavailable ?? '25%';
      const ms = ru.maxSurge ?? '25%';
      errs.push(...validatePositiveIntOrPercent(mu, 'spec.strategy.rollingUpdate.maxUnavailable'));
      errs.push(...validatePositiveIntOrPercent(ms, 'spec.strategy.rollingUpdate.maxSurge'));
      if (intOrPercentValue(mu) === 0 && intOrPercentValue(ms) === 0)
        errs.push({
          type: 'Invalid',
          field: 'spec.strategy.rollingUpdate.maxUnavailable',
          value: goIntOrString(mu),
          detail: 'may not be 0 when `maxSurge` is 0',
        });
      if (typeof mu === 'string' && PERCENT.test(mu) && intOrPercentValue(mu) > 100)
        errs.push({
          type: 'Invalid',
          field: 'spec.strategy.rollingUpdate.maxUnavailable',
          value: goIntOrString(mu),
          detail: 'must not be greater than 100%',
        });
    }
  } else {
    // The internal *apps.DeploymentStrategy, as json.Marshal writes a struct without json tags.
    const ru = s.rollingUpdate
      ? { MaxUnavailable: s.rollingUpdate.maxUnavailable ?? 0, MaxSurge: s.rollingUpdate.maxSurge ?? 0 }
      : null;
    errs.push(
      notSupported('spec.strategy', new GoValue(JSON.stringify({ Type: s.type ?? '', RollingUpdate: ru })), [
        'Recreate',
        'RollingUpdate',
      ]),
    );
  }
  return errs;
}

/** ValidateDeploymentSpec. */
function validateDeploymentSpec(spec: Partial<DeploymentSpec>): FieldError[] {
  const errs: FieldError[] = [...nonNegative(spec.replicas, 'spec.replicas')];
  validateSelectorAndTemplate(spec, errs);
  errs.push(...validateStrategy(spec.strategy));
  errs.push(...nonNegative(spec.minReadySeconds, 'spec.minReadySeconds'));
  errs.push(...nonNegative(spec.revisionHistoryLimit, 'spec.revisionHistoryLimit'));
  if (typeof spec.progressDeadlineSeconds === 'number') {
    errs.push(...nonNegative(spec.progressDeadlineSeconds, 'spec.progressDeadlineSeconds'));
    if (spec.progressDeadlineSeconds <= (spec.minReadySeconds ?? 0))
      errs.push({
        type: 'Invalid',
        field: 'spec.progressDeadlineSeconds',
        value: spec.progressDeadlineSeconds,
        detail: 'must be greater than minReadySeconds',
      });
  }
  return errs;
}

/** ValidateReplicaSetSpec. */
function validateReplicaSetSpec(spec: Partial<ReplicaSetSpec>): FieldError[] {
  const errs: FieldError[] = [
    ...nonNegative(spec.replicas, 'spec.replicas'),
    ...nonNegative(spec.minReadySeconds, 'spec.minReadySeconds'),
  ];
  validateSelectorAndTemplate(spec, errs);
  return errs;
}

const SERVICE_TYPES = ['ClusterIP', 'ExternalName', 'LoadBalancer', 'NodePort'];
const IPV4 = /^(25[0-5]|2[0-4]\d|1\d\d|[1-9]?\d)(\.(25[0-5]|2[0-4]\d|1\d\d|[1-9]?\d)){3}$/;

/** ValidateService in the fields the simulator models, with the NodePort allocator's range check. */
function validateServiceSpec(spec: ServiceSpec): FieldError[] {
  const errs: FieldError[] = [];
  const ports = spec.ports ?? [];
  const headless = spec.clusterIP === 'None';
  if (!ports.length && !headless && spec.type !== 'ExternalName') errs.push({ type: 'Required', field: 'spec.ports' });
  const names = new Set<string>();
  ports.forEach((p, i) => {
    const pp = `spec.ports[${i}]`;
    if (ports.length > 1 && !p.name) errs.push({ type: 'Required', field: `${pp}.name` });
    else if (p.name) {
      for (const m of dns1123LabelErrors(p.name))
        errs.push({ type: 'Invalid', field: `${pp}.name`, value: p.name, detail: m });
      if (names.has(p.name)) errs.push({ type: 'Duplicate', field: `${pp}.name`, value: p.name });
      else names.add(p.name);
    }
    for (const m of portNumErrors(p.port ?? 0))
      errs.push({ type: 'Invalid', field: `${pp}.port`, value: p.port ?? 0, detail: m });
    if (p.protocol && !PROTOCOLS.includes(p.protocol)) errs.push(notSupported(`${pp}.protocol`, p.protocol, PROTOCOLS));
    const tp = p.targetPort;
    if (typeof tp === 'number')
      for (const m of portNumErrors(tp))
        errs.push({ type: 'Invalid', field: `${pp}.targetPort`, value: tp, detail: m });
    else if (typeof tp === 'string')
      for (const m of portNameErrors(tp))
        errs.push({ type: 'Invalid', field: `${pp}.targetPort`, value: tp, detail: m });
  });
  errs.push(...validateLabels(spec.selector, 'spec.selector'));
  if (spec.sessionAffinity && !['ClientIP', 'None'].includes(spec.sessionAffinity))
    errs.push(notSupported('spec.sessionAffinity', spec.sessionAffinity, ['ClientIP', 'None']));
  if (spec.clusterIP && !headless && !IPV4.test(spec.clusterIP))
    errs.push({
      type: 'Invalid',
      field: 'spec.clusterIPs[0]',
      value: spec.clusterIP,
      detail: 'must be a valid IP address (e.g. 10.9.8.7 or 2001:db8::ffff)',
    });
  if (spec.type && !SERVICE_TYPES.includes(spec.type)) errs.push(notSupported('spec.type', spec.type, SERVICE_TYPES));
  ports.forEach((p, i) => {
    if (spec.type === 'ClusterIP' && p.nodePort)
      errs.push({
        type: 'Forbidden',
        field: `spec.ports[${i}].nodePort`,
        detail: "may not be used when `type` is 'ClusterIP'",
      });
    else if (p.nodePort && (p.nodePort < 30000 || p.nodePort > 32767))
      errs.push({
        type: 'Invalid',
        field: `spec.ports[${i}].nodePort`,
        value: p.nodePort,
        detail: 'provided port is not in the valid range. The range of valid ports is 30000-32767',
      });
  });
  const seenNode = new Set<string>();
  const seenPort = new Set<string>();
  ports.forEach((p, i) => {
    if (p.nodePort) {
      const k = `${p.protocol}/${p.nodePort}`;
      if (seenNode.has(k)) errs.push({ type: 'Duplicate', field: `spec.ports[${i}].nodePort`, value: p.nodePort });
      seenNode.add(k);
    }
    const k = `${p.protocol}/${p.port}`;
    if (seenPort.has(k))
      errs.push({
        type: 'Duplicate',
        field: `spec.ports[${i}]`,
        value: new GoValue(
          JSON.stringify({
            Name: '',
            Protocol: p.protocol ?? '',
            AppProtocol: null,
            Port: p.port ?? 0,
            TargetPort: 0,
            NodePort: 0,
          }),
        ),
      });
    seenPort.add(k);
  });
  return errs;
}

/** validateNodeTaints and the node's status quantities. */
function validateNode(obj: Node): FieldError[] {
  const errs: FieldError[] = [];
  const seen = new Set<string>();
  (obj.spec?.taints ?? []).forEach((t: Taint, i: number) => {
    const p = `spec.taints[${i}]`;
    for (const m of qualifiedNameErrors(t.key ?? ''))
      errs.push({ type: 'Invalid', field: `${p}.key`, value: t.key ?? '', detail: m });
    const vm = labelValueErrors(t.value ?? '');
    if (vm.length) errs.push({ type: 'Invalid', field: `${p}.value`, value: t.value ?? '', detail: vm.join(';') });
    if (!t.effect) errs.push({ type: 'Required', field: `${p}.effect` });
    else if (!TAINT_EFFECTS.includes(t.effect)) errs.push(notSupported(`${p}.effect`, t.effect, TAINT_EFFECTS));
    const k = `${t.effect}\u0000${t.key}`;
    if (seen.has(k))
      errs.push({
        type: 'Duplicate',
        field: p,
        value: new GoValue(
          JSON.stringify({ Key: t.key ?? '', Value: t.value ?? '', Effect: t.effect ?? '', TimeAdded: null }),
        ),
        detail: 'taints must be unique by key and effect pair',
      });
    seen.add(k);
  });
  for (const part of ['capacity', 'allocatable'] as const) {
    const rl = obj.status?.[part] ?? {};
    for (const k of keys(rl))
      if (isNegativeQuantity(rl[k]))
        errs.push({
          type: 'Invalid',
          field: `status.${part}.${k}`,
          value: String(rl[k]),
          detail: 'must be greater than or equal to 0',
        });
  }
  return errs;
}

/** The built-in validation of each resource (ValidateDeployment, ValidatePod … in the fields the simulator models). */
export function validateBuiltin(resource: string, raw: Unstructured, rawOld: Unstructured | undefined): FieldError[] {
  // Every kind is read through the fields ObjectMeta and the specs below share; each case reads its own spec.
  const obj = raw as { metadata?: ObjectMeta; spec?: unknown };
  const old = rawOld as typeof obj | undefined;
  const errs: FieldError[] = [];
  if (!old) errs.push(...validateName(resource, obj.metadata?.name ?? ''));
  if (
    RESOURCES_WITH_META.has(resource) &&
    (!old || obj.metadata?.labels !== old.metadata?.labels || obj.metadata?.annotations !== old.metadata?.annotations)
  ) {
    errs.push(...validateMetaMaps(obj.metadata, 'metadata'));
  }
  // ObjectMeta's owner references and finalizers (every kind's, on create and update: validateCommonFields).
  const m = obj.metadata;
  if (m && (!old || m.ownerReferences !== old.metadata?.ownerReferences || m.finalizers !== old.metadata?.finalizers)) {
    if (m.ownerReferences) errs.push(...validateOwnerReferences(m.ownerReferences, 'metadata.ownerReferences'));
    if (m.finalizers) errs.push(...validateFinalizers(m.finalizers, 'metadata.finalizers'));
  }
  // ValidateObjectMetaAccessorUpdate: the uid is immutable (a patch may try; a PUT's is a precondition).
  if (old && m && m.uid !== old.metadata?.uid)
    errs.push({ type: 'Invalid', field: 'metadata.uid', value: m.uid, detail: 'field is immutable' });
  // ValidatePriorityClass is a part of its own (priority-class-validation.ts), registered as this
  // resource's validator by whoever can send a PriorityClass; the API server's bootstrap classes need none.
  if (resource === 'priorityclasses') return errs;
  // ValidatePodDisruptionBudget likewise (pdb-validation.ts): only kubectl writes a PodDisruptionBudget.
  // A status write carries the stored spec itself, validated when it was stored.
  if (old && obj.spec === old.spec && resource !== 'nodes') return errs;
  switch (resource) {
    case 'pods':
      errs.push(...validatePodSpec((obj as Pod).spec, 'spec'));
      if (old && !podSpecUpdateAllowed((old as Pod).spec, (obj as Pod).spec)) {
        errs.push({ type: 'Forbidden', field: 'spec', detail: POD_UPDATE_FORBIDDEN });
      }
      break;
    case 'deployments': {
      const spec: Partial<DeploymentSpec> = (obj.spec as DeploymentSpec | undefined) ?? {};
      errs.push(...validateDeploymentSpec(spec));
      if (old && !deepEqual((old.spec as DeploymentSpec | undefined)?.selector, spec.selector)) {
        errs.push({
          type: 'Invalid',
          field: 'spec.selector',
          value: goLabelSelector(spec.selector),
          detail: 'field is immutable',
        });
      }
      break;
    }
    case 'replicasets': {
      const spec: Partial<ReplicaSetSpec> = (obj.spec as ReplicaSetSpec | undefined) ?? {};
      errs.push(...validateReplicaSetSpec(spec));
      if (old && !deepEqual((old.spec as ReplicaSetSpec | undefined)?.selector, spec.selector)) {
        errs.push({
          type: 'Invalid',
          field: 'spec.selector',
          value: goLabelSelector(spec.selector),
          detail: 'field is immutable',
        });
      }
      break;
    }
    case 'services':
      errs.push(...validateServiceSpec((obj.spec as ServiceSpec | undefined) ?? {}));
      break;
    case 'nodes':
      errs.push(...validateNode(obj as Node));
      break;
  }
  return errs;
}

/** The kinds whose labels and annotations are checked here (ValidateObjectMeta). */
const RESOURCES_WITH_META = setOf([
  'pods',
  'deployments',
  'replicasets',
  'services',
  'namespaces',
  'nodes',
  'priorityclasses',
  'poddisruptionbudgets',
]);
