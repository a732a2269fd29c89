// Authorization: RBAC over the identities' rules and the node authorizer's NodeRestriction (an access
// review's answer, accessAllowed, is in access-review.ts: only kubectl asks for one).
import type { Identity, PolicyRule } from '../api/identity.ts';
import type { ApiRequest, Verb } from '../api/request.ts';
import { RESOURCES, namesOf, qualifiedResource } from '../api/resources.ts';
import type { ApiHost } from './server.ts';
import { type Status, statusError } from '../api/status.ts';
import { storeGet } from './store.ts';
import type { KObject } from '../api/request.ts';
import { ruleAllowsCached } from './rbac-cache.ts';

/** Whether any of the rules allows `verb` on `res` (a resource or resource/subresource). */
export function ruleAllows(rules: PolicyRule[], verb: Verb, res: string): boolean {
  return rules.some(
    (r) =>
      ((r.verbs as string[]).includes('*') || (r.verbs as string[]).includes(verb)) &&
      ((r.resources as string[]).includes('*') || (r.resources as string[]).includes(res)),
  );
}

/** 403 Forbidden, worded like the RBAC authorizer. */
function forbidden(id: Identity, req: ApiRequest, reason?: string): Status {
  const res = req.subresource ? `${req.resource}/${req.subresource}` : req.resource;
  const group = RESOURCES[req.resource]?.group ?? '';
  const scope =
    RESOURCES[req.resource]?.namespaced && req.namespace
      ? `in the namespace "${req.namespace}"`
      : 'at the cluster scope';
  const who = reason ?? `User "${id.user}" cannot ${req.verb} resource "${res}" in API group "${group}" ${scope}`;
  const subject = req.name ? `${qualifiedResource(req.resource)} "${req.name}"` : qualifiedResource(req.resource);
  return statusError(403, 'Forbidden', `${subject} is forbidden: ${who}`, {
    name: req.name,
    group,
    kind: req.resource,
  });
}

/** RBAC plus the node authorizer's NodeRestriction idea: a kubelet writes only its own node, lease and pods. */
export function authorize(h: ApiHost, id: Identity, req: ApiRequest): Status | undefined {
  const res = req.subresource ? `${req.resource}/${req.subresource}` : req.resource;
  if (!ruleAllowsCached(id.rules, req.verb, res, ruleAllows)) return forbidden(id, req);
  if (id.node && req.verb !== 'get' && req.verb !== 'list' && req.verb !== 'watch') {
    const node = id.node;
    const deny = (why: string) => forbidden(id, req, why);
    if (req.resource === 'nodes' && (req.name ?? (req.body as KObject | undefined)?.metadata?.name) !== node) {
      return deny(`node "${node}" is not allowed to modify node "${req.name ?? ''}"`);
    }
    if (
      req.resource === 'leases' &&
      (req.namespace !== 'kube-node-lease' || (req.name ?? (req.body as KObject)?.metadata?.name) !== node)
    ) {
      return deny(`node "${node}" is not allowed to modify lease "${req.name ?? ''}"`);
    }
    if (req.resource === 'pods') {
      if (req.verb === 'create') {
        const nn = ((req.body as KObject)?.spec as { nodeName?: string } | undefined)?.nodeName;
        if (nn !== node) return deny(`node "${node}" can only create pods with spec.nodeName set to itself`);
      } else {
        const cur = storeGet(h.store, 'pods', namesOf('pods', req.namespace, req.name ?? '').key);
        if (cur && (cur.spec as { nodeName?: string })?.nodeName !== node) {
          return deny(`node "${node}" can only update pod status for pods with spec.nodeName set to itself`);
        }
      }
    }
  }
  return undefined;
}
