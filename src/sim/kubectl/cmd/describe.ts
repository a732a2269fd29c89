// kubectl describe (pkg/cmd/describe): finds the objects and what each describer needs beside them
// (events, owned ReplicaSets, pods, leases); the text itself is ../describe.ts's.
import type { Deployment, ReplicaSet } from 'kubernetes-types/apps/v1';
import { labelSelectorAsString } from '../../api/labels.ts';
import { fromUnstructured } from '../../api/unstructured.ts';
import {
  describeConfigMap,
  describeDeployment,
  describeEndpointSlice,
  describeGeneric,
  describeNamespace,
  describeNode,
  describePod,
  describePodDisruptionBudget,
  describePriorityClass,
  describeReplicaSet,
  describeService,
  describeServiceAccount,
} from '../describe.ts';
import { DESCRIBE_HELP } from '../help/describe.ts';
import { kindInfo, type KindInfo } from '../resources.ts';
import { bool, nsOf, parse, str } from './flags.ts';
import {
  Fail,
  apiError,
  kindOrFail,
  list,
  listAt,
  noResources,
  targets,
  type MetaObject,
  type Run,
  type Stored,
} from './util.ts';

/** describerSettings.ChunkSize: the describers' lists (and the builder's) ask for pages of 500. */
const CHUNK_SIZE = 500;

/** kubectl describe: each object found (by name, name prefix or selector), described; with its Events when it is the only one (or --show-events). */
export function cmdDescribe(r: Run, argv: string[]): void {
  const p = parse(r, 'describe', argv, {
    selector: { kind: 'string', short: 'l' },
    'all-namespaces': { kind: 'bool', short: 'A' },
    'show-events': { kind: 'bool' },
  });
  if (bool(p, 'help')) {
    r.print(DESCRIBE_HELP);
    return;
  }
  if (!p.args.length)
    throw new Fail(
      'error: You must specify the type of resource to describe. Use "kubectl api-resources" for a complete list of supported resources.',
    );
  const t = targets(p.args, r);
  const ns = nsOf(p);
  const objs: { kind: KindInfo; o: MetaObject }[] = [];
  let found = true;
  for (const kind of t.kinds) {
    const items = listAt(
      r,
      kind,
      bool(p, 'all-namespaces') ? undefined : ns,
      str(p, 'selector'),
      undefined,
      CHUNK_SIZE,
    ).items;
    if (!items.length) noResources(r, ns, kind.namespaced);
    for (const o of items) objs.push({ kind, o });
  }
  for (const { kind, name } of t.names) {
    const res = r.req({ verb: 'get', resource: kind.resource, namespace: kind.namespaced ? ns : undefined, name });
    if (!res.ok) {
      if (res.code === 0) throw new Fail(apiError(res.status));
      found = false;
      // describe falls back to a name-prefix search before giving up (DescribeMatchingResources,
      // whose builder maps TYPE again: an ambiguous short name warns a second time).
      if (p.args.length === 2) kindOrFail(p.args[0], r);
      const prefix = list(r, kind, ns).filter((o) => o.metadata?.name?.startsWith(name));
      if (!prefix.length) {
        r.error(apiError(res.status));
        continue;
      }
      for (const o of prefix) objs.push({ kind, o });
      continue;
    }
    objs.push({ kind, o: res.object as MetaObject });
  }
  // 1.36+ (kubernetes#137145): Events only for a single object found as asked; several objects, a
  // name prefix or a name not found turn them off, unless --show-events says otherwise.
  const showEvents = p.flags['show-events'] !== undefined ? bool(p, 'show-events') : found && objs.length <= 1;
  objs.forEach(({ kind, o }, i) => {
    if (i > 0) r.print('\n\n');
    r.print(describeOne(r, kind, o, showEvents));
  });
}

/**
 * searchEvents: the Events whose involvedObject is this object, by a field selector on its name,
 * namespace ('' for a cluster-scoped one), kind and uid (GetFieldSelector; the real client joins the
 * terms in map order, so their order varies by run), in pages of 500.
 */
function searchEvents(
  r: Run,
  kind: string,
  name: string | undefined,
  namespace: string | undefined,
  uid: string | undefined,
): MetaObject[] {
  const selector = `involvedObject.name=${name},involvedObject.namespace=${namespace ?? ''},involvedObject.kind=${kind},involvedObject.uid=${uid}`;
  return listAt(r, kindInfo('events'), namespace, undefined, selector, CHUNK_SIZE).items;
}

/** The Events as the describer reads them (undefined: not searched). */
function typedEvents<T extends object>(events: MetaObject[] | undefined): T[] | undefined {
  return events && fromUnstructured<T[]>(events);
}

function describeOne(r: Run, kind: KindInfo, found: MetaObject, showEvents: boolean): string {
  // Each describer GETs its object again by name (the builder's copy is not handed on).
  const again = r.req({
    verb: 'get',
    resource: kind.resource,
    namespace: kind.namespaced ? found.metadata?.namespace : undefined,
    name: found.metadata?.name,
  });
  // A stored object has metadata; the describers read it as its kind (fromUnstructured at each call).
  const o = (again.ok ? { kind: found.kind, ...(again.object as MetaObject) } : found) as Stored<MetaObject>;
  const ns = o.metadata?.namespace;
  const kindName = String(o.kind ?? found.kind ?? '');
  // searchEvents is not called at all without --show-events: no LIST of events.
  const events = () =>
    showEvents
      ? searchEvents(r, kindName, o.metadata.name, kind.namespaced ? ns : undefined, o.metadata.uid)
      : undefined;
  switch (kind.resource) {
    case 'pods':
      return describePod(fromUnstructured(o), typedEvents(events()), r.now);
    case 'deployments': {
      const ev = events();
      // GetAllReplicaSetsInChunks: the selector's ReplicaSets, those it controls.
      const rss = listAt(
        r,
        kindInfo('replicasets'),
        ns,
        labelSelectorAsString(fromUnstructured<Deployment>(o).spec?.selector),
        undefined,
        CHUNK_SIZE,
      ).items.filter((rs) =>
        (rs.metadata?.ownerReferences ?? []).some((ref) => ref.controller === true && ref.uid === o.metadata.uid),
      );
      return describeDeployment(fromUnstructured(o), fromUnstructured(rss), typedEvents(ev), r.now);
    }
    case 'replicasets': {
      const pods = listAt(
        r,
        kindInfo('pods'),
        ns,
        labelSelectorAsString(fromUnstructured<ReplicaSet>(o).spec?.selector),
        undefined,
        CHUNK_SIZE,
      ).items;
      return describeReplicaSet(fromUnstructured(o), fromUnstructured(pods), typedEvents(events()), r.now);
    }
    case 'nodes': {
      const pods = listAt(
        r,
        kindInfo('pods'),
        undefined,
        undefined,
        `spec.nodeName=${o.metadata.name},status.phase!=Succeeded,status.phase!=Failed`,
        CHUNK_SIZE,
      ).items;
      // Two searches: the controllers' Events name the Node's uid, the kubelet's its name.
      const ev = showEvents
        ? [
            ...searchEvents(r, kindName, o.metadata.name, undefined, o.metadata.uid),
            ...searchEvents(r, kindName, o.metadata.name, undefined, o.metadata.name),
          ]
        : undefined;
      const lease = r.req({ verb: 'get', resource: 'leases', namespace: 'kube-node-lease', name: o.metadata.name });
      return describeNode(
        fromUnstructured(o),
        lease.ok ? fromUnstructured(lease.object as MetaObject) : undefined,
        fromUnstructured(pods),
        typedEvents(ev),
        r.now,
      );
    }
    case 'namespaces':
      return describeNamespace(fromUnstructured(o));
    case 'services': {
      const slices = list(r, kindInfo('endpointslices'), ns, `kubernetes.io/service-name=${o.metadata.name}`);
      return describeService(fromUnstructured(o), fromUnstructured(slices), typedEvents(events()), r.now);
    }
    case 'endpointslices':
      return describeEndpointSlice(fromUnstructured(o), typedEvents(events()), r.now);
    case 'priorityclasses':
      return describePriorityClass(fromUnstructured(o), typedEvents(events()), r.now);
    case 'poddisruptionbudgets':
      return describePodDisruptionBudget(fromUnstructured(o), typedEvents(events()), r.now);
    case 'serviceaccounts':
      return describeServiceAccount(fromUnstructured(o), typedEvents(events()), r.now);
    case 'configmaps':
      return describeConfigMap(fromUnstructured(o), typedEvents(events()), r.now);
    // Lease and Event have no describer of their own in kubectl: the generic one prints every field.
    default:
      return describeGeneric(fromUnstructured(o), typedEvents(events()), r.now);
  }
}
