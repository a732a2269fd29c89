// kubectl scale (pkg/cmd/scale): a patch of the scale subresource.
import { RESOURCES } from '../../api-server.ts';
import { scaleRequest } from '../generators.ts';
import { nsOf, parse, str } from './flags.ts';
import { Fail, apiError, targets, type Run } from './util.ts';

/** kubectl scale --replicas=N TYPE NAME…: deployments and replica sets, through their scale subresource. */
export function cmdScale(r: Run, argv: string[]): void {
  const p = parse(r, 'scale', argv, { replicas: { kind: 'string' }, 'current-replicas': { kind: 'string' } });
  const rep = str(p, 'replicas');
  if (rep === undefined) throw new Fail('error: required flag(s) "replicas" not set');
  const n = Number(rep);
  if (!Number.isInteger(n)) throw new Fail(`error: invalid argument "${rep}" for "--replicas" flag: strconv.ParseInt: parsing "${rep}": invalid syntax\nSee 'kubectl scale --help' for usage.`);
  if (n < 0) throw new Fail('error: The --replicas=COUNT flag is required, and COUNT must be greater than or equal to 0');
  const t = targets(p.args);
  if (!t.names.length) throw new Fail('error: resource(s) were provided, but no name was specified');
  for (const { kind, name } of t.names) {
    if (kind.resource !== 'deployments' && kind.resource !== 'replicasets') { r.error(`error: no scaler has been implemented for {"${RESOURCES[kind.resource].group}" "${RESOURCES[kind.resource].kind}"}`); continue; }
    const res = r.req(scaleRequest(kind.resource, name, n, nsOf(p)));
    if (!res.ok) { if (res.code === 0) throw new Fail(apiError(res.status)); r.error(apiError(res.status)); continue; }
    r.print(`${kind.singular}/${name} scaled\n`);
  }
}

