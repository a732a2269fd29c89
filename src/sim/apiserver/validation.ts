// Built-in validation (ValidateObjectMeta's names, ValidatePodUpdate, ValidateDeployment … in
// miniature) and the extra validators a cluster adds.
import { deepEqual } from '../names.ts';
import type { ApiServerConfig } from './config.ts';
import type { Obj } from './request.ts';
import { labelSelectorMatches } from '../util/labels.ts';
import { type FieldError, goLabelSelector } from './status.ts';
import type { KObject } from './store.ts';

/** A validator: field errors for a new object (and the old one on update). */
export type Validator = (obj: KObject, old: KObject | undefined) => FieldError[];

/** Add a validator for a resource to one API server (runs after the built-in ones). */
export function registerValidator(config: ApiServerConfig, resource: string, v: Validator): void {
  (config.validators[resource] ??= []).push(v);
}

/**
 * IsDNS1123Subdomain's pattern, `[a-z0-9]([-a-z0-9]*[a-z0-9])?(\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*`,
 * checked character by character: every create's name goes through it, and the regular expression
 * costs several times as much.
 */
export function isDNS1123Subdomain(s: string): boolean {
  if (s.length === 0) return false;
  let prev = 46; // the start is like a '.': a label follows
  for (let i = 0; i < s.length; i++) {
    const c = s.charCodeAt(i);
    if ((c >= 97 && c <= 122) || (c >= 48 && c <= 57)) prev = c;
    else if (c === 45 && prev !== 46) prev = c; // '-' inside a label, not at its start
    else if (c === 46 && prev !== 46 && prev !== 45) prev = c; // '.' after a label that ends alphanumeric
    else return false;
  }
  return prev !== 46 && prev !== 45;
}
const DNS1123_LABEL = /^[a-z0-9]([-a-z0-9]*[a-z0-9])?$/;
const DNS1035_LABEL = /^[a-z]([-a-z0-9]*[a-z0-9])?$/;

/** ValidateObjectMeta's name check per resource kind of name. */
export function validateName(resource: string, name: string): FieldError[] {
  if (resource === 'namespaces') {
    if (name.length > 63) return [{ type: 'Invalid', field: 'metadata.name', value: name, detail: 'must be no more than 63 characters' }];
    if (!DNS1123_LABEL.test(name)) return [{ type: 'Invalid', field: 'metadata.name', value: name, detail: "a lowercase RFC 1123 label must consist of lower case alphanumeric characters or '-', and must start and end with an alphanumeric character (e.g. 'my-name',  or '123-abc', regex used for validation is '[a-z0-9]([-a-z0-9]*[a-z0-9])?')" }];
    return [];
  }
  if (resource === 'services') {
    if (!DNS1035_LABEL.test(name) || name.length > 63) return [{ type: 'Invalid', field: 'metadata.name', value: name, detail: "a DNS-1035 label must consist of lower case alphanumeric characters or '-', start with an alphabetic character, and end with an alphanumeric character (e.g. 'my-name',  or 'abc-123', regex used for validation is '[a-z]([-a-z0-9]*[a-z0-9])?')" }];
    return [];
  }
  if (name.length > 253) return [{ type: 'Invalid', field: 'metadata.name', value: name, detail: 'must be no more than 253 characters' }];
  if (!isDNS1123Subdomain(name)) return [{ type: 'Invalid', field: 'metadata.name', value: name, detail: "a lowercase RFC 1123 subdomain must consist of lower case alphanumeric characters, '-' or '.', and must start and end with an alphanumeric character (e.g. 'example.com', regex used for validation is '[a-z0-9]([-a-z0-9]*[a-z0-9])?(\\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*')" }];
  return [];
}

/** ValidatePodUpdate's message when a pod's spec changes beyond the mutable fields. */
export const POD_UPDATE_FORBIDDEN = 'pod updates may not change fields other than `spec.containers[*].image`,`spec.initContainers[*].image`,`spec.activeDeadlineSeconds`,`spec.tolerations` (only additions to existing tolerations),`spec.terminationGracePeriodSeconds` (allow it to be set to 1 if it was previously negative)';

/** Whether a pod spec update only touches what Kubernetes allows (images, activeDeadlineSeconds, added tolerations). */
export function podSpecUpdateAllowed(oldSpec: Obj | undefined, newSpec: Obj | undefined): boolean {
  if (deepEqual(oldSpec, newSpec)) return true;
  if (!oldSpec || !newSpec) return false;
  const strip = (spec: Obj): Obj => {
    const c = { ...spec };
    delete c.activeDeadlineSeconds;
    delete c.tolerations;
    for (const k of ['containers', 'initContainers']) if (Array.isArray(c[k])) c[k] = c[k].map((x: Obj) => ({ ...x, image: undefined }));
    return c;
  };
  if (!deepEqual(strip(oldSpec), strip(newSpec))) return false;
  const oldTol: Obj[] = oldSpec.tolerations ?? [];
  const newTol: Obj[] = newSpec.tolerations ?? [];
  return oldTol.every((t) => newTol.some((n) => deepEqual(t, n)));
}

function intOrPercentValue(v: unknown): number {
  if (typeof v === 'number') return v;
  if (typeof v === 'string') return parseInt(v.replace('%', ''), 10) || 0;
  return 0;
}

function validatePodSpec(spec: Obj | undefined, path: string): FieldError[] {
  const errs: FieldError[] = [];
  if (!spec || !Array.isArray(spec.containers) || spec.containers.length === 0) {
    errs.push({ type: 'Required', field: `${path}.containers` });
    return errs;
  }
  const seen = new Set<string>();
  spec.containers.forEach((c: Obj, i: number) => {
    if (!c.name) errs.push({ type: 'Required', field: `${path}.containers[${i}].name` });
    else if (seen.has(c.name)) errs.push({ type: 'Duplicate', field: `${path}.containers[${i}].name`, value: c.name });
    seen.add(c.name);
    if (!c.image) errs.push({ type: 'Required', field: `${path}.containers[${i}].image` });
  });
  return errs;
}

function validateReplicas(v: unknown, field: string): FieldError[] {
  return typeof v === 'number' && v < 0 ? [{ type: 'Invalid', field, value: v, detail: 'must be greater than or equal to 0' }] : [];
}

function validateSelectorMatchesTemplate(spec: Obj, errs: FieldError[]): void {
  if (!spec.selector || (!spec.selector.matchLabels && !spec.selector.matchExpressions)) {
    errs.push({ type: 'Required', field: 'spec.selector' });
    return;
  }
  const labels = spec.template?.metadata?.labels ?? {};
  if (!labelSelectorMatches(spec.selector, labels)) {
    errs.push({ type: 'Invalid', field: 'spec.template.metadata.labels', value: labels, detail: '`selector` does not match template `labels`' });
  }
}

/** The built-in validation of each resource (ValidateDeployment, ValidatePod … in miniature). */
export function validateBuiltin(resource: string, obj: Obj, old: Obj | undefined): FieldError[] {
  const errs: FieldError[] = [];
  if (!old) errs.push(...validateName(resource, obj.metadata?.name ?? ''));
  switch (resource) {
    case 'pods':
      // A status write carries the stored spec itself, validated when it was stored.
      if (old && obj.spec === old.spec) break;
      errs.push(...validatePodSpec(obj.spec, 'spec'));
      if (old && !podSpecUpdateAllowed(old.spec, obj.spec)) {
        errs.push({ type: 'Forbidden', field: 'spec', detail: POD_UPDATE_FORBIDDEN });
      }
      break;
    case 'deployments': {
      const spec = obj.spec ?? {};
      errs.push(...validateReplicas(spec.replicas, 'spec.replicas'));
      validateSelectorMatchesTemplate(spec, errs);
      const ru = spec.strategy?.rollingUpdate;
      if (spec.strategy?.type === 'RollingUpdate' && ru && intOrPercentValue(ru.maxUnavailable) === 0 && intOrPercentValue(ru.maxSurge) === 0) {
        errs.push({ type: 'Invalid', field: 'spec.strategy.rollingUpdate.maxUnavailable', value: ru.maxUnavailable, detail: 'may not be 0 when `maxSurge` is 0' });
      }
      errs.push(...validatePodSpec(spec.template?.spec, 'spec.template.spec'));
      if (old && !deepEqual(old.spec?.selector, spec.selector)) {
        errs.push({ type: 'Invalid', field: 'spec.selector', value: goLabelSelector(spec.selector), detail: 'field is immutable' });
      }
      break;
    }
    case 'replicasets': {
      const spec = obj.spec ?? {};
      errs.push(...validateReplicas(spec.replicas, 'spec.replicas'));
      validateSelectorMatchesTemplate(spec, errs);
      break;
    }
  }
  return errs;
}
