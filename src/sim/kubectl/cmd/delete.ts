// kubectl delete (pkg/cmd/delete): by name, selector or file, then --wait until the objects are gone.
import type { RequestOptions } from '../../api/request.ts';
import { kindInfo, type KindInfo } from '../resources.ts';
import { bool, nsOf, parse, str } from './flags.ts';
import { manifestObjects, manifestResource, readSource } from './manifest.ts';
import {
  Fail,
  apiError,
  list,
  noResources,
  parseGoBool,
  printAggregate,
  targets,
  type Run,
  type MetaObject,
  type Stored,
} from './util.ts';
import { WRITE_FLAGS, dryRunStrategy, dryRunSuffix, writeOptions } from './dryrun.ts';
import { untilWithSync } from './watch.ts';

/** parseCascadingFlag: background (the default), foreground or orphan; the old booleans still work, with a warning. */
function cascadingStrategy(r: Run, flag: string): 'Background' | 'Foreground' | 'Orphan' {
  switch (flag) {
    case 'orphan':
      return 'Orphan';
    case 'foreground':
      return 'Foreground';
    case 'background':
      return 'Background';
  }
  const b = parseGoBool(flag);
  if (b === undefined)
    throw new Fail(`error: invalid cascade value (${flag}). Must be "background", "foreground", or "orphan"`);
  r.warn(
    `warning: --cascade=${flag} is deprecated (boolean value) and can be replaced with --cascade=${b ? 'background' : 'orphan'}.\n`,
  );
  return b ? 'Background' : 'Orphan';
}

/** kubectl delete: by name, selector or file; then waits (--wait, the default) for the objects to go. */
export function cmdDelete(r: Run, argv: string[]): void {
  const p = parse(r, 'delete', argv, {
    selector: { kind: 'string', short: 'l' },
    'grace-period': { kind: 'string' },
    force: { kind: 'bool' },
    now: { kind: 'bool' },
    wait: { kind: 'bool' },
    all: { kind: 'bool' },
    'all-namespaces': { kind: 'bool', short: 'A' },
    filename: { kind: 'string', short: 'f' },
    'ignore-not-found': { kind: 'bool' },
    'field-selector': { kind: 'string' },
    cascade: { kind: 'string', noOptDefault: 'background' },
    ...WRITE_FLAGS,
  });
  const dry = dryRunStrategy(r, p);
  const output = str(p, 'output') ?? '';
  if (output !== '' && output !== 'name')
    throw new Fail(`error: unexpected -o output mode: ${output}, the flag 'output' must be one of yaml|wide|name|json`);
  const propagationPolicy = cascadingStrategy(r, str(p, 'cascade') ?? 'background');
  let grace = str(p, 'grace-period') === undefined ? -1 : Number(str(p, 'grace-period'));
  if (!Number.isInteger(grace))
    throw new Fail(
      `error: invalid argument "${str(p, 'grace-period')}" for "--grace-period" flag: strconv.ParseInt: parsing "${str(p, 'grace-period')}": invalid syntax\nSee 'kubectl delete --help' for usage.`,
    );
  const force = bool(p, 'force');
  if (bool(p, 'now')) grace = 1;
  if (grace === 0 && !force) grace = 1;
  if (force && grace < 0) grace = 0;
  const ns = nsOf(p);
  const objs: { kind: KindInfo; name: string; namespace?: string; named?: boolean }[] = [];
  // DeleteResult's visit goes on after an error and returns them all at the end (an aggregate).
  const errs: string[] = [];
  const file = str(p, 'filename');
  if (file) {
    for (const m of manifestObjects(r, readSource(r, file), file === '-' ? 'STDIN' : file)) {
      // An object of a kind the server does not serve is the builder's error; the others are deleted.
      let res: string;
      try {
        res = manifestResource(m, JSON.stringify(file === '-' ? 'STDIN' : file));
      } catch (e) {
        if (!(e instanceof Fail)) throw e;
        errs.push(e.message);
        continue;
      }
      const k = kindInfo(res);
      // A manifest without a name goes on as kubectl's does, to the server's refusal of the request.
      objs.push({
        kind: k,
        name: m.metadata?.name as string,
        namespace: k.namespaced ? m.metadata?.namespace || ns : undefined,
      });
    }
  } else {
    if (!p.args.length)
      throw new Fail(
        "error: You must provide one or more resources by argument or filename.\nExample resource specifications include:\n   '-f rsrc.yaml'\n   '--filename=rsrc.json'\n   '<resource> <name>'\n   '<resource>'",
      );
    const t = targets(p.args, r);
    if (t.kinds.length) {
      if (str(p, 'selector') === undefined && str(p, 'field-selector') === undefined && !bool(p, 'all'))
        throw new Fail('error: resource(s) were provided, but no name was specified');
      const allNs = bool(p, 'all-namespaces');
      for (const kind of t.kinds) {
        const items = list<Stored<MetaObject>>(
          r,
          kind,
          allNs ? undefined : ns,
          str(p, 'selector'),
          str(p, 'field-selector'),
        );
        objs.push(...items.map((o) => ({ kind, name: o.metadata.name!, namespace: o.metadata.namespace })));
      }
      if (!objs.length) {
        noResources(
          r,
          allNs ? undefined : ns,
          t.kinds.some((k) => k.namespaced),
        );
        return;
      }
    }
    objs.push(...t.names.map((x) => ({ ...x, namespace: x.kind.namespaced ? ns : undefined, named: true })));
  }
  if (grace === 0 && force)
    r.warn(
      'Warning: Immediate deletion does not wait for confirmation that the running resource has been terminated. The resource may continue to run on the cluster indefinitely.\n',
    );
  const waitFor: { kind: KindInfo; name: string; namespace?: string; uid?: string; grace: number }[] = [];
  for (const o of objs) {
    const op = grace === 0 && force ? 'force deleted' : 'deleted';
    const printed = () =>
      r.print(
        output === 'name'
          ? `${o.kind.singular}/${o.name}\n`
          : `${o.kind.singular} "${o.name}" ${op}${o.namespace ? ` from ${o.namespace} namespace` : ''}${dryRunSuffix(dry)}\n`,
      );
    if (dry === 'client') {
      // Nothing is sent but the resource builder's GET of a named object (a selector's list found the rest).
      if (o.named || file) {
        const got = r.req({ verb: 'get', resource: o.kind.resource, namespace: o.namespace, name: o.name });
        if (!got.ok) {
          if (got.code === 0) throw new Fail(apiError(got.status));
          if (got.code !== 404 || !bool(p, 'ignore-not-found')) errs.push(apiError(got.status));
          continue;
        }
      }
      printed();
      continue;
    }
    const options: RequestOptions = writeOptions(dry) ?? {};
    if (grace >= 0) options.gracePeriodSeconds = grace;
    options.propagationPolicy = propagationPolicy;
    const res = r.req({ verb: 'delete', resource: o.kind.resource, namespace: o.namespace, name: o.name, options });
    if (!res.ok) {
      if (res.code === 0) throw new Fail(apiError(res.status));
      if (res.code === 404 && bool(p, 'ignore-not-found')) continue;
      errs.push(apiError(res.status));
      continue;
    }
    printed();
    const left = res.object as MetaObject | undefined;
    waitFor.push({ ...o, uid: left?.metadata?.uid, grace: Number(left?.metadata?.deletionGracePeriodSeconds ?? 0) });
  }
  // With any error DeleteResult returns it before waiting for the deleted ones.
  if (errs.length) {
    printAggregate(r, errs);
    return;
  }
  // A dry run deletes nothing, so there is nothing to wait for.
  if (p.flags.wait === false || dry !== 'none') return;
  // --wait (default true): block until the objects are gone, as kubectl does, capped in simulated time.
  // A foreground deletion also waits for the dependents' own graceful termination.
  // A namespace waits for the namespace controller to empty it (its pods' grace periods, then /finalize).
  const cap =
    Math.max(0, ...waitFor.map((w) => w.grace)) * 1000 +
    10_000 +
    (propagationPolicy === 'Foreground' || waitFor.some((w) => w.kind.resource === 'namespaces') ? 60_000 : 0);
  const start = r.now;
  // IsDeleted for each object in turn: a GET, and unless it is gone (or a new object has its name),
  // a LIST and WATCH of it until its deletion arrives, all through the API server.
  for (const w of waitFor) {
    const cur = r.req({ verb: 'get', resource: w.kind.resource, namespace: w.namespace, name: w.name });
    if (!cur.ok) {
      if (cur.code === 404) continue;
      throw new Fail(apiError(cur.status));
    }
    if (w.uid && (cur.object as MetaObject).metadata?.uid !== w.uid) continue;
    if (
      !untilWithSync(r, w.kind, w.namespace, w.name, start + cap, (o) => !o || (!!w.uid && o.metadata?.uid !== w.uid))
    )
      return;
  }
}
