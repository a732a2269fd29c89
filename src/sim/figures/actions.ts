// What a reader can do to a figure's cluster, as plain data: each action becomes exactly the
// request kubectl would send (kubectl/generators.ts) or the fault `sim …` would inject, so it is a
// recorded input like any other and replay, step-back and permalinks hold.
import type { Cluster } from '../cluster.ts';
import type { AppBehaviour, ControlPlaneComponent, NodeAction } from '../cluster-types.ts';
import {
  deletePodRequest,
  deploymentFor,
  scaleRequest,
  setImageRequest,
  containerNameFromImage,
} from '../kubectl/generators.ts';
import type { ApiRequest } from '../api/request.ts';
import type { Deployment } from 'kubernetes-types/apps/v1';
import type { Node, Pod } from 'kubernetes-types/core/v1';
import type { ContainerHealth } from '../kubelet/kubelet-state.ts';

/** The Pod `kubectl run NAME --image=IMAGE` makes, with the requests (and tolerations) of the figure's form. */
function podFor(p: PodSpecOfFigure): Record<string, unknown> {
  const spec: Record<string, unknown> = {
    containers: [{ name: p.name, image: p.image, resources: { requests: { cpu: p.cpu, memory: p.memory } } }],
    restartPolicy: 'Always',
  };
  if (p.tolerations?.length)
    spec.tolerations = p.tolerations.map((t) => ({ key: t.key, operator: 'Equal', value: t.value, effect: t.effect }));
  if (p.onNode) spec.nodeSelector = { 'kubernetes.io/hostname': p.onNode };
  return {
    apiVersion: 'v1',
    kind: 'Pod',
    metadata: { name: p.name, namespace: 'default', labels: { run: p.name } },
    spec,
  };
}

/** `kubectl patch deployment NAME -p '{"spec":{"strategy":{"rollingUpdate":{…}}}}'`. */
function strategyRequest(name: string, maxSurge: IntOrPercent, maxUnavailable: IntOrPercent): ApiRequest {
  return {
    verb: 'patch',
    resource: 'deployments',
    namespace: 'default',
    name,
    body: { spec: { strategy: { type: 'RollingUpdate', rollingUpdate: { maxSurge, maxUnavailable } } } },
  };
}

/** What kubectl reads before it writes (taint merges into the node's list, undo copies an old template). */
function getObject<T extends object>(
  cluster: Cluster,
  resource: 'nodes' | 'deployments' | 'replicasets' | 'pods',
  name?: string,
  labelSelector?: string,
): T | undefined {
  const r = cluster.request(
    name
      ? { verb: 'get', resource, namespace: resource === 'nodes' ? undefined : 'default', name }
      : { verb: 'list', resource, namespace: 'default', options: { labelSelector } },
  );
  return r.ok ? (r.object as T) : undefined;
}

const revisionOfRS = (rs: { metadata?: { annotations?: Record<string, string> } }): number =>
  Number(rs.metadata?.annotations?.['deployment.kubernetes.io/revision'] ?? 0);

/** `kubectl rollout undo`: the previous revision's template, copied into the Deployment with an update, as kubectl does it. */
function undo(cluster: Cluster, name: string): void {
  const d = getObject<Deployment>(cluster, 'deployments', name);
  if (!d || d.spec?.paused) return;
  const sel = Object.entries(d.spec?.selector?.matchLabels ?? {})
    .map(([k, v]) => `${k}=${v}`)
    .join(',');
  const list = getObject<{ items?: unknown[] }>(cluster, 'replicasets', undefined, sel);
  const rss = (
    (list?.items ?? []) as {
      metadata?: { annotations?: Record<string, string> };
      spec: { template: Record<string, unknown> };
    }[]
  )
    .filter((x) => revisionOfRS(x) > 0)
    .sort((a, b) => revisionOfRS(b) - revisionOfRS(a));
  if (rss.length < 2) return;
  const tpl = structuredClone(rss[1].spec.template) as { metadata?: { labels?: Record<string, string> } };
  if (tpl.metadata?.labels) delete tpl.metadata.labels['pod-template-hash'];
  cluster.request({
    verb: 'update',
    resource: 'deployments',
    namespace: 'default',
    name,
    body: { ...d, spec: { ...d.spec, template: tpl } },
  });
}

/** One change a reader makes, in kubectl's or the CLI's terms. */
export type FigureAction =
  | { type: 'apply'; name: string; image: string; replicas: number }
  | { type: 'scale'; name: string; replicas: number }
  /** `kubectl delete pod NAME`; with force, `--grace-period=0 --force`: the object goes at once, without the kubelet's confirmation. */
  | { type: 'delete-pod'; pod: string; force?: true }
  /** `kubectl delete deployment NAME`: cascade=background, so the garbage collector deletes what it owns. */
  | { type: 'delete-deployment'; name: string }
  /** `kubectl delete service NAME`. */
  | { type: 'delete-service'; name: string }
  | { type: 'set-image'; name: string; image: string }
  | { type: 'node'; node: string; action: NodeAction }
  | { type: 'control-plane'; action: 'stop' | 'start'; component?: ControlPlaneComponent }
  | { type: 'latency'; ms: number }
  | CreateDeploymentAction
  | { type: 'cordon'; node: string; on: boolean }
  | { type: 'taint'; node: string; taint: TolerationSpec; on: boolean }
  | { type: 'run-pod'; pod: PodSpecOfFigure }
  | { type: 'replace-pod'; pod: PodSpecOfFigure }
  | { type: 'tolerate'; pod: string; toleration: TolerationSpec }
  | { type: 'strategy'; name: string; maxSurge: IntOrPercent; maxUnavailable: IntOrPercent }
  | { type: 'rollout'; name: string; verb: 'pause' | 'resume' | 'undo' }
  | { type: 'image-fault'; image: string; state: 'missing' | 'available' }
  | { type: 'expose'; name: string; port: number }
  | { type: 'get'; resource: 'pods' | 'nodes' }
  | ReplaceReplicasAction
  /** `sim app`: the behaviour names the line, health (app-health.ts appHealth) is what the kubelet is told. */
  | { type: 'app'; pod: string; behaviour: AppBehaviour; health: ContainerHealth };

/**
 * Clients that each read a Deployment (`kubectl get deployment NAME -o yaml > NAME.yaml`), change
 * spec.replicas by `add` in their copy, then write it back (`kubectl replace -f NAME.yaml`): all read
 * before any writes, so every write carries the same resourceVersion, and the API server's optimistic
 * concurrency stores the first and refuses the others with 409 Conflict.
 */
export interface ReplaceReplicasAction {
  type: 'replace-replicas';
  name: string;
  add: number;
  /** The clients, in the order they write (each an identity of the cluster's API server). */
  clients: string[];
}

/** maxSurge / maxUnavailable as the Deployment API takes them: a count or a percentage ("25%"). */
export type IntOrPercent = number | string;

/** A taint, and the toleration that matches it exactly (operator Equal). */
export interface TolerationSpec {
  key: string;
  value: string;
  effect: 'NoSchedule' | 'PreferNoSchedule' | 'NoExecute';
}

/** A bare pod with one container and its requests, as `kubectl run NAME --image=… --overrides` makes it. */
export interface PodSpecOfFigure {
  name: string;
  image: string;
  cpu: string;
  memory: string;
  tolerations?: TolerationSpec[];
  /** Pins the pod with a nodeSelector on kubernetes.io/hostname (still placed by the scheduler). */
  onNode?: string;
}

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
  /** From a manifest file whose container has these fields too (resources, probes, ports); `note` says them beside the command. */
  file?: { container: Record<string, unknown>; note: string };
}

/** The client name a request with unknown credentials is logged under (the API server's own name for it). */
export { UNKNOWN_CLIENT } from '../api/identity.ts';

/** Makes the action on the cluster (as kubectl, or as the CLI's fault); the world records it. */
export function applyAction(cluster: Cluster, a: FigureAction): void {
  switch (a.type) {
    case 'apply':
      cluster.request({
        verb: 'create',
        resource: 'deployments',
        namespace: 'default',
        body: deploymentFor(a.name, a.image, a.replicas),
      });
      break;
    case 'scale':
      cluster.request(scaleRequest('deployments', a.name, a.replicas));
      break;
    case 'delete-pod':
      // kubectl delete --grace-period=0 --force sends gracePeriodSeconds 0 (cmd/delete.go; without --force it would send 1).
      cluster.request(
        a.force
          ? { ...deletePodRequest(a.pod), options: { gracePeriodSeconds: 0, propagationPolicy: 'Background' } }
          : deletePodRequest(a.pod),
      );
      break;
    case 'delete-deployment':
      cluster.request({
        verb: 'delete',
        resource: 'deployments',
        namespace: 'default',
        name: a.name,
        options: { propagationPolicy: 'Background' },
      });
      break;
    case 'delete-service':
      cluster.request({
        verb: 'delete',
        resource: 'services',
        namespace: 'default',
        name: a.name,
        options: { propagationPolicy: 'Background' },
      });
      break;
    case 'set-image':
      cluster.request(setImageRequest(a.name, [{ name: containerNameFromImage(a.image), image: a.image }]));
      break;
    case 'node':
      cluster.node(a.node, a.action);
      break;
    case 'control-plane':
      cluster.controlPlane(a.action, a.component);
      break;
    case 'latency':
      cluster.apiserverLatency(a.ms);
      break;
    case 'create-deployment':
      createDeployment(cluster, a);
      break;
    case 'cordon':
      cluster.request({
        verb: 'patch',
        resource: 'nodes',
        name: a.node,
        body: { spec: { unschedulable: a.on ? true : null } },
        options: { patchType: 'merge' },
      });
      break;
    case 'taint': {
      const n = getObject<Node>(cluster, 'nodes', a.node);
      if (!n) break;
      const rest = ((n.spec?.taints ?? []) as TolerationSpec[]).filter(
        (t) => !(t.key === a.taint.key && t.effect === a.taint.effect),
      );
      const taints = a.on ? [...rest, { key: a.taint.key, value: a.taint.value, effect: a.taint.effect }] : rest;
      cluster.request({
        verb: 'patch',
        resource: 'nodes',
        name: a.node,
        body: { spec: { taints: taints.length ? taints : null } },
        options: { patchType: 'merge' },
      });
      break;
    }
    case 'run-pod':
      cluster.request({ verb: 'create', resource: 'pods', namespace: 'default', body: podFor(a.pod) });
      break;
    case 'replace-pod':
      // kubectl replace --force --grace-period=0: the old object goes at once, the new one takes its name.
      cluster.request({
        ...deletePodRequest(a.pod.name),
        options: { propagationPolicy: 'Background', gracePeriodSeconds: 0 },
      });
      cluster.request({ verb: 'create', resource: 'pods', namespace: 'default', body: podFor(a.pod) });
      break;
    case 'tolerate': {
      const p = getObject<Pod>(cluster, 'pods', a.pod);
      if (!p) break;
      const t = a.toleration;
      const have = (p.spec?.tolerations ?? []) as Record<string, unknown>[];
      // A pod's tolerations may only grow: the patch sends the whole list with the new one added.
      cluster.request({
        verb: 'patch',
        resource: 'pods',
        namespace: 'default',
        name: a.pod,
        body: { spec: { tolerations: [...have, { key: t.key, operator: 'Equal', value: t.value, effect: t.effect }] } },
        options: { patchType: 'merge' },
      });
      break;
    }
    case 'strategy':
      cluster.request(strategyRequest(a.name, a.maxSurge, a.maxUnavailable));
      break;
    case 'rollout':
      if (a.verb === 'undo') undo(cluster, a.name);
      else
        cluster.request({
          verb: 'patch',
          resource: 'deployments',
          namespace: 'default',
          name: a.name,
          body: { spec: { paused: a.verb === 'pause' ? true : null } },
          options: { patchType: 'merge' },
        });
      break;
    case 'image-fault':
      cluster.image(a.image, a.state);
      break;
    case 'expose':
      cluster.request({ verb: 'create', resource: 'services', namespace: 'default', body: serviceFor(a.name, a.port) });
      break;
    // A read changes nothing, but it is a request like any other: refused while the API server is down.
    case 'get':
      cluster.request(
        a.resource === 'pods'
          ? { verb: 'list', resource: 'pods', namespace: 'default' }
          : { verb: 'list', resource: 'nodes' },
      );
      break;
    case 'app':
      cluster.app('default', a.pod, a.health);
      break;
    case 'replace-replicas':
      replaceReplicas(cluster, a);
      break;
  }
}

function replaceReplicas(cluster: Cluster, a: ReplaceReplicasAction): void {
  const req: ApiRequest = { verb: 'get', resource: 'deployments', namespace: 'default', name: a.name };
  // Every client reads first, then each writes its own copy back: a PUT whose body carries the
  // resourceVersion it read is a precondition the API server checks (kubectl replace sends it as read).
  const read = a.clients.map((c) => {
    const r = cluster.world.kubectl(req, c);
    return r.ok ? (r.object as { spec: { replicas: number } }) : undefined;
  });
  a.clients.forEach((c, i) => {
    const d = read[i];
    if (d)
      cluster.world.kubectl(
        { ...req, verb: 'update', body: { ...d, spec: { ...d.spec, replicas: d.spec.replicas + a.add } } },
        c,
      );
  });
}

function createDeployment(cluster: Cluster, a: CreateDeploymentAction): void {
  const ns = a.namespace ?? 'default';
  const body = deploymentFor(a.name, a.image, a.replicas, ns) as {
    spec: { selector: { matchLabels: Record<string, string> }; template: { spec: { containers: object[] } } };
  };
  if (a.selectorApp !== undefined) body.spec.selector = { matchLabels: { app: a.selectorApp } };
  // The manifest's fields join the generator's fresh container (the API server decodes the body into objects of its own).
  if (a.file) Object.assign(body.spec.template.spec.containers[0], a.file.container);
  const req: ApiRequest = { verb: 'create', resource: 'deployments', namespace: ns, body };
  if (a.as !== undefined) req.options = { impersonate: { user: a.as } };
  // A client the authenticator does not know is still an external client's recorded request.
  if (a.unknownClient !== undefined) cluster.world.kubectl(req, a.unknownClient);
  else cluster.request(req);
}

/** The line a reader would type for the action (`kubectl …`, or the CLI's `sim …`), shown beside it. */
export function commandOf(a: FigureAction): string {
  switch (a.type) {
    case 'apply':
      return `kubectl create deployment ${a.name} --image=${a.image} --replicas=${a.replicas}`;
    case 'scale':
      return `kubectl scale deployment ${a.name} --replicas=${a.replicas}`;
    case 'delete-pod':
      return `kubectl delete pod ${a.pod}${a.force ? ' --grace-period=0 --force' : ''}`;
    case 'delete-deployment':
      return `kubectl delete deployment ${a.name}`;
    case 'delete-service':
      return `kubectl delete service ${a.name}`;
    case 'set-image':
      return `kubectl set image deployment/${a.name} ${containerNameFromImage(a.image)}=${a.image}`;
    case 'node':
      return `sim node ${a.action} ${a.node}`;
    case 'control-plane':
      return `sim control-plane ${a.action}${a.component ? ' ' + a.component : ''}`;
    case 'latency':
      return `sim apiserver latency ${a.ms}ms`;
    case 'create-deployment': {
      const ns = a.namespace && a.namespace !== 'default' ? ` -n ${a.namespace}` : '';
      const who =
        (a.unknownClient !== undefined ? ' --kubeconfig=stranger.conf' : '') +
        (a.as !== undefined ? ` --as=${a.as}` : '');
      if (a.file) return `kubectl${who}${ns} create -f ${a.name}.yaml  # ${a.file.note}`;
      if (a.selectorApp !== undefined) return `kubectl${who}${ns} create -f ${a.name}.yaml`;
      return `kubectl${who}${ns} create deployment ${a.name} --image=${a.image} --replicas=${a.replicas}`;
    }
    case 'cordon':
      return `kubectl ${a.on ? 'cordon' : 'uncordon'} ${a.node}`;
    case 'taint':
      return `kubectl taint nodes ${a.node} ${a.taint.key}=${a.taint.value}:${a.taint.effect}${a.on ? '' : '-'}`;
    case 'run-pod':
      return runLine(a.pod);
    case 'replace-pod':
      return `kubectl replace --force --grace-period=0 -f ${a.pod.name}.yaml  # requests now cpu ${a.pod.cpu}, memory ${a.pod.memory}`;
    case 'tolerate':
      return `kubectl patch pod ${a.pod} --type=merge -p '{"spec":{"tolerations":[…,{"key":"${a.toleration.key}","operator":"Equal","value":"${a.toleration.value}","effect":"${a.toleration.effect}"}]}}'`;
    case 'strategy':
      return `kubectl patch deployment ${a.name} -p '{"spec":{"strategy":{"rollingUpdate":{"maxSurge":${JSON.stringify(a.maxSurge)},"maxUnavailable":${JSON.stringify(a.maxUnavailable)}}}}}'`;
    case 'rollout':
      return `kubectl rollout ${a.verb} deployment/${a.name}`;
    case 'image-fault':
      return `sim image ${a.image} ${a.state}`;
    case 'expose':
      return `kubectl expose deployment ${a.name} --port=${a.port}`;
    case 'get':
      return `kubectl get ${a.resource}`;
    case 'replace-replicas':
      return `${a.clients.join(', ')}: kubectl replace -f ${a.name}.yaml  # spec.replicas ${a.add > 0 ? '+' : ''}${a.add}, as read by kubectl get`;
    case 'app':
      return `sim app ${a.pod} ${a.behaviour}${a.health.exits?.log === undefined ? '' : ` --log '${a.health.exits.log}'`}`;
  }
}

/** The line for creating a figure's pod from its manifest (what the manifest asks for, said beside it). */
function runLine(p: PodSpecOfFigure): string {
  const extra = [
    p.tolerations?.length ? `tolerates ${p.tolerations.map((t) => `${t.key}=${t.value}:${t.effect}`).join(', ')}` : '',
    p.onNode ? `nodeSelector kubernetes.io/hostname=${p.onNode}` : '',
  ].filter(Boolean);
  return `kubectl create -f ${p.name}.yaml  # Pod ${p.name}: requests cpu ${p.cpu}, memory ${p.memory}${extra.length ? '; ' + extra.join('; ') : ''}`;
}

/** The Service `kubectl expose deployment NAME --port=P` creates for a Deployment made by `kubectl create deployment` (selector app=NAME). */
function serviceFor(name: string, port: number, namespace = 'default'): Record<string, unknown> {
  return {
    apiVersion: 'v1',
    kind: 'Service',
    metadata: { name, namespace, labels: { app: name } },
    spec: { ports: [{ port, protocol: 'TCP', targetPort: port }], selector: { app: name }, type: 'ClusterIP' },
  };
}
