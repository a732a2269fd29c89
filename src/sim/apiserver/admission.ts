// The admission stage: defaulting, then the mutating/validating plugins in order, then validation.
import type { Identity } from '../api/identity.ts';
import type { AdmissionAttributes, AdmissionPlugin, ApiServerConfig } from './config.ts';
import { applyDefaults } from './defaults.ts';
import type { Stage } from '../request-log.ts';
import type { ApiRequest } from '../api/request.ts';
import type { Unstructured } from '../api/unstructured.ts';
import { RESOURCES, namesOf } from '../api/resources.ts';
import type { ApiHost } from './server.ts';
import { type Status, invalid, statusError } from '../api/status.ts';
import { storeGet } from './store.ts';
import type { KObject } from '../api/request.ts';
import { SYSTEM_PRIORITY_CLASSES } from './priority-class.ts';

/** Register (or replace by name) an admission plugin of one API server; plugins run in registration order. */
export function registerAdmissionPlugin(config: ApiServerConfig, p: AdmissionPlugin): void {
  const i = config.admission.findIndex((x) => x.name === p.name);
  if (i >= 0) config.admission[i] = p;
  else config.admission.push(p);
}

/** Names of an API server's admission plugins, in order. */
export function admissionPluginNames(config: ApiServerConfig): string[] {
  return config.admission.map((p) => p.name);
}

/** The namespaces NamespaceLifecycle never lets go (its Register: default, kube-system, kube-public). */
export const IMMORTAL_NAMESPACES: readonly string[] = ['default', 'kube-system', 'kube-public'];

/** NamespaceLifecycle: objects go only into namespaces that exist, and the immortal namespaces stay (every API server has it). */
export const namespaceLifecycle: AdmissionPlugin = {
  name: 'NamespaceLifecycle',
  admit(a, h) {
    if (a.operation === 'DELETE' && a.resource === 'namespaces' && IMMORTAL_NAMESPACES.includes(a.name ?? '')) {
      return statusError(403, 'Forbidden', `namespaces "${a.name}" is forbidden: this namespace may not be deleted`, {
        name: a.name,
        kind: 'namespaces',
      });
    }
    if (a.operation !== 'CREATE' || !RESOURCES[a.resource]?.namespaced || a.subresource) return undefined;
    const ns = a.namespace ?? 'default';
    if (!storeGet(h.store, 'namespaces', namesOf('namespaces', undefined, ns).key)) {
      return statusError(404, 'NotFound', `namespaces "${ns}" not found`, { name: ns, kind: 'namespaces' });
    }
    return undefined;
  },
};
/**
 * The admission chain of a DELETE, with no object: handlers/delete.go runs it before the registry
 * reads the object, so a refusal comes first (NamespaceLifecycle's immortal namespaces).
 */
export function admitDelete(h: ApiHost, config: ApiServerConfig, id: Identity, req: ApiRequest): Status | undefined {
  const attrs: AdmissionAttributes = {
    operation: 'DELETE',
    resource: req.resource,
    subresource: req.subresource,
    namespace: req.namespace,
    name: req.name,
    user: id.user,
  };
  for (const p of config.admission) {
    if (h.apiServer.disabledAdmission.includes(p.name)) continue;
    const r = p.admit(attrs, h);
    if (r && (r as Status).kind === 'Status') return r as Status;
  }
  return undefined;
}

/**
 * A system class as the bootstrap creates it (its name, its value, no globalDefault, the default
 * policy): the one PriorityClass the core writes, valid without ValidatePriorityClass.
 */
export function isBootstrapPriorityClass(obj: Unstructured, old: Unstructured | undefined): boolean {
  const name = (obj as KObject).metadata?.name ?? '';
  return (
    !old &&
    Object.hasOwn(SYSTEM_PRIORITY_CLASSES, name) &&
    obj.value === SYSTEM_PRIORITY_CLASSES[name] &&
    !obj.globalDefault &&
    (obj.preemptionPolicy ?? 'PreemptLowerPriority') === 'PreemptLowerPriority'
  );
}

/** Run defaulting, admission plugins and validation; returns the object to store or a refusal. */
export function admitAndValidate(
  h: ApiHost,
  config: ApiServerConfig,
  id: Identity,
  req: ApiRequest,
  obj: Unstructured,
  old: Unstructured | undefined,
  defaults: boolean,
): { obj: Unstructured } | { status: Status; stage: Stage } {
  if (defaults) obj = applyDefaults(req.resource, obj, h);
  // One attributes record for the chain (each plugin sees the object as the previous one left it).
  const attrs: AdmissionAttributes = {
    operation: old ? 'UPDATE' : 'CREATE',
    resource: req.resource,
    subresource: req.subresource,
    namespace: req.namespace,
    name: (obj as KObject).metadata?.name,
    object: obj,
    oldObject: old,
    user: id.user,
  };
  for (const p of config.admission) {
    if (h.apiServer.disabledAdmission.includes(p.name)) continue;
    const r = p.admit(attrs, h);
    if (r && (r as Status).kind === 'Status') return { status: r as Status, stage: 'admission' };
    if (r) attrs.object = obj = r as Unstructured;
  }
  // Without the request checks installed, only what the components write reaches here (see request-checks.ts).
  const errs = config.checks?.validate(req.resource, obj, old) ?? [];
  if (req.resource === 'priorityclasses' && !config.validators.priorityclasses && !isBootstrapPriorityClass(obj, old)) {
    throw new Error(
      'this request needs the PriorityClass validation (apiserver/priority-class-validation.ts), registered before the first PriorityClass a client writes',
    );
  }
  for (const v of config.validators[req.resource] ?? []) errs.push(...v(obj, old));
  if (errs.length)
    return { status: invalid(req.resource, (obj as KObject).metadata?.name ?? '', errs), stage: 'validation' };
  return { obj };
}
