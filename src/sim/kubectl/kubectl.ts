// kubectl over the simulated cluster: the commands, their flags, their output and their errors, as
// the real kubectl prints them. One file per command under cmd/, as kubectl's own pkg/cmd/<verb>/;
// this is the surface the CLI, the script runner and the tests use. Pure TypeScript.

/** Run one kubectl command line against the cluster (the `kubectl` word is optional). */
export { runKubectl } from './cmd/cmd.ts';
/** What an invocation printed, and the host services (files) it may use. */
export type { KubectlHost, KubectlResult } from './cmd/util.ts';
/** kubectl explain's chunk: loaded before a line that may run explain (commands run synchronously). */
export { loadExplain, prepareLine } from './cmd/explain.ts';
