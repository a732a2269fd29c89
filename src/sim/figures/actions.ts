// What a reader can do to a figure's cluster, as plain data: each action becomes exactly the
// request kubectl would send (kubectl/generators.ts) or the fault `sim …` would inject, so it is a
// recorded input like any other and replay, step-back and permalinks hold.
import type { Cluster } from '../cluster.ts';
import type { ApiRequest } from '../api-server.ts';
import type { ControlPlaneComponent, NodeAction } from '../cluster-types.ts';
import { deletePodRequest, deploymentFor, scaleRequest, setImageRequest, containerNameFromImage } from '../kubectl/generators.ts';

/** One change a reader makes, in kubectl's or the CLI's terms. */
export type FigureAction =
  | { type: 'apply'; name: string; image: string; replicas: number }
  | { type: 'scale'; name: string; replicas: number }
  | { type: 'delete-pod'; pod: string }
  | { type: 'set-image'; name: string; image: string }
  | { type: 'node'; node: string; action: NodeAction }
  | { type: 'control-plane'; action: 'stop' | 'start'; component?: ControlPlaneComponent }
  | { type: 'latency'; ms: number }
  | CreateDeploymentAction;

/**
 * A Deployment created the ways a reader gets one wrong (the hub figure): as a client the API server
 * cannot authenticate, as a user RBAC gives no rights (`--as`), into a namespace that does not exist,
 * or from a manifest whose selector does not match its template's labels.
 */
export interface CreateDeploymentAction {
  type: 'create-deployment';
  name: string;
  image: string;
  replicas: number;
  namespace?: string;
  /** kubectl --as=USER: the request impersonates this user. */
  as?: string;
  /** Sent with credentials the API server does not know (as this client, not kubectl's admin identity). */
  unknownClient?: string;
  /** spec.selector.matchLabels.app, when it differs from the template's `app` label (a manifest file, not a generator). */
  selectorApp?: string;
}

/** The client name a request with unknown credentials is logged under (no identity carries it). */
export const UNKNOWN_CLIENT = 'kubectl (unknown credentials)';

/** Makes the action on the cluster (as kubectl, or as the CLI's fault); the world records it. */
export function applyAction(cluster: Cluster, a: FigureAction): void {
  switch (a.type) {
    case 'apply': cluster.request({ verb: 'create', resource: 'deployments', namespace: 'default', body: deploymentFor(a.name, a.image, a.replicas) }); break;
    case 'scale': cluster.request(scaleRequest('deployments', a.name, a.replicas)); break;
    case 'delete-pod': cluster.request(deletePodRequest(a.pod)); break;
    case 'set-image': cluster.request(setImageRequest(a.name, [{ name: containerNameFromImage(a.image), image: a.image }])); break;
    case 'node': cluster.node(a.node, a.action); break;
    case 'control-plane': cluster.controlPlane(a.action, a.component); break;
    case 'latency': cluster.apiserverLatency(a.ms); break;
    case 'create-deployment': createDeployment(cluster, a); break;
  }
}

function createDeployment(cluster: Cluster, a: CreateDeploymentAction): void {
  const ns = a.namespace ?? 'default';
  const body = deploymentFor(a.name, a.image, a.replicas, ns) as { spec: { selector: { matchLabels: Record<string, string> } } };
  if (a.selectorApp !== undefined) body.spec.selector = { matchLabels: { app: a.selectorApp } };
  const req: ApiRequest = { verb: 'create', resource: 'deployments', namespace: ns, body };
  if (a.as !== undefined) req.options = { impersonate: { user: a.as } };
  // A client the authenticator does not know is still an external client's recorded request.
  if (a.unknownClient !== undefined) cluster.world.kubectl(req, a.unknownClient);
  else cluster.request(req);
}

/** The line a reader would type for the action (`kubectl …`, or the CLI's `sim …`), shown beside it. */
export function commandOf(a: FigureAction): string {
  switch (a.type) {
    case 'apply': return `kubectl create deployment ${a.name} --image=${a.image} --replicas=${a.replicas}`;
    case 'scale': return `kubectl scale deployment ${a.name} --replicas=${a.replicas}`;
    case 'delete-pod': return `kubectl delete pod ${a.pod}`;
    case 'set-image': return `kubectl set image deployment/${a.name} ${containerNameFromImage(a.image)}=${a.image}`;
    case 'node': return `sim node ${a.action} ${a.node}`;
    case 'control-plane': return `sim control-plane ${a.action}${a.component ? ' ' + a.component : ''}`;
    case 'latency': return `sim apiserver latency ${a.ms}ms`;
    case 'create-deployment': {
      const ns = a.namespace && a.namespace !== 'default' ? ` -n ${a.namespace}` : '';
      const who = (a.unknownClient !== undefined ? ' --kubeconfig=stranger.conf' : '') + (a.as !== undefined ? ` --as=${a.as}` : '');
      if (a.selectorApp !== undefined) return `kubectl${who}${ns} create -f ${a.name}.yaml`;
      return `kubectl${who}${ns} create deployment ${a.name} --image=${a.image} --replicas=${a.replicas}`;
    }
  }
}
