// The `proxy-pick` widget (the networking chapter): node-1's KUBE-SVC chain for the Service web, one
// rule per ready endpoint, each matching with the probability kube-proxy printed into it (1/n, then
// 1/(n-1) … 1/2, and the last rule without a match). The reader picks web's replica count; kubectl
// scales, and the widget shows the rules kube-proxy writes for the new set of endpoints.
import type { Frame } from '../view/types.ts';
import { count } from '../view/words.ts';
import type { DemoDef, DemoMemo, DemoStart, FigureDef } from './demo.ts';
import {
  RULES_NODE,
  serviceSettled,
  serviceSetupDemo,
  serviceWebAddons,
  serviceWebDetailOf,
  serviceWebOf,
  type ServiceWebDetail,
} from './service-web.ts';
import { WEB, webOf } from './widget-web.ts';
import { figureActions } from './figure-actions.ts';

/** web's replicas as the widget opens (the chapter's example). */
const REPLICAS = 3;
/** The replica counts a reader may pick. */
const SCALE_CHOICES = [1, 2, 3, 4, 5, 6] as const;

/** The demo id for a replica count: `scale:<replicas>`. */
export const scaleDemoId = (replicas: number): string => `scale:${replicas}`;

/** Reads a demo id back into a replica count, or null when it is not one the widget offers. */
export function parseScaleDemoId(id: string): number | null {
  const m = /^scale:(\d+)$/.exec(id);
  const n = m ? Number(m[1]) : NaN;
  return (SCALE_CHOICES as readonly number[]).includes(n) ? n : null;
}

/** The rules' probabilities in words, kept in the memo for the beat's text (which sees the frame and the memo only). Returns true. */
function holdRules(m: DemoMemo, d: ServiceWebDetail | null): true {
  const p = d?.picks ?? [];
  m.probabilities = p.map((x) => x.probability ?? 'no match (the rest)').join(', ');
  m.rules = p.length;
  return true;
}

/** kubectl scale web --replicas=N, narrated until node-1's rules hold N endpoints. */
function scaleDemo(replicas: number): DemoDef<ServiceWebDetail> {
  return {
    id: scaleDemoId(replicas),
    label: () => `Scale web to ${replicas}`,
    unavailable: (f: Frame) =>
      !webOf(f) ? 'Create web first.' : f.controlPlane.apiserver ? null : 'The API server is stopped.',
    start: (f): DemoStart<ServiceWebDetail> => ({
      actions: webOf(f)!.replicas === replicas ? [] : [{ type: 'scale', name: WEB, replicas }],
      memo: { at: f.t, to: replicas, from: webOf(f)!.replicas },
      intro:
        webOf(f)!.replicas === replicas
          ? `web has ${count(replicas, 'replica')} already: nothing to scale, and the rules stay as they are.`
          : `kubectl scale deployment web --replicas=${replicas}: from ${webOf(f)!.replicas} to ${replicas}.`,
      beats: [
        {
          when: (g, m, detail) => {
            const d = serviceWebOf(detail());
            return serviceSettled(g, d, Number(m.to)) && (d?.picks.length ?? 0) === Number(m.to) && holdRules(m, d);
          },
          text: (g, m) => {
            const n = Number(m.rules);
            const after = Math.round((g.t - Number(m.at)) / 1000);
            const lead =
              Number(m.from) === n
                ? `${RULES_NODE}'s rules are unchanged`
                : `${after ? `${after} s later` : 'Within a second'} kube-proxy on ${RULES_NODE} had rewritten its rules for ${count(n, 'ready endpoint')}`;
            return n === 1
              ? `${lead}: one rule with no statistic match, so its one endpoint takes every new connection.`
              : `${lead}: the rules match with probability ${m.probabilities}, tried in order, so each endpoint gets 1 in ${n} new connections.`;
          },
        },
      ],
    }),
  };
}

/** The `proxy-pick` widget: kube-proxy's per-endpoint probabilities for the reader's replica count. */
export const proxyPickWidget: FigureDef<ServiceWebDetail> = {
  actions: figureActions,
  id: 'proxy-pick',
  title: 'How kube-proxy picks a pod',
  options: { seed: 1, nodes: 3 },
  addons: serviceWebAddons,
  demos: [serviceSetupDemo(REPLICAS), scaleDemo(4)],
  story: ['setup', scaleDemoId(4)],
  opening: 1,
  demoFor: (id) => {
    const n = parseScaleDemoId(id);
    return n === null ? null : scaleDemo(n);
  },
  leavesOut: [
    "The widget opens with web running 3 pods behind the Service web; the rules shown are node-1's, and every node writes the same ones.",
    `Replicas go from 1 to ${SCALE_CHOICES[SCALE_CHOICES.length - 1]}; kube-proxy writes the same pattern for any number of endpoints.`,
    "The share is each rule's probability times what the rules before it left over: the kernel draws one random number per rule, per new connection.",
  ],
  detail: serviceWebDetailOf,
};
