// kubectl's entry: the commands and their output, the script runner behind `npm run sim`, and the
// CLI's `sim …` lines, for the headless CLI (it brings `yaml`). The worker's terminal loads kubectl
// lazily through figures/terminal.ts instead, which imports the modules it runs.

/** kubectl over a cluster, and the script runner behind `npm run sim`. */
export { runKubectl, loadExplain, prepareLine } from './kubectl.ts';
export { runScript, parseScript, scriptHeader } from './script.ts';
export { runSimCommand } from './sim-commands.ts';
