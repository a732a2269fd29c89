// kubectl label (pkg/cmd/label), and the `k=v` / `k-` arguments it shares with annotate.
import { mergePatch } from '../../api/patch.ts';
import type { Parsed } from '../args.ts';
import type { KindInfo } from '../resources.ts';
import { bool, nsOf, parse, str } from './flags.ts';
import { Fail, apiError, kindOrFail, list, targets, type Run, type MetaObject, type Stored } from './util.ts';
import { WRITE_FLAGS, checkOutput, dryRunStrategy, printWritten, writeOptions } from './dryrun.ts';

/** One object label or annotate visits: by name (fetched when visited), or as a list returned it. */
interface Target {
  kind: KindInfo;
  name: string;
  object?: MetaObject;
}

/** The object a target names: the listed one, or a GET of it (undefined after printing the error). */
export function visitTarget(r: Run, t: Target, ns: string | undefined): MetaObject | undefined {
  if (t.object) return t.object;
  const cur = r.req({
    verb: 'get',
    resource: t.kind.resource,
    namespace: t.kind.namespaced ? ns : undefined,
    name: t.name,
  });
  if (!cur.ok) {
    if (cur.code === 0) throw new Fail(apiError(cur.status));
    r.error(apiError(cur.status));
    return undefined;
  }
  return cur.object as MetaObject;
}

/**
 * What `kubectl label` and `kubectl annotate` share: the `k=v` (set) and `k-` (remove) arguments, and
 * the objects the rest of the arguments name (`TYPE NAME…`, `TYPE/NAME`, or `TYPE -l SELECTOR`).
 */
export function keyValueUpdates(
  r: Run,
  p: Parsed,
  what: 'label' | 'annotation',
  check?: (k: string, v: string, arg: string) => void,
): { set: Record<string, string>; remove: string[]; objs: Target[] } {
  const changes = p.args.filter((a) => a.includes('=') || a.endsWith('-'));
  const rest = p.args.filter((a) => !changes.includes(a));
  if (!rest.length)
    throw new Fail('error: one or more resources must be specified as <resource> <name> or <resource>/<name>');
  if (!changes.length) throw new Fail(`error: at least one ${what} update is required`);
  const set: Record<string, string> = {};
  const remove: string[] = [];
  for (const c of changes) {
    if (c.endsWith('-') && !c.includes('=')) {
      remove.push(c.slice(0, -1));
      continue;
    }
    const k = c.slice(0, c.indexOf('='));
    const v = c.slice(c.indexOf('=') + 1);
    check?.(k, v, c);
    set[k] = v;
  }
  const sel = str(p, 'selector');
  let objs: Target[];
  // --all (or a selector) picks every object of the type; a selector narrows it. The builder visits
  // the listed objects themselves (Latest() refetches only those read from files): no GET each.
  if (sel !== undefined || p.flags.all === true) {
    const kind = kindOrFail(rest[0] ?? '', r);
    objs = list<Stored<MetaObject>>(r, kind, nsOf(p), sel).map((o) => ({ kind, name: o.metadata.name!, object: o }));
  } else objs = targets(rest, r).names;
  if (!objs.length)
    throw new Fail('error: one or more resources must be specified as <resource> <name> or <resource>/<name>');
  return { set, remove, objs };
}

/** kubectl label: set (k=v) or remove (k-) labels; a different existing value needs --overwrite. */
export function cmdLabel(r: Run, argv: string[]): void {
  const p = parse(r, 'label', argv, {
    overwrite: { kind: 'bool' },
    selector: { kind: 'string', short: 'l' },
    all: { kind: 'bool' },
    ...WRITE_FLAGS,
  });
  const dry = dryRunStrategy(r, p);
  checkOutput(p);
  const { set, remove, objs } = keyValueUpdates(r, p, 'label', (k, v, arg) => {
    if (
      !/^([a-z0-9.-]+\/)?[A-Za-z0-9]([-A-Za-z0-9_.]*[A-Za-z0-9])?$/.test(k) ||
      !/^(([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9])?$/.test(v)
    )
      throw new Fail(`error: invalid label spec: ${arg}`);
  });
  const ns = nsOf(p);
  for (const t of objs) {
    const { kind, name } = t;
    const object = visitTarget(r, t, ns);
    if (object === undefined) continue;
    const labels: Record<string, string> = { ...object.metadata?.labels };
    // RunLabel says so for each label to remove that is not there (not in a client dry run).
    if (dry !== 'client')
      for (const k of remove) if (!(k in labels)) r.print(`label ${JSON.stringify(k)} not found.\n`);
    const patch: Record<string, string | null> = {};
    let bad = false;
    for (const [k, v] of Object.entries(set)) {
      if (k in labels && labels[k] !== v && !bool(p, 'overwrite')) {
        r.error(`error: '${k}' already has a value (${labels[k]}), and --overwrite is false`);
        bad = true;
        break;
      }
      if (labels[k] !== v) patch[k] = v;
    }
    if (bad) continue;
    for (const k of remove) if (k in labels) patch[k] = null;
    const what = `${kind.singular}/${name}`;
    if (!Object.keys(patch).length) {
      printWritten(r, p, dry, what, 'not labeled', object);
      continue;
    }
    const body = { metadata: { labels: patch } };
    // updateDataChangeMsg: what actually changed.
    const added = Object.values(patch).some((v) => v !== null);
    const removed = Object.values(patch).some((v) => v === null);
    const done = added && removed ? 'modified' : added ? 'labeled' : 'unlabeled';
    if (dry === 'client') {
      printWritten(r, p, dry, what, done, mergePatch(object, body));
      continue;
    }
    const res = r.must({
      verb: 'patch',
      resource: kind.resource,
      namespace: kind.namespaced ? ns : undefined,
      name,
      body,
      options: writeOptions(dry, { patchType: 'merge', fieldManager: 'kubectl-label' }),
    });
    printWritten(r, p, dry, what, done, res);
  }
}
