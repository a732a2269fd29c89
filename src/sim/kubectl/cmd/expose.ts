// kubectl expose (pkg/cmd/expose): a Service with the selector and port of what it exposes.
import type { Deployment } from 'kubernetes-types/apps/v1';
import type { ContainerPort, Pod, Service, ServicePort, ServiceSpec } from 'kubernetes-types/core/v1';
import { fromUnstructured } from '../../api/unstructured.ts';
import { RESOURCES } from '../../api/resources.ts';
import { nsOf, parse, str } from './flags.ts';
import { Fail, NO_RESOURCES, oneTarget, type MetaObject, type Run } from './util.ts';
import { WRITE_FLAGS, checkOutput, dryRunStrategy, printWritten, writeOptions } from './dryrun.ts';

/** kubectl expose TYPE NAME: a Service selecting what the object selects (or its labels, for a pod). */
export function cmdExpose(r: Run, argv: string[]): void {
  const p = parse(r, 'expose', argv, {
    port: { kind: 'string' },
    'target-port': { kind: 'string' },
    type: { kind: 'string' },
    name: { kind: 'string' },
    protocol: { kind: 'string' },
    'session-affinity': { kind: 'string' },
    'cluster-ip': { kind: 'string' },
    ...WRITE_FLAGS,
  });
  const dry = dryRunStrategy(r, p);
  checkOutput(p);
  if (!p.args.length) throw new Fail(NO_RESOURCES);
  const { kind, name } = oneTarget(r, p.args, 'expose');
  const ns = nsOf(p);
  const o = r.must<MetaObject>({
    verb: 'get',
    resource: kind.resource,
    namespace: kind.namespaced ? ns : undefined,
    name,
  });
  let selector: Record<string, string> | undefined;
  // A ReplicaSet's selector and template read as a Deployment's (the same fields).
  const workload = fromUnstructured<Deployment>(o);
  if (kind.resource === 'deployments' || kind.resource === 'replicasets')
    selector = workload.spec?.selector?.matchLabels;
  else if (kind.resource === 'pods' || kind.resource === 'services')
    selector = kind.resource === 'pods' ? o.metadata?.labels : fromUnstructured<Service>(o).spec?.selector;
  else throw new Fail(`error: cannot expose a ${RESOURCES[kind.resource].kind}`);
  if (!selector || !Object.keys(selector).length)
    throw new Fail(
      `error: couldn't retrieve selectors via --selector flag or introspection: the ${RESOURCES[kind.resource].kind} has no label selector`,
    );
  let port = str(p, 'port');
  if (port === undefined) {
    const cps: ContainerPort[] = (
      (kind.resource === 'pods'
        ? fromUnstructured<Pod>(o).spec?.containers
        : workload.spec?.template?.spec?.containers) ?? []
    ).flatMap((c) => c.ports ?? []);
    if (!cps.length)
      throw new Fail(
        `error: couldn't find port via --port flag or introspection\nSee 'kubectl expose -h' for help and examples`,
      );
    port = String(cps[0].containerPort);
  }
  const tp = str(p, 'target-port');
  const svcName = str(p, 'name') ?? name;
  const portSpec: ServicePort = {
    port: Number(port),
    protocol: str(p, 'protocol') ?? 'TCP',
    targetPort: tp === undefined ? Number(port) : /^\d+$/.test(tp) ? Number(tp) : tp,
  };
  const spec: ServiceSpec = { ports: [portSpec], selector, type: str(p, 'type') ?? 'ClusterIP' };
  const body: Service = {
    apiVersion: 'v1',
    kind: 'Service',
    metadata: { name: svcName, namespace: ns, labels: o.metadata?.labels },
    spec,
  };
  // ServiceGeneratorV2: --session-affinity None or ClientIP; --cluster-ip an address, or None for a headless Service.
  const affinity = str(p, 'session-affinity');
  if (affinity) {
    if (affinity !== 'None' && affinity !== 'ClientIP') throw new Fail(`error: unknown session affinity: ${affinity}`);
    spec.sessionAffinity = affinity;
  }
  const clusterIP = str(p, 'cluster-ip');
  if (clusterIP) spec.clusterIP = clusterIP;
  if (dry === 'client') {
    printWritten(r, p, dry, `service/${svcName}`, 'exposed', { ...body, status: { loadBalancer: {} } });
    return;
  }
  const created = r.must({
    verb: 'create',
    resource: 'services',
    namespace: ns,
    body,
    options: writeOptions(dry, { fieldManager: 'kubectl-expose' }),
  });
  printWritten(r, p, dry, `service/${svcName}`, 'exposed', created);
}
