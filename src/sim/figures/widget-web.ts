// What the inline widgets share: the Deployment web each is about, read from the frame, and the
// setup demo each story begins with (web created and running), where a widget opens (FigureDef.opening).
import type { DeploymentView, Frame, PodView } from '../view/types.ts';
import { count, listOf } from '../view/words.ts';
import type { DemoDef } from './demo.ts';

/** The Deployment every widget is about, named as the chapters name it. */
export const WEB = 'web';
/** Its first image, as `kubectl create deployment web --image=nginx:1.27` gives it. */
export const WEB_IMAGE = 'nginx:1.27';

/** The Deployment web, if it exists. */
export function webOf(f: Frame): DeploymentView | undefined {
  return f.deployments.find((d) => d.name === WEB && d.namespace === 'default');
}

/** web's pods, bound or not, Terminating ones included, in name order. */
export function webPodsOf(f: Frame): PodView[] {
  const owners = new Set((webOf(f)?.replicaSets ?? []).map((rs) => `ReplicaSet/${rs.name}`));
  return [...f.pending, ...f.pods]
    .filter((p) => p.owner !== null && owners.has(p.owner))
    .sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
}

/** web's pods that are not being deleted. */
export const livePodsOf = (f: Frame): PodView[] => webPodsOf(f).filter((p) => !p.terminating);

/** web's pods Running and Ready. */
export const readyPodsOf = (f: Frame): PodView[] => livePodsOf(f).filter((p) => p.ready && p.phase === 'Running');

/** web exists with all its replicas Ready and the Deployment controller has said the rollout is complete. */
export function webSettled(f: Frame, replicas: number): boolean {
  const d = webOf(f);
  return (
    !!d && readyPodsOf(f).length === replicas && livePodsOf(f).length === replicas && d.rollout?.state === 'complete'
  );
}

/** The setup a widget's story begins with: kubectl creates web with `replicas` pods, and the story pauses once they all run. */
export function setupDemo(replicas: number, extra: Partial<{ intro: string }> = {}): DemoDef {
  return {
    id: 'setup',
    label: () => `Create ${WEB}`,
    unavailable: (f) => (webOf(f) ? `The Deployment ${WEB} exists already.` : null),
    start: () => ({
      actions: [{ type: 'apply', name: WEB, image: WEB_IMAGE, replicas }],
      memo: {},
      intro: extra.intro ?? `kubectl creates the Deployment ${WEB}: ${count(replicas, 'replica')} of ${WEB_IMAGE}.`,
      beats: [
        {
          when: (f) => webSettled(f, replicas),
          text: (f) =>
            `${WEB} runs ${count(replicas, 'pod')} of ReplicaSet ${webOf(f)!.replicaSets[0].name}: ${listOf(readyPodsOf(f).map((p) => `${p.name} on ${p.node}`))}.`,
        },
      ],
    }),
  };
}
