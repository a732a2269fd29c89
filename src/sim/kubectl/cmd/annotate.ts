// kubectl annotate (pkg/cmd/annotate).
import { mergePatch } from '../../api/patch.ts';
import { bool, nsOf, parse } from './flags.ts';
import { keyValueUpdates, visitTarget } from './label.ts';
import { type Run } from './util.ts';
import { WRITE_FLAGS, checkOutput, dryRunStrategy, printWritten, writeOptions } from './dryrun.ts';

/** kubectl annotate: set (k=v) or remove (k-) annotations; an existing value needs --overwrite. */
export function cmdAnnotate(r: Run, argv: string[]): void {
  const p = parse(r, 'annotate', argv, {
    overwrite: { kind: 'bool' },
    selector: { kind: 'string', short: 'l' },
    all: { kind: 'bool' },
    ...WRITE_FLAGS,
  });
  const dry = dryRunStrategy(r, p);
  checkOutput(p);
  const { set, remove, objs } = keyValueUpdates(r, p, 'annotation');
  const ns = nsOf(p);
  for (const t of objs) {
    const { kind, name } = t;
    const object = visitTarget(r, t, ns);
    if (object === undefined) continue;
    const have: Record<string, string> = { ...object.metadata?.annotations };
    const clash = Object.entries(set).filter(([k, v]) => k in have && have[k] !== v);
    if (clash.length && !bool(p, 'overwrite')) {
      r.error(
        `error: --overwrite is false but found the following declared annotation(s): ${clash.map(([k]) => `'${k}' already has a value (${have[k]})`).join('; ')}`,
      );
      continue;
    }
    const patch: Record<string, string | null> = { ...set };
    for (const k of remove) patch[k] = null;
    const body = { metadata: { annotations: patch } };
    if (dry === 'client') {
      printWritten(r, p, dry, `${kind.singular}/${name}`, 'annotated', mergePatch(object, body));
      continue;
    }
    const res = r.must({
      verb: 'patch',
      resource: kind.resource,
      namespace: kind.namespaced ? ns : undefined,
      name,
      body,
      options: writeOptions(dry, { patchType: 'merge', fieldManager: 'kubectl-annotate' }),
    });
    printWritten(r, p, dry, `${kind.singular}/${name}`, 'annotated', res);
  }
}
