// What one cluster's API server is made of besides its plain-data state: the admission chain, the
// extra validators, the authenticator's identities and the client it reaches kubelets with. It is
// behaviour (functions), so it lives beside the world state, never in it: two clusters on one page
// each have their own, and a snapshot or a replay never carries it.
import { namespaceLifecycle, type AdmissionPlugin } from './admission.ts';
import { IDENTITIES } from './authn.ts';
import type { Identity } from '../api/identity.ts';
import { priorityAdmission, serviceAccountAdmission } from './pod-admission.ts';
import type { KubeletClient, doPodLog } from './kubelet-client.ts';
import type { Validator, validateBuiltin } from './validation.ts';
import type { decodeBody } from '../api/decode.ts';
import type { selfSubjectAccessReview } from './access-review.ts';
import type { dryRunRequest, isDryRun } from './dry-run.ts';
import type { jsonPatched } from './kubectl-extras.ts';
import type { strictFieldValidation } from '../api/strict-fields.ts';
import type { namespaceDelete } from './namespace-lifecycle.ts';
import type { evict } from './eviction.ts';
import type { impersonate } from './impersonation.ts';
import type { selectorsError } from './selector-errors.ts';
import type { validateWatchOptions } from './watch-options.ts';
import type { tokenRequestChecks } from './token-request-checks.ts';

/**
 * The parts of the API server only kubectl reaches (dry runs, access reviews, JSON patches, pods/log, evictions,
 * the refusal of selectors and watch options no component sends): they
 * live in kubectl's lazy chunk (kubectl-extras.ts), which installs them on a cluster before
 * kubectl's first request, and a link's replay before it restores; no component, demo or story
 * sends such a request, so the figures' core never carries them.
 */
export interface KubectlExtras {
  selfSubjectAccessReview: typeof selfSubjectAccessReview;
  isDryRun: typeof isDryRun;
  dryRunRequest: typeof dryRunRequest;
  jsonPatched: typeof jsonPatched;
  doPodLog: typeof doPodLog;
  strictFieldValidation: typeof strictFieldValidation;
  namespaceDelete: typeof namespaceDelete;
  evict: typeof evict;
  /** The 400 a LIST's or WATCH's selectors get when they do not parse (selector-errors.ts): no component or figure sends such a selector. */
  selectors: typeof selectorsError;
  /** The 422 a WATCH gets when its streaming-list options do not go together (watch-options.ts): the informers always send them right. */
  watchOptions: typeof validateWatchOptions;
  tokenRequestChecks: typeof tokenRequestChecks;
}

/** One API server's configuration (kube-apiserver's flags and wiring, in miniature). */
export interface ApiServerConfig {
  /** Admission plugins in the order they run (`--enable-admission-plugins`); a world can switch one off by name in its state. */
  admission: AdmissionPlugin[];
  /** Validators per resource, run after the built-in validation. */
  validators: Record<string, Validator[]>;
  /** The authenticator's table: component name → identity (a kubelet's `kubelet/<node>` needs no entry). */
  identities: Record<string, Identity>;
  /** How the API server reaches the kubelet of a node (logs); without one no node answers. */
  kubelets?: KubeletClient;
  /** Serve status patches through the shortcut (tests switch it off to compare it with the general update path). */
  statusPatchShortcut: boolean;
  /** kubectl's part of the API server, once installed (see KubectlExtras). */
  kubectlExtras?: KubectlExtras;
  /** The request checks (typed decoding, built-in validation: request-checks.ts), once installed; without them a body is stored as sent. */
  checks?: RequestChecks;
}

/** The API server's request checks, a part of their own (request-checks.ts). */
export interface RequestChecks {
  /** Decodes a body into its Go type, or the 400 the API server answers (decode.ts). */
  decode: typeof decodeBody;
  /** The built-in validation's field errors (validation.ts). */
  validate: typeof validateBuiltin;
  /** The impersonation filter (impersonation.ts): only kubectl's --as and a figure that declares the checks (hub's --as demo) send one. */
  impersonate: typeof impersonate;
}

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

/** The request checks, for a request only they can answer (an impersonating one); without them it is a bug of whoever built the cluster. */
export function requestChecks(config: ApiServerConfig): RequestChecks {
  if (!config.checks)
    throw new Error(
      'this request impersonates: it needs the request checks (apiserver/request-checks.ts), installed before the first input that sends one',
    );
  return config.checks;
}

/** kubectl's part of this API server; a request that needs it before it is installed is a bug of the caller (only kubectl sends one). */
export function kubectlExtras(config: ApiServerConfig): KubectlExtras {
  if (!config.kubectlExtras)
    throw new Error(
      "this request needs kubectl's part of the API server (apiserver/kubectl-extras.ts), installed before kubectl's first request",
    );
  return config.kubectlExtras;
}
