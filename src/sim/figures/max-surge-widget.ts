// The `max-surge` widget (the rolling-updates chapter): the reader picks web's replicas, maxSurge and
// maxUnavailable; kubectl stores them, and a real rollout to the other image runs on those numbers.
// The arithmetic it shows is the Deployment controller's own (deployment-util: resolveFenceposts,
// then rolloutRollingStep over the stored Deployment), never redone here.
import { REQUEST_CHECKS } from '../apiserver/request-checks.ts';
import type { Deployment, ReplicaSet } from 'kubernetes-types/apps/v1';
import type { Cluster } from '../cluster.ts';
import { storeGet } from '../view/stored.ts';
import {
  reconcileOldReplicaSets,
  resolveFenceposts,
  rolloutRollingStep,
  rollingUpdateParams,
  specReplicas,
} from '../controllers/deployment-util.ts';
import type { Frame } from '../view/types.ts';
import { agree, count } from '../view/words.ts';
import type { IntOrPercent } from './actions.ts';
import type { DemoDef, DemoMemo, DemoStart, FigureDef, FigureDetail } from './demo.ts';
import { livePodsOf, readyPodsOf, setupDemo, WEB, webOf } from './widget-web.ts';
import { figureActions } from './figure-actions.ts';

/** web's replicas as the widget opens (the chapter's example). */
const REPLICAS = 3;
/** The two images a rollout moves between. */
const IMAGES = ['nginx:1.27', 'nginx:1.28'] as const;
/** The replica counts a reader may pick. */
const REPLICA_CHOICES = [1, 2, 3, 4, 5, 6, 7, 8, 9, 10] as const;
/** The maxSurge / maxUnavailable values a reader may pick: counts and percentages, as the API takes them. */
const LIMIT_CHOICES = ['0', '1', '2', '3', '25%', '50%', '100%'] as const;

/** A reader's numbers, as the demo id carries them. */
interface RolloutNumbers {
  replicas: number;
  maxSurge: IntOrPercent;
  maxUnavailable: IntOrPercent;
}

/** The demo id for a reader's numbers: `rollout:<replicas>:<maxSurge>:<maxUnavailable>`. */
export function rolloutDemoId(n: RolloutNumbers): string {
  return `rollout:${n.replicas}:${n.maxSurge}:${n.maxUnavailable}`;
}

const asIntOrPercent = (s: string): IntOrPercent => (/^\d+$/.test(s) ? Number(s) : s);

/** Reads a demo id back into numbers, or null when it is not one the widget offers. */
export function parseRolloutDemoId(id: string): RolloutNumbers | null {
  const m = /^rollout:(\d+):([^:]+):([^:]+)$/.exec(id);
  if (!m) return null;
  const replicas = Number(m[1]);
  if (!(REPLICA_CHOICES as readonly number[]).includes(replicas)) return null;
  if (!(LIMIT_CHOICES as readonly string[]).includes(m[2]) || !(LIMIT_CHOICES as readonly string[]).includes(m[3]))
    return null;
  return { replicas, maxSurge: asIntOrPercent(m[2]), maxUnavailable: asIntOrPercent(m[3]) };
}

/** Both limits literally zero: the API's validation refuses the patch ("may not be 0 when `maxSurge` is 0"). */
const refusedByValidation = (n: RolloutNumbers): boolean =>
  /^0%?$/.test(String(n.maxSurge)) && /^0%?$/.test(String(n.maxUnavailable));

const otherImage = (f: Frame): string => (webOf(f)?.image === IMAGES[1] ? IMAGES[0] : IMAGES[1]);

/** The stored Deployment web (the controller's input). */
function storedWeb(cluster: Cluster): Deployment | undefined {
  return storeGet(cluster.world.state.store, 'deployments', `/registry/deployments/default/${WEB}`) as
    Deployment | undefined;
}

/** The controller's arithmetic over the stored Deployment, and the first rollout step it allows from a settled ReplicaSet. */
function arithmeticOf(d: Deployment): FigureDetail {
  const replicas = specReplicas(d);
  const p = rollingUpdateParams(d);
  const { surge, unavailable } = resolveFenceposts(p.maxSurge, p.maxUnavailable, replicas);
  // Both rounded to 0: ResolveFenceposts raises maxUnavailable to 1 so the rollout can move.
  const repaired = surge === 0 && rawUnavailable(p.maxUnavailable, replicas) === 0;
  // The first pass from a settled rollout: every old pod available, the new ReplicaSet at 0.
  const old: ReplicaSet = {
    metadata: { name: 'old', creationTimestamp: '2026-01-01T00:00:00Z' },
    spec: { replicas, selector: {} },
    status: { replicas, availableReplicas: replicas },
  };
  const fresh: ReplicaSet = {
    metadata: { name: 'new', creationTimestamp: '2026-01-01T00:00:01Z' },
    spec: { replicas: 0, selector: {} },
    status: { replicas: 0 },
  };
  const first = rolloutRollingStep(d, fresh, [old]);
  const up = first.phase === 'scaleUpNew' ? first.actions[0].to : 0;
  // The pass after it, before any new pod is available: how many old pods may go at once.
  const grown: ReplicaSet = {
    ...fresh,
    spec: { ...fresh.spec!, replicas: up },
    status: { replicas: up, availableReplicas: 0 },
  };
  const down = reconcileOldReplicaSets([old, grown], [old], grown, d);
  const oldTo = down.actions.length ? down.actions[down.actions.length - 1].to : replicas;
  return {
    replicas,
    maxSurge: p.maxSurge,
    maxUnavailable: p.maxUnavailable,
    surge,
    unavailable,
    repaired,
    mostPods: replicas + surge,
    fewestAvailable: replicas - Math.min(unavailable, replicas),
    firstNew: up,
    firstOld: oldTo,
  };
}

/** maxUnavailable scaled down before the both-zero repair (what the reader's value rounds to). */
function rawUnavailable(v: IntOrPercent, replicas: number): number {
  return resolveFenceposts(1, v, replicas).unavailable;
}

/** The rollout on the reader's numbers: store them (scale and the strategy patch), then change the image once web has settled. */
function rolloutDemo(n: RolloutNumbers): DemoDef {
  const id = rolloutDemoId(n);
  return {
    id,
    label: () => 'Roll out these numbers',
    unavailable: (f) =>
      !webOf(f)
        ? 'The Deployment web does not exist yet.'
        : f.controlPlane.apiserver
          ? null
          : 'The API server is stopped.',
    start: (f): DemoStart => {
      const to = otherImage(f);
      const patch = { type: 'strategy' as const, name: WEB, maxSurge: n.maxSurge, maxUnavailable: n.maxUnavailable };
      if (refusedByValidation(n)) {
        return {
          actions: [patch],
          memo: {},
          intro: `kubectl asks for maxSurge ${n.maxSurge} and maxUnavailable ${n.maxUnavailable}; validation refuses it (maxUnavailable may not be 0 when maxSurge is 0: no rollout could ever move), and web keeps its old limits.`,
          beats: [],
        };
      }
      const scale =
        webOf(f)!.replicas === n.replicas ? [] : [{ type: 'scale' as const, name: WEB, replicas: n.replicas }];
      return {
        actions: [...scale, patch],
        memo: { to, replicas: n.replicas, maxSurge: String(n.maxSurge), maxUnavailable: String(n.maxUnavailable) },
        intro: `kubectl stores your numbers in web: ${count(n.replicas, 'replica')}, maxSurge ${n.maxSurge}, maxUnavailable ${n.maxUnavailable}. Once ${agree(n.replicas, 'its pod runs', `all ${n.replicas} run`)}, it changes the image to ${to}.`,
        beats: [
          {
            when: (g, m) =>
              readyPodsOf(g).length === Number(m.replicas) &&
              livePodsOf(g).length === Number(m.replicas) &&
              webOf(g)?.rollout?.state === 'complete',
            text: (_g, m) =>
              `web holds your numbers (${count(Number(m.replicas), 'replica')}, maxSurge ${m.maxSurge}, maxUnavailable ${m.maxUnavailable}) and ${agree(Number(m.replicas), 'its pod is', `all ${m.replicas} pods are`)} ready; kubectl set image changes the template to ${m.to}, and the rollout begins.`,
            then: (_g, m) => [{ type: 'set-image', name: WEB, image: String(m.to) }],
          },
          {
            when: (g, m) => firstMove(g, m) !== null,
            text: (g, m) => firstMove(g, m)!,
          },
          {
            when: (g, m) => {
              const d = webOf(g);
              return (
                !!d &&
                d.rollout?.state === 'complete' &&
                livePodsOf(g).length === d.replicas &&
                livePodsOf(g).every((p) => p.image === m.to && p.ready)
              );
            },
            text: (g, m) =>
              `Rollout complete: ${count(webOf(g)!.replicas, 'pod')} ${agree(webOf(g)!.replicas, 'runs', 'run')} ${m.to}, each step within the limits above.`,
          },
        ],
      };
    },
  };
}

/** The first move the controller made on the new template, said from the frame, or null before it. */
function firstMove(g: Frame, m: DemoMemo): string | null {
  const d = webOf(g);
  if (!d) return null;
  const fresh = d.replicaSets.find((rs) => rs.image === m.to && rs.replicas > 0);
  const old = d.replicaSets.filter((rs) => rs.image !== m.to);
  const oldSum = old.reduce((s, rs) => s + rs.replicas, 0);
  if (!fresh && oldSum >= d.replicas) return null;
  const pods = livePodsOf(g).length;
  const moves = [
    fresh ? `new ReplicaSet ${fresh.name} scaled up to ${fresh.replicas}` : null,
    oldSum < d.replicas ? `the old one down to ${oldSum}` : null,
  ]
    .filter(Boolean)
    .join(', ');
  return `The controller's first move: ${moves}. ${count(pods, 'pod')} exist, ${readyPodsOf(g).length} of them ready.`;
}

/** The `max-surge` widget: the reader's rollout numbers, resolved and run. */
export const maxSurgeWidget: FigureDef = {
  actions: figureActions,
  // The API server's request checks: the reader's maxSurge 0 and maxUnavailable 0 are refused by ValidateDeployment.
  checks: REQUEST_CHECKS,
  id: 'max-surge',
  title: 'maxSurge and maxUnavailable, resolved',
  options: { seed: 1, nodes: 3 },
  demos: [setupDemo(REPLICAS), rolloutDemo({ replicas: REPLICAS, maxSurge: '25%', maxUnavailable: '25%' })],
  story: ['setup', rolloutDemoId({ replicas: REPLICAS, maxSurge: '25%', maxUnavailable: '25%' })],
  opening: 1,
  demoFor: (id) => {
    const n = parseRolloutDemoId(id);
    return n ? rolloutDemo(n) : null;
  },
  leavesOut: [
    'The widget opens with web running 3 pods of nginx:1.27 and the default limits; its story rolls out nginx:1.28 with them.',
    'Pods become ready as soon as their container starts (no readiness probe), so each rollout step follows the last within a second or two.',
    'Replicas go up to 10 and the limits to a few counts and percentages; the API takes any whole number or percentage.',
  ],
  detail: (cluster): FigureDetail => {
    const d = storedWeb(cluster);
    return { arithmetic: d ? arithmeticOf(d) : null };
  },
};
