// What a figure's own panel (FigureShell's `panel` snippet) gets beside the view: one way to change
// the cluster, through the figure's machine, so the change is a recorded action like a demo's.
import type { FigureAction } from '../../sim/index.ts';

/** A panel's controls: make an action on the live cluster; whether the figure is live yet. */
export interface PanelControls {
  act(action: FigureAction): void;
  readonly live: boolean;
}
