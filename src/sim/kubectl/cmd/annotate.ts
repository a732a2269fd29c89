// kubectl annotate (pkg/cmd/annotate).
import { mergePatch } from '../../apiserver/patch.ts';
import { bool, nsOf, parse } from './flags.ts';
import { keyValueUpdates } from './label.ts';
import { Fail, apiError, type Obj, type Run } from './util.ts';
import { WRITE_FLAGS, checkOutput, dryRunStrategy, printWritten, writeOptions } from './dryrun.ts';

/** kubectl annotate: set (k=v) or remove (k-) annotations; an existing value needs --overwrite. */
export function cmdAnnotate(r: Run, argv: string[]): void {
  const p = parse(r, 'annotate', argv, { overwrite: { kind: 'bool' }, selector: { kind: 'string', short: 'l' }, all: { kind: 'bool' }, ...WRITE_FLAGS });
  const dry = dryRunStrategy(r, p);
  checkOutput(p);
  const { set, remove, objs } = keyValueUpdates(r, p, 'annotation');
  const ns = nsOf(p);
  for (const { kind, name } of objs) {
    const cur = r.req({ verb: 'get', resource: kind.resource, namespace: kind.namespaced ? ns : undefined, name });
    if (!cur.ok) { if (cur.code === 0) throw new Fail(apiError(cur.status)); r.error(apiError(cur.status)); continue; }
    const have: Record<string, string> = { ...(cur.object as Obj).metadata?.annotations };
    const clash = Object.entries(set).filter(([k, v]) => k in have && have[k] !== v);
    if (clash.length && !bool(p, 'overwrite')) {
      r.error(`error: --overwrite is false but found the following declared annotation(s): ${clash.map(([k]) => `'${k}' already has a value (${have[k]})`).join('; ')}`);
      continue;
    }
    const patch: Record<string, string | null> = { ...set };
    for (const k of remove) patch[k] = null;
    const body = { metadata: { annotations: patch } };
    if (dry === 'client') { printWritten(r, p, dry, `${kind.singular}/${name}`, 'annotated', mergePatch(cur.object, body)); continue; }
    const res = r.must({ verb: 'patch', resource: kind.resource, namespace: kind.namespaced ? ns : undefined, name, body, options: writeOptions(dry, { patchType: 'merge' }) });
    printWritten(r, p, dry, `${kind.singular}/${name}`, 'annotated', res);
  }
}
