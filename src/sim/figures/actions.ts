// What a reader can do to a figure's cluster, as plain data: each action becomes exactly the
// request kubectl would send (kubectl/generators.ts) or the fault `sim …` would inject, so it is a
// recorded input like any other and replay, step-back and permalinks hold.
import type { Cluster } from '../cluster.ts';
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
  | { type: 'expose'; name: string; port: number }
  | { type: 'get'; resource: 'pods' | 'nodes' };

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
    case 'expose': cluster.request({ verb: 'create', resource: 'services', namespace: 'default', body: serviceFor(a.name, a.port) }); break;
    // A read changes nothing, but it is a request like any other: refused while the API server is down.
    case 'get': cluster.request(a.resource === 'pods' ? { verb: 'list', resource: 'pods', namespace: 'default' } : { verb: 'list', resource: 'nodes' }); break;
  }
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
    case 'expose': return `kubectl expose deployment ${a.name} --port=${a.port}`;
    case 'get': return `kubectl get ${a.resource}`;
  }
}

/** The Service `kubectl expose deployment NAME --port=P` creates for a Deployment made by `kubectl create deployment` (selector app=NAME). */
export function serviceFor(name: string, port: number, namespace = 'default'): Record<string, unknown> {
  return {
    apiVersion: 'v1', kind: 'Service', metadata: { name, namespace, labels: { app: name } },
    spec: { ports: [{ port, protocol: 'TCP', targetPort: port }], selector: { app: name }, type: 'ClusterIP' },
  };
}
