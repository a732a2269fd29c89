// kubectl scale (pkg/cmd/scale): a patch of the scale subresource.
import { RESOURCES } from '../../api-server.ts';
import { scaleRequest } from '../generators.ts';
import { nsOf, parse, str } from './flags.ts';
import { Fail, NO_RESOURCES, apiError, targets, type Obj, type Run } from './util.ts';
import { WRITE_FLAGS, checkOutput, dryRunStrategy, printWritten, writeOptions } from './dryrun.ts';

/** kubectl scale --replicas=N TYPE NAME…: deployments and replica sets, through their scale subresource. */
export function cmdScale(r: Run, argv: string[]): void {
  const p = parse(r, 'scale', argv, { replicas: { kind: 'string' }, 'current-replicas': { kind: 'string' }, ...WRITE_FLAGS });
  const dry = dryRunStrategy(r, p);
  checkOutput(p);
  const rep = str(p, 'replicas');
  if (rep === undefined) throw new Fail('error: required flag(s) "replicas" not set');
  const n = Number(rep);
  if (!Number.isInteger(n)) throw new Fail(`error: invalid argument "${rep}" for "--replicas" flag: strconv.ParseInt: parsing "${rep}": invalid syntax\nSee 'kubectl scale --help' for usage.`);
  if (n < 0) throw new Fail('error: The --replicas=COUNT flag is required, and COUNT must be greater than or equal to 0');
  if (!p.args.length) throw new Fail(NO_RESOURCES);
  const t = targets(p.args);
  if (!t.names.length) throw new Fail('error: resource(s) were provided, but no name was specified');
  for (const { kind, name } of t.names) {
    if (kind.resource !== 'deployments' && kind.resource !== 'replicasets') { r.error(`error: no scaler has been implemented for {"${RESOURCES[kind.resource].group}" "${RESOURCES[kind.resource].kind}"}`); continue; }
    // The object as the resource builder read it is what kubectl prints (before the scale); a
    // client dry run reads it and sends nothing.
    let before: Obj | undefined;
    if (dry === 'client' || str(p, 'output') === 'json' || str(p, 'output') === 'yaml') {
      const got = r.req({ verb: 'get', resource: kind.resource, namespace: nsOf(p), name });
      if (!got.ok) { if (got.code === 0) throw new Fail(apiError(got.status)); r.error(apiError(got.status)); continue; }
      before = got.object;
    }
    if (dry !== 'client') {
      const req = scaleRequest(kind.resource, name, n, nsOf(p));
      const res = r.req({ ...req, options: writeOptions(dry, req.options) });
      if (!res.ok) { if (res.code === 0) throw new Fail(apiError(res.status)); r.error(apiError(res.status)); continue; }
    }
    printWritten(r, p, dry, `${kind.singular}/${name}`, 'scaled', before);
  }
}

