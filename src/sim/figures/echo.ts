// What a terminal would have shown for a demo's actions: the line (`$ kubectl set image …`) and
// kubectl's one-line answer (`deployment.apps/web image updated`), or its error, read from the
// request the action logged. `sim …` lines print nothing, as in `npm run sim`.
import { KUBECTL_CONNECTION_REFUSED } from '../api/status.ts';
import type { RequestRecord } from '../request-log.ts';
import { UNKNOWN_CLIENT } from '../api/identity.ts';
import { commandOf, type FigureAction } from './actions.ts';

/** One line that ran and what it printed. */
export interface RanLine {
  command: string;
  /** kubectl's one-line answer ('' for a `sim` line, which prints nothing). */
  output: string;
  /** The answer is an error (printed on stderr). */
  error: boolean;
}

/** kubectl's reason word for an HTTP status, as `Error from server (…)` prints it. */
const REASONS: Record<number, string> = {
  400: 'BadRequest',
  403: 'Forbidden',
  404: 'NotFound',
  405: 'MethodNotAllowed',
  409: 'AlreadyExists',
  410: 'Gone',
  413: 'RequestEntityTooLarge',
  422: 'Invalid',
  429: 'TooManyRequests',
  500: 'InternalError',
  503: 'ServiceUnavailable',
};

/** kubectl delete's warning for --grace-period=0 --force (cmd/delete.go), word for word. */
export const FORCE_WARNING =
  'Warning: Immediate deletion does not wait for confirmation that the running resource has been terminated. The resource may continue to run on the cluster indefinitely.';

/** What kubectl prints when the action's request succeeded. */
function success(a: FigureAction, listed: number): string {
  switch (a.type) {
    case 'apply':
      return `deployment.apps/${a.name} created`;
    case 'create-deployment':
      return `deployment.apps/${a.name} created`;
    case 'scale':
      return `deployment.apps/${a.name} scaled`;
    // kubectl warns (on stderr, before it sends anything) that a forced deletion waits for no one.
    case 'delete-pod':
      return a.force
        ? `${FORCE_WARNING}\npod "${a.pod}" force deleted from default namespace`
        : `pod "${a.pod}" deleted from default namespace`;
    case 'delete-deployment':
      return `deployment.apps "${a.name}" deleted from default namespace`;
    case 'delete-service':
      return `service "${a.name}" deleted from default namespace`;
    case 'set-image':
      return `deployment.apps/${a.name} image updated`;
    case 'cordon':
      return `node/${a.node} ${a.on ? 'cordoned' : 'uncordoned'}`;
    case 'taint':
      return `node/${a.node} ${a.on ? 'tainted' : 'untainted'}`;
    case 'run-pod':
      return `pod/${a.pod.name} created`;
    case 'replace-pod':
      return `pod/${a.pod.name} replaced`;
    case 'tolerate':
      return `pod/${a.pod} patched`;
    case 'strategy':
      return `deployment.apps/${a.name} patched`;
    case 'rollout':
      return `deployment.apps/${a.name} ${a.verb === 'undo' ? 'rolled back' : a.verb === 'pause' ? 'paused' : 'resumed'}`;
    case 'expose':
      return `service/${a.name} exposed`;
    case 'get':
      if (!listed) return a.resource === 'pods' ? 'No resources found in default namespace.' : 'No resources found';
      // The table's first line; the figure draws the rows.
      return a.resource === 'pods' ? 'NAME  READY  STATUS  RESTARTS  AGE' : 'NAME  STATUS  ROLES  AGE  VERSION';
    default:
      return '';
  }
}

/**
 * The line an action amounts to and kubectl's answer, from the records it logged (`records`: the
 * log from just before the action) and, for a get, how many objects it listed.
 */
export function echoOf(a: FigureAction, records: readonly RequestRecord[], listed = 0): RanLine {
  const command = commandOf(a);
  const asKubectl = records.filter(
    (r) => r.kind === 'request' && (r.component === 'kubectl' || r.component === UNKNOWN_CLIENT),
  );
  if (!asKubectl.length) return { command, output: '', error: false };
  // The request that decides the answer: the first refused one, else the last (a taint's GET comes before its PATCH).
  const failed = asKubectl.find((r) => r.code === 0 || r.code >= 400);
  if (!failed) return { command, output: success(a, listed), error: false };
  if (failed.code === 0) return { command, output: KUBECTL_CONNECTION_REFUSED, error: true };
  if (failed.code === 401)
    return { command, output: 'error: You must be logged in to the server (Unauthorized)', error: true };
  const reason =
    failed.code === 409 && !failed.message?.includes('already exists')
      ? 'Conflict'
      : (REASONS[failed.code] ?? String(failed.code));
  return {
    command,
    output: `Error from server (${reason}): ${failed.message ?? 'the request was refused'}`,
    error: true,
  };
}
