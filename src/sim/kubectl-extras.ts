// kubectl's part of a world, wired where the world is (not in the server): the API server's kubectl
// paths (apiserver/kubectl-extras.ts), its connection to the kubelets for `kubectl logs`, and the
// components only kubectl's requests can make a figure need. In kubectl's lazy chunk: a figure whose
// reader never typed a command loads none of it, and a link's replay installs it before it restores.
import type { ApiServerConfig } from './apiserver/index.ts';
import { withKubectlExtras } from './apiserver/kubectl-extras.ts';
import { disruptionControllerDef } from './controllers/disruption-controller.ts';
import { namespaceControllerDef, type NamespaceControllerState } from './controllers/namespace-controller.ts';
import { rootCAPublisherDef } from './controllers/root-ca-publisher.ts';
import { serviceAccountsControllerDef } from './controllers/serviceaccounts-controller.ts';
import { kubeletConnection } from './kubelet/server.ts';
import { PREEMPTION_EVALUATOR } from './scheduler/preemption-evaluator.ts';
import type { ComponentDef, WorldParts, WorldState } from './world.ts';

/** A world as the installer sees it: its API server's configuration, its state and its optional parts. */
type WorldLike = {
  apiConfig: ApiServerConfig;
  parts: WorldParts;
  state: WorldState;
  define?(
    def:
      | ComponentDef<NamespaceControllerState>
      | typeof disruptionControllerDef
      | typeof serviceAccountsControllerDef
      | typeof rootCAPublisherDef,
  ): unknown;
};

/**
 * Installs kubectl's part of the API server on one cluster's (or world's) configuration, and the
 * core's optional parts only kubectl's requests can make a figure need (preemption's victim search:
 * a pod outranks another only through a PriorityClass or priority a reader sets). Again is a no-op.
 */
export function installKubectlExtras(on: { world: WorldLike } | WorldLike): void {
  const world = 'world' in on ? on.world : on;
  withKubectlExtras(world.apiConfig);
  // Only kubectl reads a container's log: the API server reaches this world's kubelets on their port
  // 10250 (kubelet/server.ts), reading the world's state as it is when the request comes.
  world.apiConfig.kubelets = (node) => kubeletConnection(world.state, node);
  world.parts.preemption = PREEMPTION_EVALUATOR;
  // Only kubectl deletes a namespace: the controller that empties one comes with it.
  world.define?.(namespaceControllerDef);
  // Only kubectl makes a PodDisruptionBudget: the controller that keeps its status comes with it.
  world.define?.(disruptionControllerDef);
  // Only kubectl makes a namespace or deletes what these two keep: they come with it.
  world.define?.(serviceAccountsControllerDef);
  world.define?.(rootCAPublisherDef);
}
