// A fresh API server configuration (kube-apiserver's options, in miniature): the default admission
// chain, the built-in identities, and the request checks a program set for every configuration.
// Apart from config.ts (types, and two readers of a configuration that import only types), so
// naming the default plugins closes no import cycle.
import { namespaceLifecycle } from './admission.ts';
import { IDENTITIES } from './authn.ts';
import type { ApiServerConfig, RequestChecks } from './config.ts';
import { priorityAdmission, serviceAccountAdmission } from './pod-admission.ts';

/**
 * The request checks every new configuration starts with: set once by a program that wants them
 * everywhere (the tests' setup, src/sim/testing/checks-setup.ts), never in the figures' worker.
 */
const defaults: { checks?: RequestChecks } = {};

/** Sets (or clears) the request checks new configurations start with (see defaultChecks). */
export function setDefaultRequestChecks(c: RequestChecks | undefined): void {
  defaults.checks = c;
}

/** A fresh configuration: NamespaceLifecycle, ServiceAccount and Priority, no extra validators, the built-in identities, no kubelets. */
export function newApiServerConfig(): ApiServerConfig {
  return {
    admission: [namespaceLifecycle, serviceAccountAdmission, priorityAdmission],
    validators: {},
    identities: { ...IDENTITIES },
    statusPatchShortcut: true,
    checks: defaults.checks,
  };
}
