// What one cluster's API server is made of besides its plain-data state: the admission chain, the
// extra validators, the authenticator's identities and the client it reaches kubelets with. It is
// behaviour (functions), so it lives beside the world state, never in it: two clusters on one page
// each have their own, and a snapshot or a replay never carries it.
import { namespaceLifecycle, type AdmissionPlugin } from './admission.ts';
import { IDENTITIES, type Identity } from './authn.ts';
import { priorityAdmission, serviceAccountAdmission } from './pod-admission.ts';
import type { KubeletClient, doPodLog } from './kubelet-client.ts';
import type { Validator, validateBuiltin } from './validation.ts';
import type { selfSubjectAccessReview } from './access-review.ts';
import type { dryRunRequest, isDryRun } from './dry-run.ts';
import type { jsonPatched } from './kubectl-extras.ts';
import type { strictFieldValidation } from './strict-fields.ts';
import type { namespaceDelete } from './namespace-lifecycle.ts';

/**
 * The parts of the API server only kubectl reaches (dry runs, access reviews, JSON patches, pods/log): they
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
  /**
   * The built-in validation (ValidatePod, ValidateDeployment … : validation.ts), once installed. It is
   * a part of its own: nothing a component writes from valid objects is invalid, so a figure's
   * cluster runs without it until kubectl loads (it brings it) or unless the figure's own actions can
   * be refused (FigureDef.validation); every other configuration gets the default below.
   */
  builtinValidation?: typeof validateBuiltin;
}

/**
 * The built-in validation every new configuration starts with: set once by a program that wants it
 * everywhere (the tests' setup, src/test/validation.ts), never in the figures' worker.
 */
let defaultBuiltinValidation: typeof validateBuiltin | undefined;

/** Sets (or clears) the built-in validation new configurations start with (see defaultBuiltinValidation). */
export function setDefaultBuiltinValidation(v: typeof validateBuiltin | undefined): void {
  defaultBuiltinValidation = v;
}

/** A fresh configuration: NamespaceLifecycle, ServiceAccount and Priority, no extra validators, the built-in identities, no kubelets. */
export function newApiServerConfig(): ApiServerConfig {
  return { admission: [namespaceLifecycle, serviceAccountAdmission, priorityAdmission], validators: {}, identities: { ...IDENTITIES }, statusPatchShortcut: true, builtinValidation: defaultBuiltinValidation };
}

/** kubectl's part of this API server; a request that needs it before it is installed is a bug of the caller (only kubectl sends one). */
export function kubectlExtras(config: ApiServerConfig): KubectlExtras {
  if (!config.kubectlExtras) throw new Error('this request needs kubectl\'s part of the API server (apiserver/kubectl-extras.ts), installed before kubectl\'s first request');
  return config.kubectlExtras;
}
