// How a pod's simulated app behaves (`sim app <pod> crashes|leaks|unready|healthy`), as the kubelet's
// set-health takes it. Outside the kubelet's module on purpose: only kubectl's chunk (the `sim app`
// line) and the troubleshooting figure's chunk need it, not the core every figure page loads.
import type { AppBehaviour } from './cluster-types.ts';
import type { ContainerHealth } from './kubelet/kubelet-state.ts';

/** A crashing app's life after each start (nginx refusing its configuration exits at once; a second covers its start). */
const APP_CRASH_AFTER_MS = 1_000;
/** How long a leaking app takes to reach its memory limit after each start. */
const APP_OOM_AFTER_MS = 5_000;

/** The simulated app's health for a behaviour (log: a crashing app's last words): null and true undo what another behaviour set. */
export function appHealth(b: AppBehaviour, log?: string): ContainerHealth {
  // The kernel's OOM killer sends SIGKILL: 128 + 9.
  const exits =
    b === 'crashes'
      ? { afterMs: APP_CRASH_AFTER_MS, exitCode: 1, ...(log === undefined ? {} : { log }) }
      : b === 'leaks'
        ? { afterMs: APP_OOM_AFTER_MS, exitCode: 137, oom: true }
        : null;
  return { exits, readiness: b !== 'unready' };
}
