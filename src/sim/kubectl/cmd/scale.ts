// kubectl scale (pkg/cmd/scale, pkg/scale): the resource builder GETs each object, then the scaler
// writes its scale subresource — a merge patch `{"spec":{"replicas":N}}`, or, with --current-replicas
// or --resource-version, a GET of the Scale, the precondition checked, and a PUT of it.
import type { Scale } from 'kubernetes-types/autoscaling/v1';
import { RESOURCES } from '../../api/resources.ts';
import { type ApiResult } from '../../api/request.ts';
import { scaleRequest } from '../generators.ts';
import { nsOf, parse, str } from './flags.ts';
import { Fail, NO_RESOURCES, apiError, targets, type Run } from './util.ts';
import { WRITE_FLAGS, checkOutput, dryRunStrategy, printWritten, writeOptions, type DryRun } from './dryrun.ts';

/** ScalePrecondition: a size (-1 when not given) and a resourceVersion ('' when not given). */
interface ScalePrecondition {
  size: number;
  resourceVersion: string;
}

/** PreconditionError's text: `Expected replicas to be 3, was 2`. */
function preconditionError(what: string, expected: string | number, actual: string | number): string {
  return `error: Expected ${what} to be ${expected}, was ${actual}`;
}

/** kubectl scale --replicas=N TYPE NAME…: deployments and replica sets, through their scale subresource. */
export function cmdScale(r: Run, argv: string[]): void {
  const p = parse(r, 'scale', argv, {
    replicas: { kind: 'string' },
    'current-replicas': { kind: 'string' },
    'resource-version': { kind: 'string' },
    ...WRITE_FLAGS,
  });
  const dry = dryRunStrategy(r, p);
  checkOutput(p);
  const rep = str(p, 'replicas');
  if (rep === undefined) throw new Fail('error: required flag(s) "replicas" not set');
  const n = Number(rep);
  if (!/^[+-]?\d+$/.test(rep))
    throw new Fail(
      `error: invalid argument "${rep}" for "--replicas" flag: strconv.ParseInt: parsing "${rep}": invalid syntax\nSee 'kubectl scale --help' for usage.`,
    );
  const cur = str(p, 'current-replicas') ?? '-1';
  if (!/^[+-]?\d+$/.test(cur))
    throw new Fail(
      `error: invalid argument "${cur}" for "--current-replicas" flag: strconv.ParseInt: parsing "${cur}": invalid syntax\nSee 'kubectl scale --help' for usage.`,
    );
  if (n < 0)
    throw new Fail('error: The --replicas=COUNT flag is required, and COUNT must be greater than or equal to 0');
  if (!p.args.length) throw new Fail(NO_RESOURCES);
  const t = targets(p.args, r);
  if (!t.names.length) throw new Fail('error: resource(s) were provided, but no name was specified');
  const resourceVersion = str(p, 'resource-version') ?? '';
  // The resource builder reads each object first (what it read is what -o prints, before the scale);
  // the --resource-version check counts the objects it found.
  const infos = t.names.map(({ kind, name }) => ({
    kind,
    name,
    got: r.req({ verb: 'get', resource: kind.resource, namespace: nsOf(p), name }),
  }));
  for (const i of infos) if (!i.got.ok && i.got.code === 0) throw new Fail(apiError(i.got.status));
  if (resourceVersion && infos.filter((i) => i.got.ok).length > 1)
    throw new Fail('error: cannot use --resource-version with multiple resources');
  const precondition: ScalePrecondition | undefined =
    Number(cur) !== -1 || resourceVersion ? { size: Number(cur), resourceVersion } : undefined;
  for (const { kind, name, got } of infos) {
    // The visit that scales stops at the first object the builder could not read.
    if (!got.ok) throw new Fail(apiError(got.status));
    if (kind.resource !== 'deployments' && kind.resource !== 'replicasets') {
      r.error(
        `error: no scaler has been implemented for {"${RESOURCES[kind.resource].group}" "${RESOURCES[kind.resource].kind}"}`,
      );
      continue;
    }
    if (dry !== 'client') {
      const res = scaleSimple(r, kind.resource, name, nsOf(p), n, precondition, dry);
      if (typeof res === 'string') throw new Fail(res);
      if (!res.ok) {
        if (res.code === 0) throw new Fail(apiError(res.status));
        r.error(apiError(res.status));
        continue;
      }
    }
    printWritten(r, p, dry, `${kind.singular}/${name}`, 'scaled', got.object);
  }
}

/**
 * genericScaler.ScaleSimple: without preconditions a merge patch of /scale (no read first); with
 * them, a GET of the Scale, the check (its error ends the command), the new size set and a PUT.
 */
function scaleSimple(
  r: Run,
  resource: 'deployments' | 'replicasets',
  name: string,
  namespace: string,
  replicas: number,
  pre: ScalePrecondition | undefined,
  dry: DryRun,
): ApiResult<unknown> | string {
  if (!pre) {
    const req = scaleRequest(resource, name, replicas, namespace);
    return r.req({ ...req, options: writeOptions(dry, req.options) });
  }
  const got = r.req({ verb: 'get', resource, namespace, name, subresource: 'scale' });
  if (!got.ok) return got;
  const scale = got.object as Scale;
  if (pre.size !== -1 && scale.spec?.replicas !== pre.size)
    return preconditionError('replicas', pre.size, scale.spec?.replicas ?? 0);
  if (pre.resourceVersion && scale.metadata?.resourceVersion !== pre.resourceVersion)
    return preconditionError('resource version', pre.resourceVersion, scale.metadata?.resourceVersion ?? '');
  return r.req({
    verb: 'update',
    resource,
    namespace,
    name,
    subresource: 'scale',
    body: { ...scale, spec: { ...scale.spec, replicas } },
    options: writeOptions(dry),
  });
}
