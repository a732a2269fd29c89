// The `cluster` figure: the whole cluster live, with the demos a reader of a Kubernetes explainer
// expects (apply, scale, self-healing, a rolling update and its roll-back, a node dying and
// returning, the control plane down and up). Every text is computed from the frame it describes.
import type { DeploymentView, Frame, PodView } from '../view/types.ts';
import { agree, count, listOf } from '../view/words.ts';
import type { DemoDef, DemoStart, FigureDef } from './demo.ts';
import { podsMarked } from './pods-marked.ts';
import { figureActions } from './figure-actions.ts';

const NAME = 'web';
const IMAGES = ['nginx:1.27', 'nginx:1.28'] as const;
const REPLICAS = 3;
const DYING = 'node-3';

/** The Deployment the demos work on, if it exists. */
function web(f: Frame): DeploymentView | undefined {
  return f.deployments.find((d) => d.name === NAME && d.namespace === 'default');
}

/** web's pods, bound or not, Terminating ones included. */
function webPods(f: Frame): PodView[] {
  const owners = new Set((web(f)?.replicaSets ?? []).map((rs) => `ReplicaSet/${rs.name}`));
  return [...f.pending, ...f.pods].filter((p) => p.owner !== null && owners.has(p.owner));
}

/** web's pods that are not being deleted. */
function livePods(f: Frame): PodView[] {
  return webPods(f).filter((p) => !p.terminating);
}

function readyPods(f: Frame): PodView[] {
  return livePods(f).filter((p) => p.ready && p.phase === 'Running');
}

const needsWeb = (f: Frame): string | null => (web(f) ? null : 'Apply the Deployment first.');

/**
 * A kubectl demo pressed with the control plane down: the same request, refused at the connection.
 * Its words then say so, and it waits for no beat (nothing was stored for anyone to act on).
 */
function refusedWhileDown(d: DemoDef): DemoDef {
  return {
    ...d,
    start: (f) => {
      const s = d.start(f);
      if (f.controlPlane.apiserver) return s;
      return {
        actions: s.actions,
        memo: {},
        intro:
          'The control plane is down: kubectl\'s request is refused ("connection refused"), and nothing changes. The nodes keep running what they run.',
        beats: [],
      };
    },
  };
}

const apply: DemoDef = {
  id: 'apply',
  label: () => 'Apply',
  unavailable: (f) => (web(f) ? 'The Deployment web exists already.' : null),
  start: () => ({
    actions: [{ type: 'apply', name: NAME, image: IMAGES[0], replicas: REPLICAS }],
    memo: {},
    intro: `kubectl sends a Deployment named ${NAME} (${REPLICAS} replicas of ${IMAGES[0]}) to the API server, which checks it and stores it in etcd. That is all kubectl does.`,
    beats: [
      {
        when: (f) => (web(f)?.replicaSets.length ?? 0) > 0,
        text: (f) =>
          `The Deployment controller, watching Deployments, sees ${NAME} and creates ReplicaSet ${web(f)!.replicaSets[0].name} through the API server.`,
      },
      {
        when: (f) => webPods(f).length >= (web(f)?.replicas ?? REPLICAS),
        text: (f) =>
          `The ReplicaSet controller creates ${count(webPods(f).length, 'pod')}. None has a node yet: they wait for the scheduler.`,
      },
      {
        when: (f) => {
          const p = livePods(f);
          return p.length > 0 && p.every((x) => x.node !== null);
        },
        text: (f) =>
          `The scheduler binds each pod to a node (${livePods(f)
            .map((p) => `${p.name} → ${p.node}`)
            .join(', ')}). Each node's kubelet sees its own pod arrive.`,
      },
      {
        when: (f) => readyPods(f).length >= (web(f)?.replicas ?? REPLICAS),
        text: (f) =>
          `The kubelets pull the image, start the containers through containerd and report back: ${readyPods(f).length} of ${web(f)!.replicas} pods Running and Ready. Actual state matches desired state.`,
      },
    ],
  }),
};

const scale: DemoDef = {
  id: 'scale',
  label: () => 'Scale 3 → 5 → 2',
  unavailable: needsWeb,
  start: () => ({
    actions: [{ type: 'scale', name: NAME, replicas: 5 }],
    memo: {},
    intro: "kubectl scale sets spec.replicas to 5 through the Deployment's scale subresource. Nothing else changes.",
    beats: [
      {
        when: (f) => livePods(f).length >= 5,
        text: (f) =>
          `The Deployment controller passes 5 on to its ReplicaSet, and the ReplicaSet controller creates the missing pods: ${livePods(f).length} now.`,
      },
      {
        when: (f) => readyPods(f).length >= 5,
        text: () => 'Five of five ready. Now down to 2: kubectl scale again.',
        then: () => [{ type: 'scale', name: NAME, replicas: 2 }],
      },
      {
        when: (f) => webPods(f).filter((p) => p.terminating).length > 0 || livePods(f).length <= 2,
        text: (f) => {
          const going = webPods(f)
            .filter((p) => p.terminating)
            .map((p) => p.name);
          // Deleted and gone within one step: nothing is left Terminating to name.
          if (!going.length)
            return `The ReplicaSet controller has deleted the extra pods; ${listOf(webPods(f).map((p) => p.name))} ${agree(webPods(f).length, 'remains', 'remain')}.`;
          return `The ReplicaSet controller picks ${count(going.length, 'pod')} to delete (${going.join(', ')}), ranked as Kubernetes ranks them: unscheduled, then not ready, then those doubled up on a node, then the youngest go first.`;
        },
      },
      {
        when: (f) => webPods(f).length === 2,
        text: (f) =>
          `Their kubelets stop the containers and confirm; ${listOf(webPods(f).map((p) => p.name))} ${agree(webPods(f).length, 'remains', 'remain')}.`,
      },
    ],
  }),
};

const selfHealing: DemoDef = {
  id: 'self-healing',
  label: () => 'Self-healing',
  unavailable: (f) => needsWeb(f) ?? (readyPods(f).length ? null : 'No pod of web is running yet.'),
  start: (f) => {
    const victim = readyPods(f)[0];
    return {
      actions: [{ type: 'delete-pod', pod: victim.name }],
      memo: {
        pod: victim.name,
        node: victim.node ?? '',
        ip: victim.ip ?? '',
        before: webPods(f)
          .map((p) => p.name)
          .join(','),
      },
      intro: `kubectl deletes pod ${victim.name}. The API server marks it Terminating, and the kubelet on ${victim.node} begins to stop its container.`,
      beats: [
        {
          when: (g, m) => livePods(g).some((p) => !String(m.before).split(',').includes(p.name)),
          text: (g, m) => {
            const fresh = livePods(g).filter((p) => !String(m.before).split(',').includes(p.name));
            return `The ReplicaSet controller counts one pod short of ${web(g)!.replicas} and creates ${fresh.map((p) => p.name).join(', ')}. Nobody told it to: the gap between desired and actual state is enough.`;
          },
        },
        {
          when: (g, m) => livePods(g).some((p) => !String(m.before).split(',').includes(p.name) && p.ready),
          text: (g, m) => {
            const p = livePods(g).find((x) => !String(m.before).split(',').includes(x.name) && x.ready)!;
            return `${p.name} runs on ${p.node} with IP ${p.ip}: a new name and a new IP. Nothing of ${m.pod} (${m.ip}) is reused.`;
          },
        },
      ],
    };
  },
};

const updateImage: DemoDef = {
  id: 'update-image',
  label: (f) => (web(f)?.image === IMAGES[1] ? 'Roll back' : 'Update image'),
  unavailable: needsWeb,
  start: (f) => {
    const from = web(f)!.image;
    const to = from === IMAGES[1] ? IMAGES[0] : IMAGES[1];
    const back = to === IMAGES[0];
    return {
      actions: [{ type: 'set-image', name: NAME, image: to }],
      memo: { from, to },
      intro: back
        ? `kubectl set image puts ${to} back into the pod template. That template matches the old ReplicaSet's, so Kubernetes scales that one up again instead of making a new one: the same as kubectl rollout undo here.`
        : `kubectl set image changes the pod template to ${to}. A new template means a new ReplicaSet; the Deployment controller moves pods over within maxSurge 25% (rounded up) and maxUnavailable 25% (rounded down).`,
      beats: [
        {
          when: (g) => (web(g)?.replicaSets.find((rs) => rs.image === to)?.replicas ?? 0) > 0,
          text: (g) => {
            const rs = web(g)!.replicaSets.find((x) => x.image === to)!;
            return `ReplicaSet ${rs.name} (${to}) is scaled up first, so the Deployment never has fewer ready pods than it needs while old ones go.`;
          },
        },
        {
          when: (g) => {
            const d = web(g);
            if (!d) return false;
            const fresh = livePods(g).filter((p) => p.image === to && p.ready);
            return (
              fresh.length >= d.replicas &&
              webPods(g).every((p) => p.image === to) &&
              d.replicaSets.every((rs) => rs.image === to || rs.replicas === 0)
            );
          },
          text: (g) =>
            `Rollout complete: ${count(web(g)!.replicas, 'pod')} ${agree(web(g)!.replicas, 'runs', 'run')} ${to}. The old ReplicaSet stays, scaled to 0, which is what makes a roll-back quick.`,
        },
      ],
    };
  },
};

const nodeDies: DemoDef = {
  id: 'node-3',
  label: (f) => (f.nodes.find((n) => n.name === DYING)?.powered === false ? 'Node-3 returns' : 'Node-3 dies'),
  unavailable: (f) => (f.nodes.some((n) => n.name === DYING) ? null : `This cluster has no ${DYING}.`),
  start: (f): DemoStart => {
    const node = f.nodes.find((n) => n.name === DYING)!;
    if (!node.powered) {
      return {
        actions: [{ type: 'node', node: DYING, action: 'start' }],
        memo: {},
        intro: `${DYING} powers on. Its kubelet starts afresh, renews the node's Lease and reports the node's status.`,
        beats: [
          {
            when: (g) => g.nodes.find((n) => n.name === DYING)?.ready === 'True',
            text: () => `${DYING} is Ready again, and the node-lifecycle controller lifts its unreachable taints.`,
          },
          {
            when: (g) => !g.pods.some((p) => p.node === DYING && p.terminating),
            text: (g) => {
              const left = g.pods.filter((p) => p.node === DYING).length;
              return left
                ? `The kubelet on ${DYING} finishes deleting the pods evicted while it was away. ${count(left, 'pod')} ${agree(left, 'runs', 'run')} there now.`
                : `Pods evicted while it was away are deleted for good; ${DYING} comes back empty. Kubernetes does not move pods back.`;
            },
          },
        ],
      };
    }
    const mine = webPods(f)
      .filter((p) => p.node === DYING && !p.terminating)
      .map((p) => p.name);
    return {
      actions: [{ type: 'node', node: DYING, action: 'stop' }],
      memo: { pods: mine.join(',') },
      intro: `${DYING} loses power, and its pods stop with it. Nobody tells the API server: the kubelet simply stops renewing the node's Lease, every 10 seconds.`,
      beats: [
        {
          when: (g) => {
            const n = g.nodes.find((x) => x.name === DYING);
            return (
              n?.ready === 'Unknown' &&
              n.taints.some((t) => t.key === 'node.kubernetes.io/unreachable' && t.effect === 'NoExecute')
            );
          },
          text: (g) =>
            `No Lease renewal for 50 seconds (the node-monitor grace period): the node-lifecycle controller sets ${DYING}'s Ready condition to Unknown and taints it node.kubernetes.io/unreachable, NoSchedule and NoExecute. ${podsMarked(g, DYING)}`,
        },
        {
          when: (g, m) =>
            !m.pods ||
            String(m.pods)
              .split(',')
              .every((name) => {
                const p = g.pods.find((x) => x.name === name);
                return !p || p.terminating;
              }),
          text: (_g, m) =>
            m.pods
              ? `300 seconds after the NoExecute taint (the pods' default toleration), the taint-eviction controller deletes ${String(m.pods).split(',').join(', ')}. ${agree(String(m.pods).split(',').length, 'It shows', 'They show')} Terminating: no kubelet is there to confirm.`
              : `${DYING} ran no pod of web, so the taint evicts nothing that matters here.`,
        },
        {
          when: (g) => {
            const d = web(g);
            return !d || readyPods(g).filter((p) => p.node !== DYING).length >= d.replicas;
          },
          text: (g) =>
            web(g)
              ? `The ReplicaSet controller has replaced them on the healthy nodes: ${readyPods(g).filter((p) => p.node !== DYING).length} of ${web(g)!.replicas} ready.`
              : 'Nothing else needs replacing.',
        },
      ],
    };
  },
};

const controlPlane: DemoDef = {
  id: 'control-plane',
  label: (f) => (f.controlPlane.apiserver ? 'Control plane down' : 'Control plane up'),
  unavailable: () => null,
  start: (f) =>
    f.controlPlane.apiserver
      ? {
          actions: [{ type: 'control-plane', action: 'stop' }],
          memo: {},
          intro:
            'The scheduler, the controller-manager, the API server and etcd stop. The kubelets keep their containers running: a cluster without a control plane keeps serving, it just cannot change. kubectl now gets "connection refused".',
          beats: [],
        }
      : {
          actions: [{ type: 'control-plane', action: 'start' }],
          memo: {},
          intro:
            "etcd, the API server, the controller-manager and the scheduler start again. The scheduler takes back the Lease it handed in as it stopped; the new controller-manager must wait until the old one's Lease has gone 15 s unrenewed. Each controller lists everything afresh before it acts, and the node-lifecycle controller gives every node a fresh grace period.",
          beats: [
            {
              when: (g) => g.nodes.every((n) => !n.powered || n.ready === 'True'),
              text: (g) =>
                `The kubelets have reported in: ${count(g.nodes.filter((n) => n.ready === 'True').length, 'node')} Ready. Anything that was waiting now catches up.`,
            },
          ],
        },
};

/** The `cluster` figure (home page, the reconcile-loop chapter). */
export const clusterFigure: FigureDef = {
  actions: figureActions,
  id: 'cluster',
  title: 'A cluster, live',
  options: { seed: 1, nodes: 3 },
  demos: [apply, scale, selfHealing, updateImage].map(refusedWhileDown).concat(nodeDies, controlPlane),
  story: ['apply', 'self-healing', 'scale', 'update-image'],
  leavesOut: [
    'One namespace and one kind of workload (a Deployment); no Services or kube-proxy traffic are drawn, though the EndpointSlice controller runs.',
    'Images are pulled from a simulated registry with fixed sizes and speeds; containers do nothing but run.',
    'The control plane is a single instance: one API server, one etcd member.',
    "The scheduler and the controller-manager each hold a leader-election Lease with no standby to take it. One that cannot renew its Lease for 10 s exits; its static pod's kubelet starts it again a second later (no CrashLoopBackOff is counted), and the new process starts its informers only once it leads, not before.",
    'Long waits (the 50 s grace period, the 300 s toleration) are real in the model; only the playback compresses them.',
  ],
};
