// The `replace-pod` widget (the reconcile-loop chapter): web runs three pods; one is deleted, and the
// ReplicaSet controller, counting two active pods against spec.replicas 3, creates a replacement
// under a new name. Nothing here is told why the pod went: the count alone drives the controller.
import type { Frame } from '../view/types.ts';
import { agree, count } from '../view/words.ts';
import type { DemoDef, FigureDef } from './demo.ts';
import { livePodsOf, readyPodsOf, setupDemo, webOf, webPodsOf } from './widget-web.ts';
import { figureActions } from './figure-actions.ts';

/** web's replicas here, as the chapter's chain quotes them. */
const REPLICAS = 3;

const before = (m: Record<string, string | number>): string[] => String(m.before).split(',');
const freshOf = (f: Frame, m: Record<string, string | number>) =>
  livePodsOf(f).filter((p) => !before(m).includes(p.name));

/** Deletes web's first pod by name (kubectl delete pod), and narrates the replacement. */
const deletePod: DemoDef = {
  id: 'delete-pod',
  label: () => 'Delete a pod',
  unavailable: (f) =>
    !webOf(f)
      ? 'The Deployment web does not exist yet.'
      : readyPodsOf(f).length
        ? null
        : 'No pod of web is running to delete.',
  start: (f) => {
    const victim = readyPodsOf(f)[0];
    return {
      actions: [{ type: 'delete-pod', pod: victim.name }],
      memo: {
        pod: victim.name,
        node: victim.node ?? '',
        before: webPodsOf(f)
          .map((p) => p.name)
          .join(','),
      },
      intro: `kubectl deletes ${victim.name}: the API server marks it Terminating, so the ReplicaSet controller no longer counts it as active.`,
      beats: [
        {
          when: (g, m) => freshOf(g, m).length > 0,
          text: (g, m) => {
            const d = webOf(g)!;
            const fresh = freshOf(g, m);
            return `The ReplicaSet controller counts ${livePodsOf(g).length - fresh.length} active ${agree(livePodsOf(g).length - fresh.length, 'pod', 'pods')} against spec.replicas ${d.replicas} and creates ${fresh.map((p) => p.name).join(', ')}: a new name, not the deleted ${m.pod} again.`;
          },
        },
        {
          when: (g, m) => freshOf(g, m).some((p) => p.ready) && !webPodsOf(g).some((p) => p.name === m.pod),
          text: (g, m) => {
            const p = freshOf(g, m).find((x) => x.ready)!;
            const n = readyPodsOf(g).length;
            return `${p.name} runs on ${p.node} with IP ${p.ip}, and ${m.pod} is gone: ${count(n, 'pod')} ${agree(n, 'is', 'are')} ready again, and nothing of the old pod was reused.`;
          },
        },
      ],
    };
  },
};

/** The `replace-pod` widget: a deleted pod and the replacement the ReplicaSet controller makes. */
export const replacePodWidget: FigureDef = {
  actions: figureActions,
  id: 'replace-pod',
  title: 'A deleted pod is replaced',
  options: { seed: 1, nodes: 3 },
  demos: [setupDemo(REPLICAS), deletePod],
  story: ['setup', 'delete-pod'],
  opening: 1,
  leavesOut: [
    'The widget opens with web already running; how it got there is the chain of controllers above.',
    'The pod is deleted with the default 30-second grace period; its container stops at once, as nginx does.',
    'Only one Deployment runs, so the ReplicaSet controller has nothing else to reconcile.',
  ],
};
