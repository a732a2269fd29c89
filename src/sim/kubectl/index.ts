// kubectl's entry: the commands and their output, the script runner behind `npm run sim`, and the
// CLI's `sim …` lines. Loaded lazily (the terminal's worker chunk, the headless CLI): it brings `yaml`.

/** kubectl over a cluster, and the script runner behind `npm run sim`. */
export { runKubectl } from './kubectl.ts';
export { runScript, parseScript } from './script.ts';
export { runSimCommand, formatSimTime, SIM_USAGE } from './sim-commands.ts';
/** The requests kubectl's commands send, shared with the figures' buttons. */
export { deploymentFor, scaleRequest, setImageRequest, deletePodRequest, containerNameFromImage } from './generators.ts';
