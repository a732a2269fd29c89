// What a figure does with a reader's change: make it on the cluster, say it as kubectl would, and
// echo what a terminal would print. Every FigureDef carries it (its `actions`), so this code loads
// with the figures' chunks and not in the worker's core, which the terminal and replays share.
import type { Cluster } from '../cluster.ts';
import type { RequestRecord } from '../request-log.ts';
import { applyAction, commandOf, type FigureAction } from './actions.ts';
import { echoOf, type RanLine } from './echo.ts';

/** A figure's actions: how they run, how they read as a command, what they print. */
export interface FigureActions {
  apply(cluster: Cluster, a: FigureAction): void;
  command(a: FigureAction): string;
  echo(a: FigureAction, records: readonly RequestRecord[], listed?: number): RanLine;
}

/** The one set every figure and widget uses. */
export const figureActions: FigureActions = { apply: applyAction, command: commandOf, echo: echoOf };
