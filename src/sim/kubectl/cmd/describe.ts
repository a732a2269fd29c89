// kubectl describe (pkg/cmd/describe): finds the objects and what each describer needs beside them
// (events, owned ReplicaSets, pods, leases); the text itself is ../describe.ts's.
import { labelSelectorAsString } from '../../util/labels.ts';
import { describeDeployment, describeEndpointSlice, describeGeneric, describeNamespace, describeNode, describePod, describePriorityClass, describeReplicaSet, describeService } from '../describe.ts';
import { kindInfo, type KindInfo } from '../resources.ts';
import { bool, nsOf, parse, str } from './flags.ts';
import { Fail, apiError, list, noResources, targets, type Obj, type Run } from './util.ts';

/** kubectl describe: each object found (by name, name prefix or selector), described. */
export function cmdDescribe(r: Run, argv: string[]): void {
  const p = parse(r, 'describe', argv, { selector: { kind: 'string', short: 'l' }, 'all-namespaces': { kind: 'bool', short: 'A' }, 'show-events': { kind: 'bool' } });
  if (!p.args.length) throw new Fail('error: You must specify the type of resource to describe. Use "kubectl api-resources" for a complete list of supported resources.');
  const t = targets(p.args);
  const ns = nsOf(p);
  const objs: { kind: KindInfo; o: Obj }[] = [];
  for (const kind of t.kinds) {
    const items = list(r, kind, bool(p, 'all-namespaces') ? undefined : ns, str(p, 'selector'));
    if (!items.length) noResources(r, ns, kind.namespaced);
    for (const o of items) objs.push({ kind, o });
  }
  for (const { kind, name } of t.names) {
    const res = r.req({ verb: 'get', resource: kind.resource, namespace: kind.namespaced ? ns : undefined, name });
    if (!res.ok) {
      if (res.code === 0) throw new Fail(apiError(res.status));
      // describe falls back to a name-prefix search before giving up.
      const prefix = list(r, kind, ns).filter((o) => o.metadata?.name?.startsWith(name));
      if (!prefix.length) { r.error(apiError(res.status)); continue; }
      for (const o of prefix) objs.push({ kind, o });
      continue;
    }
    objs.push({ kind, o: res.object });
  }
  objs.forEach(({ kind, o }, i) => {
    if (i > 0) r.print('\n\n');
    r.print(describeOne(r, kind, o));
  });
}

function describeOne(r: Run, kind: KindInfo, o: Obj): string {
  const ns = o.metadata?.namespace;
  const events = (kind.resource === 'nodes' ? list(r, kindInfo('events'), undefined, undefined, `involvedObject.name=${o.metadata.name}`)
    : list(r, kindInfo('events'), ns, undefined, `involvedObject.name=${o.metadata.name}`));
  switch (kind.resource) {
    case 'pods': return describePod(o, events, r.now);
    case 'deployments': {
      const rss = list(r, kindInfo('replicasets'), ns, labelSelectorAsString(o.spec?.selector)).filter((rs) => (rs.metadata?.ownerReferences ?? []).some((ref: Obj) => ref.uid === o.metadata.uid));
      return describeDeployment(o, rss, events, r.now);
    }
    case 'replicasets':
      return describeReplicaSet(o, list(r, kindInfo('pods'), ns, labelSelectorAsString(o.spec?.selector)), events, r.now);
    case 'nodes': {
      const lease = r.req({ verb: 'get', resource: 'leases', namespace: 'kube-node-lease', name: o.metadata.name });
      const pods = list(r, kindInfo('pods'), undefined, undefined, `spec.nodeName=${o.metadata.name}`);
      return describeNode(o, lease.ok ? lease.object : undefined, pods, events, r.now);
    }
    case 'namespaces': return describeNamespace(o);
    case 'services':
      return describeService(o, list(r, kindInfo('endpointslices'), ns, `kubernetes.io/service-name=${o.metadata.name}`), events, r.now);
    case 'endpointslices': return describeEndpointSlice(o, events, r.now);
    case 'priorityclasses': return describePriorityClass(o, events, r.now);
    // Lease and Event have no describer of their own in kubectl: the generic one prints every field.
    default: return describeGeneric(o, events, r.now);
  }
}

