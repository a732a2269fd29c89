// metav1.Status errors (NotFound, AlreadyExists, Conflict, Invalid …) and field.Error formatting:
// the text kubectl prints for a refused request.
import { RESOURCES, qualifiedKind, qualifiedResource } from './resources.ts';

/** metav1.Status for failures (and a few successes). */
export interface Status {
  kind: 'Status';
  apiVersion: 'v1';
  status: 'Failure' | 'Success';
  message: string;
  reason: string;
  code: number;
  details?: {
    name?: string;
    group?: string;
    kind?: string;
    causes?: { reason: string; message: string; field: string }[];
  };
}
/** Build a failure Status. */
export function statusError(code: number, reason: string, message: string, details?: Status['details']): Status {
  const s: Status = { kind: 'Status', apiVersion: 'v1', status: 'Failure', message, reason, code };
  if (details) s.details = details;
  return s;
}

/** 404 NotFound: `deployments.apps "x" not found`. */
export function notFound(resource: string, name: string): Status {
  return statusError(404, 'NotFound', `${qualifiedResource(resource)} "${name}" not found`, {
    name,
    group: RESOURCES[resource]?.group,
    kind: resource,
  });
}

/** 409 AlreadyExists: `deployments.apps "web" already exists`. */
export function alreadyExists(resource: string, name: string): Status {
  return statusError(409, 'AlreadyExists', `${qualifiedResource(resource)} "${name}" already exists`, {
    name,
    group: RESOURCES[resource]?.group,
    kind: resource,
  });
}

/** 409 Conflict on a stale resourceVersion. */
export function conflict(
  resource: string,
  name: string,
  detail = 'the object has been modified; please apply your changes to the latest version and try again',
): Status {
  return statusError(
    409,
    'Conflict',
    `Operation cannot be fulfilled on ${qualifiedResource(resource)} "${name}": ${detail}`,
    { name, group: RESOURCES[resource]?.group, kind: resource },
  );
}

/** kubectl's one-line rendering of a failed request (`Error from server (NotFound): pods "x" not found`). */
export function kubectlErrorMessage(status: Status): string {
  if (status.code === 0) return KUBECTL_CONNECTION_REFUSED;
  // StandardErrorMessage: a Status without a reason (etcd's errors passed through) prints none.
  if (!status.reason) return `Error from server: ${status.message}`;
  return `Error from server (${status.reason}): ${status.message}`;
}

/** What kubectl prints when nothing listens on 6443. */
export const KUBECTL_CONNECTION_REFUSED =
  'The connection to the server 127.0.0.1:6443 was refused - did you specify the right host or port?';
/** A field.Error: the typed cause of a 422. */
export interface FieldError {
  type: 'Invalid' | 'Required' | 'NotSupported' | 'Forbidden' | 'Duplicate' | 'TooLong';
  field: string;
  value?: unknown;
  detail?: string;
}

/**
 * field.Error.ErrorBody's rendering of a bad value: simple types plainly, strings quoted, anything else
 * as json.Marshal writes it (a map with its keys sorted, an internal struct with Go's field names).
 */
function formatBadValue(v: unknown): string {
  if (v === null || v === undefined) return 'null';
  if (v instanceof GoValue) return v.text;
  if (typeof v === 'string') return JSON.stringify(v);
  if (typeof v === 'number' || typeof v === 'boolean') return String(v);
  if (typeof v === 'object' && !Array.isArray(v) && Object.values(v).every((x) => typeof x === 'string')) {
    const entries = Object.entries(v as Record<string, string>).sort(([a], [b]) => (a < b ? -1 : 1));
    return JSON.stringify(Object.fromEntries(entries));
  }
  return JSON.stringify(v);
}

/** A bad value already rendered the way field.Error prints it (json.Marshal of the Go value). */
export class GoValue {
  readonly text: string;
  constructor(text: string) {
    this.text = text;
  }
}

const TYPE_TEXT: Record<FieldError['type'], string> = {
  Invalid: 'Invalid value',
  Required: 'Required value',
  NotSupported: 'Unsupported value',
  Forbidden: 'Forbidden',
  Duplicate: 'Duplicate value',
  TooLong: 'Too long',
};

/** field.Error.Error(): `spec.replicas: Invalid value: -1: must be greater than or equal to 0`. */
export function formatFieldError(e: FieldError): string {
  let s = `${e.field}: ${TYPE_TEXT[e.type]}`;
  if (e.type === 'Invalid' || e.type === 'NotSupported' || e.type === 'Duplicate') s += `: ${formatBadValue(e.value)}`;
  if (e.detail) s += `: ${e.detail}`;
  return s;
}

/** errors.NewInvalid: the 422 Status built from field errors. */
export function invalid(resource: string, name: string, errs: FieldError[]): Status {
  const body = errs.length === 1 ? formatFieldError(errs[0]) : `[${errs.map(formatFieldError).join(', ')}]`;
  return statusError(422, 'Invalid', `${qualifiedKind(resource)} "${name}" is invalid: ${body}`, {
    name,
    group: RESOURCES[resource].group,
    kind: RESOURCES[resource].kind,
    causes: errs.map((e) => ({
      reason: `Field${e.type === 'Invalid' ? 'ValueInvalid' : 'Value' + e.type}`,
      message: formatFieldError(e).slice(e.field.length + 2),
      field: e.field,
    })),
  });
}
