// kubectl taint (pkg/cmd/taint): add, replace (--overwrite) or remove a node's taints.
import type { Node, Taint } from 'kubernetes-types/core/v1';
import { kindInfo } from '../resources.ts';
import { mergePatch } from '../../api/patch.ts';
import { bool, parse, str } from './flags.ts';
import { Fail, kindOrFail, list, type Run, type Stored } from './util.ts';
import { WRITE_FLAGS, checkOutput, dryRunStrategy, printWritten, writeOptions } from './dryrun.ts';

const EFFECTS = ['NoSchedule', 'PreferNoSchedule', 'NoExecute'];

/** kubectl taint NODE KEY[=VALUE]:EFFECT | KEY[:EFFECT]-: add or remove taints. */
export function cmdTaint(r: Run, argv: string[]): void {
  const p = parse(r, 'taint', argv, {
    overwrite: { kind: 'bool' },
    selector: { kind: 'string', short: 'l' },
    all: { kind: 'bool' },
    ...WRITE_FLAGS,
  });
  const dry = dryRunStrategy(r, p);
  checkOutput(p);
  // Complete: resources first, then the taint changes.
  const resources: string[] = [];
  const specs: string[] = [];
  for (const a of p.args) {
    const isTaint = a.includes('=') || a.includes(':') || a.endsWith('-');
    if (isTaint) specs.push(a);
    else if (specs.length) throw new Fail(`error: all resources must be specified before taint changes: ${a}`);
    else resources.push(a);
  }
  if (!resources.length) throw new Fail('error: one or more resources must be specified as <resource> <name>');
  if (!specs.length) throw new Fail('error: at least one taint update is required');
  const add: Taint[] = [];
  const remove: { key: string; effect?: string }[] = [];
  for (const s of specs) {
    if (s.endsWith('-')) {
      const body = s.slice(0, -1);
      const [kv, effect] = body.split(':');
      const key = kv.split('=')[0];
      if (effect && !EFFECTS.includes(effect))
        throw new Fail(`error: invalid taint effect: ${effect}, unsupported taint effect`);
      remove.push({ key, effect });
    } else {
      const m = /^([^=:]+)(?:=([^:]*))?:(.*)$/.exec(s);
      if (!m) throw new Fail(`error: invalid taint spec: ${s}, unknown taint spec`);
      if (!EFFECTS.includes(m[3])) throw new Fail(`error: invalid taint effect: ${m[3]}, unsupported taint effect`);
      add.push({ key: m[1], ...(m[2] ? { value: m[2] } : {}), effect: m[3] });
    }
  }
  // Validate: the type is Node's; nothing both changed and removed; names, a selector or --all.
  const type = resources[0].toLowerCase();
  if (kindOrFail(type, r).resource !== 'nodes')
    throw new Fail(`error: invalid resource type ${type}, only node types are supported`);
  const conflicts = remove
    .filter((rm) => add.some((a) => a.key === rm.key && (!rm.effect || a.effect === rm.effect)))
    .map((rm) => `${rm.key}=${rm.effect ?? ''}`);
  if (conflicts.length)
    throw new Fail(
      `error: can not both modify and remove the following taint(s) in the same command: ${conflicts.join(', ')}`,
    );
  const sel = str(p, 'selector');
  const all = bool(p, 'all');
  if (all && sel) throw new Fail("error: setting 'all' parameter with a non empty selector is prohibited");
  if (!all && !sel && resources.length < 2)
    throw new Fail("error: at least one resource name must be specified since 'all' parameter is not set");
  // The builder: the listed nodes as they are (a selector or --all), or a GET of each name.
  const nodes: { name: string; object?: Node }[] =
    all || sel
      ? list<Stored<Node>>(r, kindInfo('nodes'), undefined, sel).map((o) => ({
          name: o.metadata.name!,
          object: o,
        }))
      : resources.slice(1).map((name) => ({ name }));
  for (const { name, object } of nodes) {
    const n = object ?? r.must<Node>({ verb: 'get', resource: 'nodes', name });
    let taints: Taint[] = [...(n.spec?.taints ?? [])];
    for (const a of add) {
      const i = taints.findIndex((x) => x.key === a.key && x.effect === a.effect);
      if (i >= 0 && !bool(p, 'overwrite'))
        throw new Fail(
          `error: node ${name} already has ${a.key} taint(s) with same effect(s) and --overwrite is false`,
        );
      if (i >= 0) taints[i] = a;
      else taints.push(a);
    }
    for (const rm of remove) {
      const before = taints.length;
      taints = taints.filter((x) => !(x.key === rm.key && (!rm.effect || x.effect === rm.effect)));
      if (taints.length === before)
        throw new Fail(`error: taint "${rm.key}${rm.effect ? ':' + rm.effect : ''}" not found`);
    }
    const body = { spec: { taints: taints.length ? taints : null } };
    const done = add.length ? 'tainted' : 'untainted';
    if (dry === 'client') {
      printWritten(r, p, dry, `node/${name}`, done, mergePatch(n, body));
      continue;
    }
    const res = r.must({
      verb: 'patch',
      resource: 'nodes',
      name,
      body,
      options: writeOptions(dry, { patchType: 'merge', fieldManager: 'kubectl-taint', fieldValidation: 'Strict' }),
    });
    printWritten(r, p, dry, `node/${name}`, done, res);
  }
}
