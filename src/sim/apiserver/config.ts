// What one cluster's API server is made of besides its plain-data state: the admission chain, the
// extra validators, the authenticator's identities and the client it reaches kubelets with. It is
// behaviour (functions), so it lives beside the world state, never in it: two clusters on one page
// each have their own, and a snapshot or a replay never carries it. Its types and two readers (a fresh
// one is options.ts'): every handler takes a configuration, so naming no handler here keeps the server's
// files off any import cycle.
import type { TokenRequestSpec } from 'kubernetes-types/authentication/v1';
import type { Identity } from '../api/identity.ts';
import type { ApiRequest, ApiResult, KObject } from '../api/request.ts';
import type { FieldError, Status } from '../api/status.ts';
import type { Unstructured } from '../api/unstructured.ts';
import type { WatchOptions } from '../api/watch.ts';
import type { ApiHost } from './server.ts';

/**
 * The parts of the API server only kubectl reaches (dry runs, access reviews, JSON patches, pods/log, evictions,
 * the refusal of selectors and watch options no component sends): they
 * live in kubectl's lazy chunk (kubectl-extras.ts), which installs them on a cluster before
 * kubectl's first request, and a link's replay before it restores; no component, demo or story
 * sends such a request, so the figures' core never carries them.
 */
export interface KubectlExtras {
  /** A SelfSubjectAccessReview's answer (access-review.ts). */
  selfSubjectAccessReview(
    h: ApiHost,
    config: ApiServerConfig,
    component: string,
    req: ApiRequest,
    identity: string,
  ): ApiResult<unknown>;
  /** Whether a request asks for a dry run (dry-run.ts). */
  isDryRun(h: ApiHost, req: ApiRequest): boolean;
  /** A dry run: the request served on a scratch copy of the store (dry-run.ts). */
  dryRunRequest(h: ApiHost, req: ApiRequest, serve: (scratch: ApiHost) => ApiResult<unknown>): ApiResult<unknown>;
  /** A JSON patch applied to the stored object, or the Status refusing it (kubectl-extras.ts). */
  jsonPatched(cur: Unstructured, body: unknown): { object: Unstructured } | { status: Status };
  /** GET pods/NAME/log (kubelet-client.ts). */
  doPodLog(h: ApiHost, config: ApiServerConfig, component: string, req: ApiRequest): ApiResult<unknown>;
  /** Strict field validation's refusal of unknown or duplicate fields (api/strict-fields.ts). */
  strictFieldValidation(resource: string, body: unknown, patched: boolean): Status | undefined;
  /** A namespace's DELETE, which finalizes rather than drops it (namespace-lifecycle.ts). */
  namespaceDelete(h: ApiHost, component: string, req: ApiRequest): ApiResult<unknown> | undefined;
  /** POST pods/NAME/eviction with its PodDisruptionBudget checks (eviction.ts). */
  evict(h: ApiHost, config: ApiServerConfig, component: string, req: ApiRequest): ApiResult<unknown>;
  /** The 400 a LIST's or WATCH's selectors get when they do not parse (selector-errors.ts): no component or figure sends such a selector. */
  selectors(resource: string, labelSelector: string | undefined, fieldSelector: string | undefined): Status | undefined;
  /** The 422 a WATCH gets when its streaming-list options do not go together (watch-options.ts): the informers always send them right. */
  watchOptions(opts: WatchOptions): string | undefined;
  /** A TokenRequest's checks (token-request-checks.ts). */
  tokenRequestChecks(h: ApiHost, name: string, namespace: string, spec: Partial<TokenRequestSpec>): Status | undefined;
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
  /** Decodes a body into its Go type, or the 400 the API server answers (api/decode.ts). */
  decode(resource: string, body: unknown): { obj: Unstructured } | { status: Status };
  /** The built-in validation's field errors (validation.ts). */
  validate(resource: string, raw: Unstructured, rawOld: Unstructured | undefined): FieldError[];
  /** The impersonation filter (impersonation.ts): only kubectl's --as and a figure that declares the checks (hub's --as demo) send one. */
  impersonate(config: ApiServerConfig, caller: Identity, as: { user: string; groups?: string[] }): Identity | Status;
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

/** What admission sees. */
export interface AdmissionAttributes {
  operation: 'CREATE' | 'UPDATE' | 'DELETE' | 'CONNECT';
  resource: string;
  subresource?: string;
  namespace?: string;
  name?: string;
  object?: KObject;
  oldObject?: KObject;
  user: string;
}

/**
 * A mutating/validating admission plugin: returns the (possibly new) object, or a Status to refuse.
 * It never changes `a.object` in place: parts of it are the stored object's own (copy on write).
 */
export interface AdmissionPlugin {
  name: string;
  admit(a: AdmissionAttributes, h: ApiHost): KObject | Status | undefined;
}

/** A validator: field errors for a new object (and the old one on update). */
export type Validator = (obj: KObject, old: KObject | undefined) => FieldError[];

/** The API server's connection to the kubelet of a node (the one it opens for logs, exec, port-forward). */
export interface KubeletConnection {
  /** The kubelet's address (the node's InternalIP). */
  ip: string;
  /** Whether a connection to it gets through (a powered-off or cut-off node does not answer). */
  reachable: boolean;
  /** GET /containerLogs/NAMESPACE/POD/CONTAINER on it (the kubelet's handler, kubelet/container-logs.ts): the log, or why there is none. */
  containerLogs(
    namespace: string,
    pod: string,
    container: string,
    previous: boolean,
  ): { ok: true; text: string } | { ok: false; message: string };
}

/** How an API server reaches the kubelet of a node (its cluster's wiring; undefined: no such kubelet). */
type KubeletClient = (node: string) => KubeletConnection | undefined;
