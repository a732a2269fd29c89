// kubectl's entry: the commands and their output, the script runner behind `npm run sim`, and the
// CLI's `sim …` lines. Loaded lazily (the terminal's worker chunk, the headless CLI): it brings `yaml`.

/** kubectl over a cluster, and the script runner behind `npm run sim`. */
export { runKubectl, loadExplain, prepareLine } from './kubectl.ts';
export { runScript, parseScript, runLine, scriptHeader, type ScriptHeader } from './script.ts';
export { runSimCommand, formatSimTime, SIM_USAGE } from './sim-commands.ts';
/** The requests kubectl's commands send, shared with the figures' buttons. */
export {
  deploymentFor,
  scaleRequest,
  setImageRequest,
  deletePodRequest,
  containerNameFromImage,
} from './generators.ts';
/** Tab completion and help for the figures' terminal. */
export {
  complete,
  TERMINAL_HELP,
  KUBECTL_COMMANDS,
  RESOURCE_TYPES,
  type Completion,
  type NamesOf,
} from './complete.ts';
/** The figures' terminal in the worker (this chunk is what the worker loads on a reader's first command). */
export {
  runOnFigure,
  runOnFigureInSlices,
  completeOnFigure,
  timelineCluster,
  refusalOf,
  TERMINAL_LIMITS,
} from './figure-terminal.ts';
