// kube-controller-manager's serviceaccount controller (pkg/controller/serviceaccount/
// serviceaccounts_controller.go): every active namespace has the ServiceAccounts it must
// (`default`); one deleted is made again. It is in kubectl's lazy chunk, since only kubectl makes a
// namespace or deletes an account: the API server's first such write starts it in the controller
// manager's process (World.startController), so its informers open their watches then, where the
// real ones open theirs at start-up (the world's bootstrap made the system namespaces' accounts).
import type { Namespace, ServiceAccount } from 'kubernetes-types/core/v1';
import { controller, type ControllerEvent } from '../client-go/controller.ts';
import { listerGet, newInformer, type EventHandlers, type InformerState } from '../client-go/informer.ts';
import { add, newWorkQueue, type WorkQueue } from '../client-go/workqueue.ts';
import { KUBE_CONTROLLER_MANAGER_CLIENT } from '../client-go/flowcontrol.ts';
import type { ApiResult } from '../api/request.ts';
import type { ComponentDef, Ctx } from '../world.ts';
import { SERVICE_ACCOUNT_CONTROLLER } from './names.ts';

/** DefaultServiceAccountsControllerOptions: the accounts every namespace gets. */
const SERVICE_ACCOUNTS_TO_ENSURE = ['default'];

/** The controller's state (plain data): its informers and its work queue of namespaces. */
interface ServiceAccountsControllerState {
  saInformer: InformerState<ServiceAccount>;
  nsInformer: InformerState<Namespace>;
  queue: WorkQueue;
  workerPending: boolean;
}

type C = Ctx<ServiceAccountsControllerState>;

/** serviceAccountDeleted: its namespace is synced again. */
function saHandlers(ctx: C): EventHandlers<ServiceAccount> {
  return { delete: (sa) => add(ctx.state.queue, sa.metadata?.namespace ?? '', ctx.notification) };
}

/** namespaceAdded, namespaceUpdated: the namespace is synced. */
function nsHandlers(ctx: C): EventHandlers<Namespace> {
  const enqueue = (ns: Namespace) => add(ctx.state.queue, ns.metadata?.name ?? '', ctx.notification);
  return { add: enqueue, update: (_, ns) => enqueue(ns) };
}

/** A create that need not be retried: done, made by someone else, or its namespace gone or terminating. */
export function settled(r: ApiResult<unknown>): boolean {
  return (
    r.ok ||
    r.code === 404 ||
    r.code === 409 ||
    !!r.status.details?.causes?.some((c) => c.reason === 'NamespaceTerminating')
  );
}

/** syncNamespace: an active namespace's missing accounts created (AlreadyExists and a terminating namespace are no errors). */
function syncNamespace(ctx: C, name: string): boolean {
  const ns = listerGet(ctx.state.nsInformer, name);
  if (!ns || ns.status?.phase !== 'Active') return true;
  let ok = true;
  for (const sa of SERVICE_ACCOUNTS_TO_ENSURE) {
    if (listerGet(ctx.state.saInformer, `${name}/${sa}`)) continue;
    ok =
      settled(
        ctx.api.create(
          'serviceaccounts',
          { apiVersion: 'v1', kind: 'ServiceAccount', metadata: { name: sa, namespace: name } },
          name,
        ),
      ) && ok;
  }
  return ok;
}

const serviceAccountsController = controller<ServiceAccountsControllerState>({
  informers: { saInformer: saHandlers, nsInformer: nsHandlers },
  worker: 'serviceaccount-worker',
  sync: syncNamespace,
});

/** The serviceaccount controller as a component type (instance name = type name). */
export const serviceAccountsControllerDef: ComponentDef<
  ServiceAccountsControllerState,
  ControllerEvent<'serviceaccount-worker'>
> = {
  name: SERVICE_ACCOUNT_CONTROLLER,
  identity: () => SERVICE_ACCOUNT_CONTROLLER,
  clientLimit: KUBE_CONTROLLER_MANAGER_CLIENT,
  init(ctx) {
    ctx.state = {
      saInformer: newInformer('serviceaccounts', 'serviceaccounts'),
      nsInformer: newInformer('namespaces', 'namespaces'),
      queue: newWorkQueue('serviceaccount'),
      workerPending: false,
    };
    serviceAccountsController.run(ctx);
    return ctx.state;
  },
  handle(event, ctx) {
    // Its process's loops have stopped: so does it, until the API server's next such write.
    if (!ctx.components?.['garbage-collector']) {
      ctx.stop(ctx.name);
      return;
    }
    serviceAccountsController.handle(event, ctx);
  },
};
