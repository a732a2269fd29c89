// The DefaultTolerationSeconds admission plugin wired into the API server's admission stage, so every
// pod the API server stores tolerates a not-ready/unreachable node for 300 s, as in a real cluster.
import type { Pod } from 'kubernetes-types/core/v1';
import { type ApiServerConfig } from './config.ts';
import { newApiServerConfig } from './options.ts';
import { registerAdmissionPlugin } from './admission.ts';
import type { AdmissionPlugin } from './config.ts';
import type { KObject } from '../api/request.ts';
import { mutate } from './default-toleration-seconds.ts';

/** The plugin as the API server runs it: pods, CREATE and UPDATE, never a subresource (status, binding…). */
const defaultTolerationSecondsPlugin: AdmissionPlugin = {
  name: 'DefaultTolerationSeconds',
  admit(a) {
    if (a.resource !== 'pods' || a.subresource || !a.object) return undefined;
    if (a.operation !== 'CREATE' && a.operation !== 'UPDATE') return undefined;
    const before = a.object as unknown as Pod;
    const after = mutate(before);
    return after === before ? undefined : (after as unknown as KObject);
  },
};

/** Register the plugin with an API server (idempotent: registering again replaces it by name). */
export function registerNodeLifecycleAdmission(config: ApiServerConfig): void {
  registerAdmissionPlugin(config, defaultTolerationSecondsPlugin);
}

/** A default API server with the plugin registered (a cluster's, before its kubelets are wired in). */
export function nodeLifecycleApiServer(): ApiServerConfig {
  const config = newApiServerConfig();
  registerNodeLifecycleAdmission(config);
  return config;
}
