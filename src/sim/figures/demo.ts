// A demo is one thing a reader can do to a figure's cluster with a button, and the beats at which
// its story pauses to say what Kubernetes just did. Beats are predicates over frames, not fixed
// times, so a demo pressed at any moment (mid-rollout, during an outage) narrates what happens then.
import type { RequestChecks } from '../apiserver/config.ts';
import type { Cluster } from '../cluster.ts';
import type { ClusterAddon, ClusterOptions } from '../cluster-types.ts';
import type { Frame } from '../view/types.ts';
import type { FigureAction } from './actions.ts';
import type { FigureActions } from './figure-actions.ts';

/** What a demo remembers from the moment it was pressed (the pod it deleted, the image it replaced). */
export type DemoMemo = Record<string, string | number>;

/** One beat of a demo: when it holds, the narration pauses with its text (and the demo may act again). D: its figure's detail type. */
export interface DemoBeat<D = FigureDetail> {
  /**
   * True once the cluster has reached this beat. `detail` gives the figure's own data at this frame
   * (FigureDef.detail), for a moment the Frame does not show (a scheduling attempt that failed).
   */
  when(f: Frame, memo: DemoMemo, detail: () => D | null): boolean;
  /** What the narration says at the beat. */
  text(f: Frame, memo: DemoMemo): string;
  /** Further actions made at the beat (scale 3 → 5, then → 2). */
  then?(f: Frame, memo: DemoMemo): FigureAction[];
}

/** What pressing a demo does at this moment. */
export interface DemoStart<D = FigureDetail> {
  actions: FigureAction[];
  memo: DemoMemo;
  /** Said at the step of the first action. */
  intro: string;
  beats: DemoBeat<D>[];
}

/** A demo button of a figure. D: its figure's detail type, which its beats may read. */
export interface DemoDef<D = FigureDetail> {
  id: string;
  /** The button's label at this moment (toggles say what they will do next). */
  label(f: Frame): string;
  /** Null when the demo can be pressed now, else why not. */
  unavailable(f: Frame): string | null;
  start(f: Frame): DemoStart<D>;
}

/** The cluster a figure is built on: its seed, its number of workers and, optionally, their sizes. */
export type FigureClusterOptions = Required<Pick<ClusterOptions, 'seed' | 'nodes'>> &
  Pick<ClusterOptions, 'nodeCapacity'>;

/**
 * A figure: its cluster, its demos, its default story (demo ids in order) and its note. D is the type
 * of its own data beside the Frame (`detail`), which its view carries as FigureView<D>. A FigureDef of
 * any D is a FigureDef<unknown>, as the registry, the host and the tests hold it (`detail` returns D,
 * so a FigureDef<D> is one without a cast).
 */
export interface FigureDef<D = unknown> {
  id: string;
  title: string;
  options: FigureClusterOptions;
  demos: DemoDef<D>[];
  /** The default story: these demos, each run to its last beat, one after another. */
  story: string[];
  leavesOut: string[];
  /**
   * The story beat (an index into its beats) the figure opens at, and resets and steps back to no
   * further: an inline widget's story begins with a setup (the Deployment it is about, running), and
   * the reader starts from there. Unset: step 0, the cluster as it starts.
   */
  opening?: number;
  /**
   * A demo the reader composes (a widget's numbers in its id, `rollout:5:2:0`): made on request when
   * no listed demo has the id, or null when the id is not one of its own.
   */
  demoFor?(id: string): DemoDef<D> | null;
  /**
   * What this figure shows beyond the Frame (a statechart's state and reason, a scheduling table),
   * read from the cluster through the core's readers; plain JSON, sent with every view.
   */
  detail?(cluster: Cluster, frame: Frame): D;
  /**
   * The add-ons its cluster runs (kube-proxy, CoreDNS, a client), made fresh for each cluster; a
   * function, so their code loads with the figure's chunk and the compiled story's options stay JSON.
   */
  addons?(): ClusterAddon[];
  /** How its demos' and panels' actions run, read and echo (figure-actions.ts): with the figure's chunk, not the core. */
  actions: FigureActions;
  /**
   * The API server's request checks (apiserver/request-checks.ts), for a figure whose own actions
   * they can refuse (a reader's numbers); with the figure's chunk. Others run without them until
   * kubectl brings them: request-checks-part.test.ts shows that changes nothing they can do.
   */
  checks?: RequestChecks;
}

/** A figure's own data beside the Frame: plain JSON values only. */
export type FigureDetail = { [key: string]: JsonValue };
/** A JSON value. */
export type JsonValue = string | number | boolean | null | JsonValue[] | { [key: string]: JsonValue };
