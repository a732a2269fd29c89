// The node-failure figure's hero: the five things that happen, in order, when a node goes quiet —
// the Lease stops being renewed, the grace period runs out, the node-lifecycle controller marks it
// Unknown and taints it, each pod's toleration runs down, the pods are evicted — with where the
// frame stands among them. Every word is computed from the frame's clock and countdowns.
import type { LeaseClock, PodCountdown } from '../../sim/index.ts';

/** One stage of a node's failure, as the timeline draws it. */
interface FailureStage {
  id: 'renewing' | 'grace' | 'tainted' | 'toleration' | 'evicted';
  /** Where the frame stands: this stage is over, happening now, or still to come. */
  at: 'done' | 'now' | 'later';
  /** Its name on the track. */
  title: string;
  /** What it says at this frame ("37 s of 50 s without a renewal"). */
  detail: string;
  /** How far through it the frame is, 0…1, for the stage happening now (null otherwise). */
  progress: number | null;
}

/** The stage the frame is in: 0 renewing … 4 evicted. */
function stageIndex(clock: LeaseClock, pods: readonly PodCountdown[]): number {
  if (pods.some((p) => p.terminating)) return 4;
  if (pods.some((p) => p.remainingS !== null)) return 3;
  if (clock.ready !== 'True') return 2;
  if (clock.quietS !== null && clock.quietS > clock.renewEveryS) return 1;
  return 0;
}

/** The timeline of a node's failure at one frame: five stages, each done, now, or later. */
export function failureTimeline(clock: LeaseClock, pods: readonly PodCountdown[]): FailureStage[] {
  const now = stageIndex(clock, pods);
  const at = (i: number): FailureStage['at'] => (i < now ? 'done' : i === now ? 'now' : 'later');
  const grace = clock.graceS ?? 50;
  const quiet = clock.quietS === null ? null : Math.min(clock.quietS, grace);
  const counting = pods.filter((p) => p.remainingS !== null && p.tolerationSeconds !== null);
  const least = counting.length ? Math.min(...counting.map((p) => p.remainingS!)) : null;
  const toleration =
    counting[0]?.tolerationSeconds ?? pods.find((p) => p.tolerationSeconds !== null)?.tolerationSeconds ?? 300;
  const gone = pods.filter((p) => p.terminating).length;
  const plural = (n: number, one: string, many: string) => `${n} ${n === 1 ? one : many}`;
  return [
    {
      id: 'renewing',
      at: at(0),
      title: 'Lease renewed',
      detail:
        clock.leaseAgeS === null
          ? 'never renewed yet'
          : `every ${clock.renewEveryS} s by the kubelet; last ${clock.leaseAgeS} s ago`,
      progress: null,
    },
    {
      id: 'grace',
      at: at(1),
      title: `${grace} s grace`,
      detail:
        clock.graceS === null
          ? 'not counted: the controller is not running'
          : now < 1
            ? `${grace} s without a renewal before the controller acts`
            : now === 1
              ? `${quiet} s of ${grace} s without a renewal`
              : `over: ${grace} s without a renewal`,
      progress: now === 1 && quiet !== null ? quiet / grace : null,
    },
    {
      id: 'tainted',
      at: at(2),
      title: 'Unknown, tainted',
      detail: `Ready ${now < 2 ? 'becomes Unknown' : `is ${clock.ready}`}; unreachable taints ${now < 2 ? 'added' : 'on'}`,
      progress: null,
    },
    {
      id: 'toleration',
      at: at(3),
      title: `${toleration} s toleration`,
      detail:
        now < 3
          ? `each pod tolerates the taint for ${toleration} s`
          : now === 3 && least !== null
            ? `${least} s of ${toleration} s left (${plural(counting.length, 'pod', 'pods')})`
            : 'used up',
      progress: now === 3 && least !== null ? 1 - least / toleration : null,
    },
    {
      id: 'evicted',
      at: at(4),
      title: 'Evicted',
      detail: `${now < 4 ? 'its pods are' : plural(gone, 'pod', 'pods')} deleted (Terminating); replacements go elsewhere`,
      progress: null,
    },
  ];
}
