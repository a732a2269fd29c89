// kubectl's part of the API server: what only kubectl sends (dry runs, SelfSubjectAccessReviews,
// JSON patches, pods/log, evictions) and the identities and admission steps of the controllers that
// come with it. In kubectl's lazy chunk, not the figures' core: src/sim/kubectl-extras.ts installs it
// on a world before kubectl's first request, and a link's replay before it restores (config.ts).
import { selfSubjectAccessReview } from './access-review.ts';
import type { ApiServerConfig, KubectlExtras } from './config.ts';
import { dryRunRequest, isDryRun } from './dry-run.ts';
import { doPodLog } from './kubelet-client.ts';
import { MAX_JSON_PATCH_OPERATIONS, applyJSONPatch, decodeJSONPatch } from '../api/json-patch.ts';
import type { Unstructured } from '../api/unstructured.ts';
import { PRIORITY_CLASS_VALIDATION } from './priority-class-validation.ts';
import { strictFieldValidation } from '../api/strict-fields.ts';
import { namespaceDelete, withNamespaceLifecycle } from './namespace-lifecycle.ts';
import { registerValidator } from './validation.ts';
import { REQUEST_CHECKS } from './request-checks.ts';
import {
  DISRUPTION_CONTROLLER,
  NAMESPACE_CONTROLLER,
  ROOT_CA_CERT_PUBLISHER,
  SERVICE_ACCOUNT_CONTROLLER,
} from '../controllers/names.ts';
import { registerIdentity } from './authn.ts';
import { type Identity, R } from '../api/identity.ts';
import { PDB_CREATE, evict } from './eviction.ts';
import { PDB_VALIDATION } from './pdb-validation.ts';
import { selectorsError } from './selector-errors.ts';
import { validateWatchOptions } from './watch-options.ts';
import { tokenRequestChecks } from './token-request-checks.ts';
import { registerAdmissionPlugin } from './admission.ts';
import type { AdmissionPlugin } from './config.ts';
import { API_SERVER, type ApiServerTimer } from './server.ts';
import { push } from '../clock.ts';

/** system:controller:namespace-controller: read and finalize namespaces, list and delete everything in them. */
const NAMESPACE_CONTROLLER_IDENTITY: Identity = {
  user: 'system:serviceaccount:kube-system:namespace-controller',
  rules: [
    R(['get', 'list', 'watch', 'delete'], ['namespaces']),
    R(['update'], ['namespaces/finalize', 'namespaces/status']),
    R(['get', 'list', 'delete'], ['*']),
  ],
};

/** system:controller:disruption-controller: read budgets, pods and their controllers; write budgets' status; post events. */
const DISRUPTION_CONTROLLER_IDENTITY: Identity = {
  user: 'system:serviceaccount:kube-system:disruption-controller',
  rules: [
    R(['get', 'list', 'watch'], ['poddisruptionbudgets', 'pods', 'replicasets', 'deployments']),
    R(['update'], ['poddisruptionbudgets/status']),
    R(['create', 'patch', 'update'], ['events']),
  ],
};
/** system:controller:service-account-controller: read namespaces and accounts, create accounts. */
const SERVICE_ACCOUNT_CONTROLLER_IDENTITY: Identity = {
  user: 'system:serviceaccount:kube-system:service-account-controller',
  rules: [
    R(['get', 'list', 'watch'], ['namespaces', 'serviceaccounts']),
    R(['create'], ['serviceaccounts']),
    R(['create', 'patch', 'update'], ['events']),
  ],
};

/** system:controller:root-ca-cert-publisher: read namespaces, create and update ConfigMaps. */
const ROOT_CA_CERT_PUBLISHER_IDENTITY: Identity = {
  user: 'system:serviceaccount:kube-system:root-ca-cert-publisher',
  rules: [
    R(['get', 'list', 'watch'], ['namespaces', 'configmaps']),
    R(['create', 'update'], ['configmaps']),
    R(['create', 'patch', 'update'], ['events']),
  ],
};

/**
 * The start of the serviceaccount controller and the root-CA publisher, as an admission step of
 * kubectl's part: a namespace's create, an account's delete, a ConfigMap's update or delete is what
 * they answer, and only kubectl sends one (a running controller is not started again).
 */
const SERVICE_ACCOUNT_CONTROLLERS_START: AdmissionPlugin = {
  name: 'ServiceAccountControllersStart',
  admit(a, h) {
    const wakes =
      a.resource === 'namespaces'
        ? a.operation === 'CREATE'
        : a.resource === 'serviceaccounts' || a.resource === 'configmaps'
          ? a.operation !== 'CREATE' && !a.subresource
          : false;
    if (!wakes) return undefined;
    // Every real cluster runs them: what they draw (their watches' jitter, their objects' uids) comes
    // from generators of their own, so the names and placements a figure quotes do not move.
    for (const name of [SERVICE_ACCOUNT_CONTROLLER, ROOT_CA_CERT_PUBLISHER])
      push(h.queue, h.now, API_SERVER, { type: 'start', name, ownRng: true } satisfies ApiServerTimer);
    return undefined;
  },
};
import { type FieldError, type Status, formatFieldError, statusError } from '../api/status.ts';

/**
 * jsonPatcher.applyJSPatch on the object as it is stored: a body that is not a list of operations
 * is a 400, more than 10,000 operations a 413, and an operation that does not apply a 422 built by
 * NewGenericServerResponse, whose message is fixed: json-patch's own error text is not sent.
 */
function jsonPatched(cur: Unstructured, body: unknown): { object: Unstructured } | { status: Status } {
  const d = decodeJSONPatch(body);
  if (!d.ok) return { status: statusError(400, 'BadRequest', d.message) };
  if (d.ops.length > MAX_JSON_PATCH_OPERATIONS) {
    return {
      status: statusError(
        413,
        'RequestEntityTooLarge',
        `Request entity too large: The allowed maximum operations in a JSON patch is ${MAX_JSON_PATCH_OPERATIONS}, got ${d.ops.length}`,
      ),
    };
  }
  const r = applyJSONPatch(cur, d.ops);
  if (!r.ok)
    return {
      status: statusError(422, 'Invalid', 'the server rejected our request due to an error in our request', {}),
    };
  const o = r.doc as Unstructured;
  if (o === null || typeof o !== 'object' || Array.isArray(o)) {
    // The patched document no longer decodes into the kind (a `replace` of "" with an array):
    // NewInvalid(GroupKind{}, "", patch: Invalid value: <the document>). The decoder's text is
    // SimpleMetaFactory.Interpret's as remembered, not confirmed in the source.
    const e: FieldError = {
      type: 'Invalid',
      field: 'patch',
      value: JSON.stringify(o),
      detail: `couldn't get version/kind; json parse error: json: cannot unmarshal array into Go value of type struct { APIVersion string "json:\\"apiVersion,omitempty\\""; Kind string "json:\\"kind,omitempty\\"" }`,
    };
    return {
      status: statusError(422, 'Invalid', ` "" is invalid: ${formatFieldError(e)}`, {
        name: '',
        group: '',
        kind: '',
        causes: [{ reason: 'FieldValueInvalid', message: formatFieldError(e).slice('patch: '.length), field: 'patch' }],
      }),
    };
  }
  if (!o.metadata || typeof o.metadata !== 'object' || Array.isArray(o.metadata)) o.metadata = {};
  // The document is decoded into the request's kind: a removed kind or apiVersion is filled in from
  // it. (A changed one fails that decoding in Kubernetes; here the stored kind is simply kept.)
  if (o.kind !== cur.kind || o.apiVersion !== cur.apiVersion) {
    o.kind = cur.kind;
    o.apiVersion = cur.apiVersion;
  }
  return { object: o };
}

/** The handlers kubectl's requests need, as one API server takes them. */
const KUBECTL_EXTRAS: KubectlExtras = {
  selfSubjectAccessReview,
  isDryRun,
  dryRunRequest,
  jsonPatched,
  doPodLog,
  strictFieldValidation,
  namespaceDelete,
  evict,
  selectors: selectorsError,
  watchOptions: validateWatchOptions,
  tokenRequestChecks,
};

/** Installs kubectl's part of the API server on one configuration, with the PriorityClass validation (again is a no-op); returns it. */
export function withKubectlExtras(config: ApiServerConfig): ApiServerConfig {
  config.kubectlExtras = KUBECTL_EXTRAS;
  // A reader's objects can be anything: the request checks come with kubectl.
  config.checks = REQUEST_CHECKS;
  registerIdentity(config, NAMESPACE_CONTROLLER, NAMESPACE_CONTROLLER_IDENTITY);
  registerIdentity(config, DISRUPTION_CONTROLLER, DISRUPTION_CONTROLLER_IDENTITY);
  // A PodDisruptionBudget's create starts with an empty status and wakes its controller.
  registerAdmissionPlugin(config, PDB_CREATE);
  registerIdentity(config, SERVICE_ACCOUNT_CONTROLLER, SERVICE_ACCOUNT_CONTROLLER_IDENTITY);
  registerIdentity(config, ROOT_CA_CERT_PUBLISHER, ROOT_CA_CERT_PUBLISHER_IDENTITY);
  registerAdmissionPlugin(config, SERVICE_ACCOUNT_CONTROLLERS_START);
  // Only kubectl makes a namespace terminate: the admission check for one comes with it.
  withNamespaceLifecycle(config);
  // Only kubectl (or a link's replay of its requests) writes a PriorityClass of its own.
  if (!config.validators.priorityclasses?.includes(PRIORITY_CLASS_VALIDATION))
    registerValidator(config, 'priorityclasses', PRIORITY_CLASS_VALIDATION);
  // And a PodDisruptionBudget.
  if (!config.validators.poddisruptionbudgets?.includes(PDB_VALIDATION))
    registerValidator(config, 'poddisruptionbudgets', PDB_VALIDATION);
  return config;
}
