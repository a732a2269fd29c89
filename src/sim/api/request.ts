// A request as components build it and the answer they get (RequestInfo, RequestOptions, results).
import type { ObjectMeta } from 'kubernetes-types/meta/v1';
import type { Status } from './status.ts';
import type { Unstructured } from './unstructured.ts';

/** Any stored object (a Kubernetes object with metadata). */
export interface KObject {
  apiVersion?: string;
  kind?: string;
  metadata?: {
    name?: string;
    namespace?: string;
    resourceVersion?: string;
    [k: string]: unknown;
  };
  [k: string]: unknown;
}

/**
 * An object of any kind as the server's generic verbs read it (meta.Accessor): its ObjectMeta typed,
 * its spec a map, the rest by name. A stored object always has metadata.
 */
export interface MetaObject {
  apiVersion?: string;
  kind?: string;
  metadata: { -readonly [K in keyof ObjectMeta]: ObjectMeta[K] };
  spec?: Unstructured;
  [k: string]: unknown;
}

/** Kubernetes API verbs (RBAC names). */
export type Verb = 'get' | 'list' | 'watch' | 'create' | 'update' | 'patch' | 'delete';
/** Options on a request (list/watch/delete). */
export interface RequestOptions {
  resourceVersion?: string;
  labelSelector?: string;
  fieldSelector?: string;
  gracePeriodSeconds?: number;
  preconditions?: { uid?: string; resourceVersion?: string };
  dryRun?: boolean;
  /** PATCH content type: `strategic` (default, lists with merge keys merge by key), `merge` (RFC 7386) or `json` (RFC 6902). */
  patchType?: 'strategic' | 'merge' | 'json';
  /** DELETE: what happens to the object's dependents (Background by default; see the garbage collector). */
  propagationPolicy?: 'Background' | 'Orphan' | 'Foreground';
  /** LIST: the page size the client asks for (kubectl get's --chunk-size, 500); logged, every page is one here. */
  limit?: number;
  /** pods/log: which container, and its previous (terminated) instance. */
  container?: string;
  previous?: boolean;
  /** pods/log: kubectl logs -f (a stream; here the log so far, as the request's answer). */
  follow?: boolean;
  /** kubectl's --as/--as-group: act as this user (the Impersonate-User/-Group headers). */
  impersonate?: { user: string; groups?: string[] };
  /** WATCH as a streaming list (see WatchOptions in watch.ts): the current state first, then a bookmark. */
  sendInitialEvents?: boolean;
  resourceVersionMatch?: 'NotOlderThan' | 'Exact';
  allowWatchBookmarks?: boolean;
  /** WATCH: how long the client asks it to last (the reflector's 5 to 10 minutes), sent as `?timeoutSeconds=`. */
  timeoutSeconds?: number;
  /** The client's request timeout (client-go's rest.Config Timeout, a Go duration: `10s`), sent as `?timeout=`; only logged here. */
  timeout?: string;
  /** A write's field manager (kubectl's --field-manager: `kubectl-create`, `kubectl-client-side-apply`, …), sent as its query. */
  fieldManager?: string;
  /** A write's field validation directive as kubectl sends it (--validate=strict: Strict); only logged in the query here. */
  fieldValidation?: 'Strict' | 'Warn' | 'Ignore';
}

/** A request as a component builds it. */
export interface ApiRequest {
  verb: Verb;
  resource: string;
  /** The API group when it is not the resource's own: `events.k8s.io` for Events in their events.k8s.io/v1 form. */
  group?: string;
  namespace?: string;
  name?: string;
  subresource?: string;
  body?: unknown;
  options?: RequestOptions;
}

/** The answer: an object (or list) on success, a Status on failure. */
export type ApiResult<T = KObject> =
  { ok: true; code: number; object: T; revision?: number } | { ok: false; code: number; status: Status };

/** A list response. */
export interface ObjectList<T = KObject> {
  apiVersion: string;
  kind: string;
  metadata: { resourceVersion: string };
  items: T[];
}
