// kubectl set image (pkg/cmd/set): a strategic-merge patch of the pod template's containers.
import { strategicMergePatch } from '../../apiserver/patch.ts';
import { nsOf, parse } from './flags.ts';
import { Fail, NO_RESOURCES, oneTarget, type Obj, type Run, unknownSubcommand } from './util.ts';
import { WRITE_FLAGS, checkOutput, dryRunStrategy, printWritten, writeOptions } from './dryrun.ts';

/** kubectl set image TYPE/NAME CONTAINER=IMAGE…: the containers' images replaced. */
export function cmdSet(r: Run, argv: string[]): void {
  if (argv[0] !== 'image') throw new Fail(argv[0] ? unknownSubcommand('set', argv) : 'error: Required subcommand not specified.');
  const p = parse(r, 'set image', argv.slice(1), WRITE_FLAGS);
  const dry = dryRunStrategy(r, p);
  checkOutput(p);
  if (!p.args.length) throw new Fail(NO_RESOURCES);
  const pairs = p.args.filter((a) => a.includes('='));
  const rest = p.args.filter((a) => !a.includes('='));
  if (!pairs.length) throw new Fail('error: at least one image update is required');
  const { kind, name } = oneTarget(r, rest, 'set image');
  const ns = nsOf(p);
  const d = r.must({ verb: 'get', resource: kind.resource, namespace: ns, name });
  const tpl = kind.resource === 'pods' ? d : d.spec?.template;
  const containers: Obj[] = structuredClone(tpl?.spec?.containers ?? []);
  for (const pair of pairs) {
    const [cname, image] = [pair.slice(0, pair.indexOf('=')), pair.slice(pair.indexOf('=') + 1)];
    const targetsC = cname === '*' ? containers : containers.filter((c) => c.name === cname);
    if (!targetsC.length) throw new Fail(`error: unable to find container named "${cname}"`);
    for (const c of targetsC) c.image = image;
  }
  const patch = kind.resource === 'pods' ? { spec: { containers: containers.map((c) => ({ name: c.name, image: c.image })) } }
    : { spec: { template: { spec: { containers: containers.map((c) => ({ name: c.name, image: c.image })) } } } };
  if (dry === 'client') { printWritten(r, p, dry, `${kind.singular}/${name}`, 'image updated', strategicMergePatch(d, patch)); return; }
  const res = r.must({ verb: 'patch', resource: kind.resource, namespace: ns, name, body: patch, options: writeOptions(dry, { fieldManager: 'kubectl-set' }) });
  printWritten(r, p, dry, `${kind.singular}/${name}`, 'image updated', res);
}
