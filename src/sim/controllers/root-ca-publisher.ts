// kube-controller-manager's root-CA publisher (pkg/controller/certificates/rootcacertpublisher/
// publisher.go): every namespace has the ConfigMap kube-root-ca.crt with the cluster's CA (ca.crt)
// and the annotation describing it; one deleted is made again, one changed is put back. It is in
// kubectl's lazy chunk and starts as the serviceaccount controller does (serviceaccounts-controller.ts).
import type { ConfigMap, Namespace } from 'kubernetes-types/core/v1';
import { controller, type ControllerEvent } from '../client-go/controller.ts';
import { listerGet, newInformer, type EventHandlers, type InformerState } from '../client-go/informer.ts';
import { add, newWorkQueue, type WorkQueue } from '../client-go/workqueue.ts';
import { KUBE_CONTROLLER_MANAGER_CLIENT } from '../client-go/flowcontrol.ts';
import { ROOT_CA_CONFIG_MAP, type ComponentDef, type Ctx } from '../world.ts';
import { deepEqual } from '../util/names.ts';
import { settled } from './serviceaccounts-controller.ts';
import { ROOT_CA_CERT_PUBLISHER } from './names.ts';

/** RootCACertConfigMapName and DescriptionAnnotation. */
const NAME = ROOT_CA_CONFIG_MAP.metadata.name;
const DESCRIPTION = 'kubernetes.io/description';

/** The publisher's state (plain data): its informers and its work queue of namespaces. */
interface RootCAPublisherState {
  cmInformer: InformerState<ConfigMap>;
  nsInformer: InformerState<Namespace>;
  queue: WorkQueue;
  workerPending: boolean;
}

type C = Ctx<RootCAPublisherState>;

/** configMapDeleted, configMapUpdated: kube-root-ca.crt's namespace is synced again. */
function cmHandlers(ctx: C): EventHandlers<ConfigMap> {
  const enqueue = (cm: ConfigMap) => {
    if (cm.metadata?.name === NAME) add(ctx.state.queue, cm.metadata.namespace ?? '', ctx.notification);
  };
  return { update: (_, cm) => enqueue(cm), delete: enqueue };
}

/** namespaceAdded (every one), namespaceUpdated (an active one). */
function nsHandlers(ctx: C): EventHandlers<Namespace> {
  const enqueue = (ns: Namespace) => add(ctx.state.queue, ns.metadata?.name ?? '', ctx.notification);
  return {
    add: enqueue,
    update: (_, ns) => {
      if (ns.status?.phase === 'Active') enqueue(ns);
    },
  };
}

/** syncNamespace: kube-root-ca.crt created when missing, its data and description put back when they differ. */
function syncNamespace(ctx: C, ns: string): boolean {
  const cm = listerGet(ctx.state.cmInformer, `${ns}/${NAME}`);
  // A create refused because the namespace is gone or terminating is not retried.
  if (!cm)
    return settled(
      ctx.api.create(
        'configmaps',
        { ...ROOT_CA_CONFIG_MAP, metadata: { ...ROOT_CA_CONFIG_MAP.metadata, namespace: ns } },
        ns,
      ),
    );
  if (deepEqual(cm.data, ROOT_CA_CONFIG_MAP.data) && cm.metadata?.annotations?.[DESCRIPTION]) return true;
  const next = {
    ...cm,
    data: ROOT_CA_CONFIG_MAP.data,
    metadata: {
      ...cm.metadata,
      annotations: { ...cm.metadata?.annotations, ...ROOT_CA_CONFIG_MAP.metadata.annotations },
    },
  };
  return ctx.api.update('configmaps', next).ok;
}

const rootCAPublisher = controller<RootCAPublisherState>({
  informers: { cmInformer: cmHandlers, nsInformer: nsHandlers },
  worker: 'root-ca-worker',
  sync: syncNamespace,
});

/** The root-CA publisher as a component type (instance name = type name). */
export const rootCAPublisherDef: ComponentDef<RootCAPublisherState, ControllerEvent<'root-ca-worker'>> = {
  name: ROOT_CA_CERT_PUBLISHER,
  identity: () => ROOT_CA_CERT_PUBLISHER,
  clientLimit: KUBE_CONTROLLER_MANAGER_CLIENT,
  init(ctx) {
    ctx.state = {
      cmInformer: newInformer('configmaps', 'configmaps'),
      nsInformer: newInformer('namespaces', 'namespaces'),
      queue: newWorkQueue('root_ca_cert_publisher'),
      workerPending: false,
    };
    rootCAPublisher.run(ctx);
    return ctx.state;
  },
  handle(event, ctx) {
    if (!ctx.components?.['garbage-collector']) {
      ctx.stop(ctx.name);
      return;
    }
    rootCAPublisher.handle(event, ctx);
  },
};
