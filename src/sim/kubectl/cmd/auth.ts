// kubectl auth can-i (pkg/cmd/auth/cani.go): a SelfSubjectAccessReview.
import { RESOURCES } from '../../api/resources.ts';
import { AUTH_HELP } from '../help/auth.ts';
import { resolveKind } from '../resources.ts';
import { bool, nsOf, parse, str } from './flags.ts';
import { Fail, apiError, type Run, unknownSubcommand } from './util.ts';
import { setOf } from '../../util/table.ts';

/** resourceVerbs and nonResourceURLVerbs of cani.go: other verbs get a warning, not a refusal. */
const RESOURCE_VERBS = setOf([
  'get',
  'list',
  'watch',
  'create',
  'update',
  'patch',
  'delete',
  'deletecollection',
  'use',
  'bind',
  'impersonate',
  '*',
  'approve',
  'sign',
  'escalate',
  'attest',
]);
const NON_RESOURCE_VERBS = setOf(['get', 'put', 'post', 'head', 'options', 'delete', 'patch', '*']);

/**
 * CanIOptions.resourceFor: the resource and group a type argument names (`po`, `deployments.apps`,
 * `*`), and whether discovery says it is namespaced (undefined when discovery does not know it).
 * A type the server does not serve is sent as typed, with a warning (none for users and groups).
 */
function canIResourceFor(r: Run, arg: string): { resource: string; group: string; namespaced?: boolean } {
  if (arg === '*') return { resource: '*', group: '', namespaced: true };
  const lower = arg.toLowerCase();
  const dot = lower.indexOf('.');
  const [res, group] = dot < 0 ? [lower, ''] : [lower.slice(0, dot), lower.slice(dot + 1)];
  const k = resolveKind(res);
  if (k) {
    const info = RESOURCES[k.resource];
    if (!group || group === info.group || group === `${info.version}.${info.group}`)
      return { resource: k.resource, group: info.group, namespaced: info.namespaced };
  }
  const gr = group ? `${res}.${group}` : res;
  if (gr !== 'users' && gr !== 'groups')
    r.warn(
      group
        ? `Warning: the server doesn't have a resource type '${res}' in group '${group}'\n`
        : `Warning: the server doesn't have a resource type '${res}'\n`,
    );
  return { resource: arg, group: '' };
}

/** kubectl auth can-i VERB (TYPE | TYPE/NAME | NONRESOURCEURL): a SelfSubjectAccessReview; `no` exits 1. */
function cmdCanI(r: Run, argv: string[]): void {
  const p = parse(r, 'auth can-i', argv, {
    'all-namespaces': { kind: 'bool', short: 'A' },
    quiet: { kind: 'bool', short: 'q' },
    subresource: { kind: 'string' },
    list: { kind: 'bool' },
    'no-headers': { kind: 'bool' },
  });
  if (bool(p, 'list')) {
    if (p.args.length) throw new Fail('error: list option must be specified with no arguments');
    throw new Fail(
      'error: kubectl auth can-i --list (a SelfSubjectRulesReview) is not simulated; ask about one action at a time',
    );
  }
  if (p.args.length !== 2)
    throw new Fail(
      "error: you must specify two arguments: verb resource or verb resource/resourceName.\nSee 'kubectl auth can-i -h' for help and examples.",
    );
  const [verb, target] = p.args;
  const all = bool(p, 'all-namespaces');
  const sub = str(p, 'subresource') ?? '';
  let nonResourceURL = '';
  let res: { resource: string; group: string; namespaced?: boolean } = { resource: '', group: '' };
  let name = '';
  if (target.startsWith('/')) nonResourceURL = target;
  else {
    const slash = target.indexOf('/'); // strings.SplitN(…, "/", 2)
    res = canIResourceFor(r, slash < 0 ? target : target.slice(0, slash));
    if (slash >= 0) name = target.slice(slash + 1);
  }
  // Validate, in its order (warnings are printed as they are found).
  if (nonResourceURL) {
    if (sub) throw new Fail('error: --subresource can not be used with NonResourceURL');
    if (!NON_RESOURCE_VERBS.has(verb)) r.warn(`Warning: verb '${verb}' is not a known verb\n`);
  } else if (res.resource && !all) {
    if (res.namespaced === false)
      r.warn(
        res.group
          ? `Warning: resource '${res.resource}' is not namespace scoped in group '${res.group}'\n`
          : `Warning: resource '${res.resource}' is not namespace scoped\n`,
      );
    if (!RESOURCE_VERBS.has(verb)) r.warn(`Warning: verb '${verb}' is not a known verb\n`);
  }
  if (bool(p, 'no-headers')) throw new Fail('error: --no-headers cannot be set without --list specified');
  const drop = (o: Record<string, string>) => Object.fromEntries(Object.entries(o).filter(([, v]) => v !== '')); // omitempty
  const spec = nonResourceURL
    ? { nonResourceAttributes: { path: nonResourceURL, verb } }
    : {
        resourceAttributes: drop({
          namespace: all ? '' : nsOf(p),
          verb,
          group: res.group,
          resource: res.resource,
          subresource: sub,
          name,
        }),
      };
  const result = r.req({
    verb: 'create',
    resource: 'selfsubjectaccessreviews',
    body: { apiVersion: 'authorization.k8s.io/v1', kind: 'SelfSubjectAccessReview', spec },
  });
  if (!result.ok) throw new Fail(apiError(result.status));
  const allowed = (result.object as { status?: { allowed?: boolean } } | undefined)?.status?.allowed === true;
  // RBAC gives no reason for a denial, so "no" stands alone (cani.go adds " - reason" when there is one).
  if (!bool(p, 'quiet')) r.print(allowed ? 'yes\n' : 'no\n');
  if (!allowed) r.failed = true;
}

/** kubectl auth: can-i is the subcommand simulated. */
export function cmdAuth(r: Run, argv: string[]): void {
  if (!argv[0] || argv[0].startsWith('-')) {
    r.print(AUTH_HELP);
    return;
  }
  if (argv[0] === 'whoami' || argv[0] === 'reconcile')
    throw new Fail(
      `error: kubectl auth ${argv[0]} is a real command that this simulator does not run (every kubectl line here acts as kubernetes-admin, or as --as names)`,
    );
  if (argv[0] !== 'can-i') throw new Fail(unknownSubcommand('auth', argv));
  cmdCanI(r, argv.slice(1));
}
