// Main-thread helpers of the scheduler figure's panel: which pod to show and how each table cell
// reads. They only format what the scheduler recorded; no verdict or score is computed here.
import type { NodeVerdict, PodScheduling, StatechartView, TolerationSpec } from '../../sim/index.ts';
import type { SchedulerDetail } from '../../sim/figures/scheduler-figure.ts';

/** CPU requests the reader may pick (Kubernetes quantities). */
export const CPU_CHOICES = ['100m', '250m', '500m', '1', '2', '3', '6'];
/** Memory requests the reader may pick. */
export const MEMORY_CHOICES = ['128Mi', '512Mi', '1Gi', '2Gi', '4Gi'];

const GPU: TolerationSpec = { key: 'dedicated', value: 'gpu', effect: 'NoSchedule' };
const GPU_TEXT = `${GPU.key}=${GPU.value}:${GPU.effect}`;

/** The toleration the figure offers, and how to find it among a pod's tolerations (as the detail lists them). */
export const GPU_TOLERATION = {
  spec: GPU,
  text: GPU_TEXT,
  has: (tolerations: string[]): boolean => tolerations.includes(GPU_TEXT),
  /** The pod's own tolerations to keep when it is replaced (the defaults are added again by admission). */
  ofPod: (tolerations: string[]): TolerationSpec[] => (tolerations.includes(GPU_TEXT) ? [GPU] : []),
};

/** The pod to show: the reader's choice while it exists, else a Pending one, else the one tried last. */
export function pickPod(d: SchedulerDetail, chosen: string | null): PodScheduling | undefined {
  const mine = chosen ? d.pods.find((p) => p.name === chosen) : undefined;
  if (mine) return mine;
  const pending = d.pods.filter((p) => !p.node);
  const pool = pending.length ? pending : d.pods;
  return [...pool].sort((a, b) => (b.attempt?.t ?? -1) - (a.attempt?.t ?? -1))[0];
}

/** The pod statechart to draw: the shown pod's while a kubelet holds it, else the first bound pod's (by name), else null. */
export function podChartOf(d: SchedulerDetail, shown: PodScheduling | undefined): StatechartView | null {
  const names = Object.keys(d.statechart.pods).sort();
  const name = shown && d.statechart.pods[shown.name] ? shown.name : names[0];
  const p = name === undefined ? undefined : d.statechart.pods[name];
  return p ? { chart: d.statechart.chart, ...p } : null;
}

const cpuText = (m: number): string => (m % 1000 === 0 ? `${m / 1000}` : `${m}m`);
const memText = (b: number): string => `${(b / 2 ** 30).toFixed(1)}Gi`;

/** "cpu 1800m/2, mem 3.0Gi/3.9Gi": what the pods already there request, against allocatable. */
export function roomText(n: SchedulerDetail['nodes'][number]): string {
  return `cpu ${cpuText(n.requestedCpuMilli)}/${cpuText(n.cpuMilli)}, mem ${memText(n.requestedMemoryBytes)}/${memText(n.memoryBytes)}`;
}

/** The filter column: "passes", or the plugin that rejected the node with its reasons. */
export function filterCell(n: NodeVerdict): string {
  return n.passed ? 'passes all' : `${n.plugin}: ${n.reasons.join(', ')}`;
}

/** A score column: "90 × 1 = 90", or a dash where the plugin did not score this node. */
export function scoreCell(n: NodeVerdict, plugin: string, weight: number, feasible: number): string {
  if (!n.passed) return '—';
  const s = n.scores.find((x) => x.plugin === plugin);
  if (!s) return feasible === 1 ? 'skipped' : '—';
  return `${s.normalized} × ${weight} = ${s.weighted}`;
}

/** A plugin's name short enough for a column head (the full name is its abbr title). */
export function shortPlugin(name: string): string {
  return (
    (
      {
        TaintToleration: 'Taints',
        NodeAffinity: 'Affinity',
        NodeResourcesFit: 'Fit',
        PodTopologySpread: 'Spread',
        NodeResourcesBalancedAllocation: 'Balanced',
      } as Record<string, string>
    )[name] ?? name
  );
}
