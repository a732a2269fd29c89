// The `image-backoff` widget (the troubleshooting chapter): web runs three pods of nginx:1.27; an upgrade
// to nginx:1.28 is typed as nginx:1.288, a tag the registry does not have. The new pod's pull fails
// (ErrImagePull), and the kubelet waits before each next pull (ImagePullBackOff), 10 s, then 20, then
// 40, doubling up to 300 s. The timeline is containerd's PullImage calls from the request log, with the
// kubelet's own back-off entry for the pod; the reader's fix (the right tag) makes a new pod that starts.
import type { Cluster } from '../cluster.ts';
import type { Frame, PodView } from '../view/types.ts';
import { count } from '../view/words.ts';
import type { DemoDef, DemoMemo, DemoStart, FigureDef } from './demo.ts';
import { podTroublesOf, type PodBackoff } from './pod-trouble.ts';
import { readyPodsOf, setupDemo, WEB, WEB_IMAGE, webOf, webPodsOf } from './widget-web.ts';
import { figureActions } from './figure-actions.ts';

/** web's replicas, as the other widgets have them. */
const REPLICAS = 3;
/** The tag meant. */
export const GOOD_IMAGE = 'nginx:1.28';
/** The tag typed: one digit too many, and no such tag in the registry. */
export const BAD_IMAGE = 'nginx:1.288';
/** How many PullImage calls the timeline lists (the latest). */
const SHOWN = 6;

/** One PullImage call of containerd, as the timeline shows it. */
type PullRow = {
  t: number;
  node: string;
  image: string;
  ok: boolean;
};

/** What the widget reads beside the Frame: the pulls of any image but the setup's, and the pod waiting on the bad one. */
export type ImageBackoffDetail = {
  pulls: PullRow[];
  /** The pod of the bad tag, its STATUS, and the kubelet's pull back-off for it (null once it is gone). */
  stuck: { pod: string; status: string; backoff: PodBackoff | null } | null;
};

/** The short image name from the reference containerd logs (`docker.io/library/nginx:1.288` → `nginx:1.288`). */
const shortImage = (ref: string): string => ref.replace(/^docker\.io\/library\//, '');

/** containerd's PullImage calls for every image but web's first (the setup's pulls are not the story), the latest SHOWN. */
function pullsOf(cluster: Cluster): PullRow[] {
  const rows: PullRow[] = [];
  for (const r of cluster.world.state.log) {
    if (r.kind !== 'cri' || r.verb !== 'PullImage' || !r.object) continue;
    const image = shortImage(r.object);
    if (image === WEB_IMAGE) continue;
    rows.push({ t: r.t, node: r.node ?? '', image, ok: r.code === 0 });
  }
  return rows.slice(-SHOWN);
}

/** The widget's detail: the pulls, and the pod stuck on the bad tag with the kubelet's back-off for it. */
function imageBackoffDetailOf(cluster: Cluster): ImageBackoffDetail {
  const stuck = podTroublesOf(cluster, WEB).find(
    (p) => !p.terminating && (p.reason === 'ErrImagePull' || p.reason === 'ImagePullBackOff'),
  );
  return {
    pulls: pullsOf(cluster),
    stuck: stuck ? { pod: stuck.name, status: stuck.reason ?? '', backoff: stuck.backoff } : null,
  };
}

const detailOf = (d: ImageBackoffDetail | null): ImageBackoffDetail | null => (d ? d : null);
const badPod = (f: Frame): PodView | undefined => webPodsOf(f).find((p) => p.image === BAD_IMAGE && !p.terminating);
const seconds = (f: Frame, m: DemoMemo): number => Math.round((f.t - Number(m.at)) / 1000);
/** The failed pulls of the bad tag so far, as seconds after the first. */
function failedPullTimes(d: ImageBackoffDetail | null): number[] {
  const fails = (d?.pulls ?? []).filter((p) => !p.ok && p.image === BAD_IMAGE);
  return fails.map((p) => Math.round((p.t - fails[0].t) / 1000));
}
/** Keeps the pulls' times in the memo (a beat's text sees the frame and the memo only). Returns true. */
function holdPulls(m: DemoMemo, d: ImageBackoffDetail | null): true {
  m.pulls = failedPullTimes(d)
    .map((s) => `${s} s`)
    .join(', ');
  m.wait = d?.stuck?.backoff?.waitS ?? 0;
  return true;
}

/** The break (the mistyped tag), or, once web has it, the fix (the tag meant). */
const image: DemoDef<ImageBackoffDetail> = {
  id: 'image',
  label: (f) => (webOf(f)?.image === BAD_IMAGE ? `Fix the tag (${GOOD_IMAGE})` : `Upgrade to ${BAD_IMAGE}`),
  unavailable: (f) =>
    !webOf(f) ? 'Create web first.' : !f.controlPlane.apiserver ? 'The API server is stopped.' : null,
  start: (f): DemoStart<ImageBackoffDetail> => {
    if (webOf(f)!.image === BAD_IMAGE) return fix(f);
    return {
      actions: [
        { type: 'image-fault', image: BAD_IMAGE, state: 'missing' },
        { type: 'set-image', name: WEB, image: BAD_IMAGE },
      ],
      memo: { at: f.t },
      intro: `kubectl set image deployment/web nginx=${BAD_IMAGE}: the upgrade to ${GOOD_IMAGE}, with one digit too many. The registry has no such tag. The Deployment controller starts a rollout with one new pod; no old pod goes before it is available.`,
      beats: [
        {
          when: (g) => badPod(g)?.status === 'ErrImagePull',
          text: (g) => {
            const p = badPod(g)!;
            return `The kubelet on ${p.node} asked containerd to pull ${BAD_IMAGE}, and the registry answered NotFound: ${p.name} shows ErrImagePull.`;
          },
        },
        {
          when: (g, m, detail) => badPod(g)?.status === 'ImagePullBackOff' && holdPulls(m, detailOf(detail())),
          text: (g, m) =>
            `STATUS ImagePullBackOff: the kubelet waits ${m.wait} s before it pulls again (pulls so far at ${m.pulls}). ${count(readyPodsOf(g).length, 'old pod')} of ${WEB_IMAGE} still serve.`,
        },
        {
          when: (g, m, detail) => {
            const d = detailOf(detail());
            return (d?.stuck?.backoff?.waitS ?? 0) >= 40 && holdPulls(m, d);
          },
          text: (g, m) =>
            `Pulls failed at ${m.pulls} (counted from the first): each wait twice the last, 10 s, 20 s, now ${m.wait} s, up to 300 s. The rollout waits with it, ${seconds(g, m)} s in.`,
        },
      ],
    };
  },
};

/** The fix: the tag meant. A new ReplicaSet's pod has no back-off of its own, so it pulls at once. */
function fix(f: Frame): DemoStart<ImageBackoffDetail> {
  const stuck = badPod(f);
  return {
    actions: [{ type: 'set-image', name: WEB, image: GOOD_IMAGE }],
    memo: { at: f.t, pod: stuck?.name ?? '' },
    intro: `kubectl set image deployment/web nginx=${GOOD_IMAGE}: the tag meant.${stuck ? ` ${stuck.name} is still in its back-off.` : ''}`,
    beats: [
      {
        when: (g, m) =>
          readyPodsOf(g).some((p) => p.image === GOOD_IMAGE) &&
          !webPodsOf(g).some((p) => p.name === String(m.pod) && !p.terminating),
        text: (g, m) => {
          const p = readyPodsOf(g).find((x) => x.image === GOOD_IMAGE)!;
          return `${p.name} pulled ${GOOD_IMAGE} and runs, ${seconds(g, m)} s after the fix: a new pod has no back-off to wait out.${m.pod ? ` The Deployment controller scaled the broken ReplicaSet to 0, and ${m.pod} is gone.` : ''} The rollout goes on.`;
        },
      },
    ],
  };
}

/** The `image-backoff` widget: a tag that does not exist, the kubelet's pull back-off, and the fix. */
export const imageBackoffWidget: FigureDef<ImageBackoffDetail> = {
  actions: figureActions,
  id: 'image-backoff',
  title: 'An image that does not exist',
  options: { seed: 1, nodes: 3 },
  demos: [setupDemo(REPLICAS), image],
  story: ['setup', 'image', 'image'],
  opening: 1,
  leavesOut: [
    `The widget opens with web running 3 pods of ${WEB_IMAGE}; the registry knows every tag but ${BAD_IMAGE}.`,
    "The timeline lists containerd's PullImage calls from the request log, the latest six; a private registry's 401 and pull secrets are not modelled.",
    'The kubelet runs with its defaults: the pull back-off starts at 10 s and doubles to 300 s, per pod and image.',
  ],
  detail: imageBackoffDetailOf,
};
