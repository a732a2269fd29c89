// kubectl over the simulated cluster: the commands, their flags, their output and their errors, as
// the real kubectl prints them. One file per command under cmd/, as kubectl's own pkg/cmd/<verb>/;
// this is the surface the CLI, the script runner and the tests use. Pure TypeScript.

/** Run one kubectl command line against the cluster (the `kubectl` word is optional). */
export { runKubectl } from './cmd/cmd.ts';
/** What an invocation printed, and the host services (files) it may use. */
export type { KubectlHost, KubectlResult } from './cmd/util.ts';
/** The checkErr rendering of an API error. */
export { apiError } from './cmd/util.ts';
/** kubectl's short help. */
export { KUBECTL_HELP } from './cmd/help.ts';
/** The client and server version kubectl reports. */
export { KUBECTL_VERSION } from './cmd/version.ts';
/** The bounds of a manifest `apply -f` accepts. */
export { MAX_ALIAS_COUNT, MAX_MANIFEST_BYTES, MAX_MANIFEST_DOCUMENTS } from './cmd/manifest.ts';
/** How long a simulated `get -w` runs at most. */
export { WATCH_LIMIT_MS } from './cmd/get.ts';
/** The line `kubectl rollout status` prints for a Deployment's state. */
export { rolloutStatusLine } from './cmd/rollout.ts';
