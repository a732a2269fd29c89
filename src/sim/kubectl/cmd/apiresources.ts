// kubectl api-resources and api-versions (pkg/cmd/apiresources): what this API server serves.
import { OTHER_GROUP_VERSIONS, RESOURCES, type ResourceInfo } from '../../api/resources.ts';
import { shortNames } from '../resources.ts';
import { GET_TABS, tabwrite } from '../tabwriter.ts';
import { bool, parse, str } from './flags.ts';
import { Fail, type Run } from './util.ts';

/** kubectl api-resources: what this API server serves, core group first, then by group and name. */
export function cmdApiResources(r: Run, argv: string[]): void {
  const p = parse(r, 'api-resources', argv, {
    output: { kind: 'string', short: 'o' },
    namespaced: { kind: 'string' },
    'no-headers': { kind: 'bool' },
  });
  const output = str(p, 'output') ?? '';
  if (output !== '' && output !== 'name' && output !== 'wide')
    throw new Fail(`error: --output ${output} is not available`);
  const namespaced = str(p, 'namespaced');
  if (namespaced !== undefined && namespaced !== 'true' && namespaced !== 'false') {
    throw new Fail(
      `error: invalid argument "${namespaced}" for "--namespaced" flag: strconv.ParseBool: parsing "${namespaced}": invalid syntax`,
    );
  }
  const rows = servedResources()
    .filter(([, i]) => namespaced === undefined || String(i.namespaced) === namespaced)
    .sort(([a, x], [b, y]) =>
      x.group === y.group ? (a < b ? -1 : 1) : x.group === '' ? -1 : y.group === '' ? 1 : x.group < y.group ? -1 : 1,
    );
  if (output === 'name') {
    for (const [res, i] of rows) r.print(`${i.group ? `${res}.${i.group}` : res}\n`);
    return;
  }
  let t = bool(p, 'no-headers') ? '' : 'NAME\tSHORTNAMES\tAPIVERSION\tNAMESPACED\tKIND\n';
  for (const [res, i] of rows)
    t += `${res}\t${shortNames(res).join(',')}\t${i.group ? `${i.group}/${i.version}` : i.version}\t${i.namespaced}\t${i.kind}\n`;
  r.print(tabwrite(t, GET_TABS));
}

/** kubectl api-versions: the group/versions the API server serves, sorted. */
export function cmdApiVersions(r: Run, argv: string[]): void {
  parse(r, 'api-versions', argv, {});
  const gv = new Set(
    servedResources()
      .map(([, i]) => i)
      .map((i) => (i.group ? `${i.group}/${i.version}` : i.version)),
  );
  for (const v of [...gv].sort()) r.print(`${v}\n`);
}

/** Every served resource and group: RESOURCES, and the ones served in a second group too (events in events.k8s.io). */
function servedResources(): [string, ResourceInfo][] {
  const rows = Object.entries(RESOURCES);
  for (const [res, groups] of Object.entries(OTHER_GROUP_VERSIONS))
    for (const g of groups) rows.push([res, { ...RESOURCES[res], ...g }]);
  return rows;
}
