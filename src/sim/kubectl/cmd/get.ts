// kubectl get (pkg/cmd/get): tables, -o json|yaml|name|wide|jsonpath|custom-columns, --sort-by, -w.
import { CustomColumnsError, parseCustomColumns, printCustomColumns, type CustomColumn } from '../custom-columns.ts';
import { parseJsonPath } from '../jsonpath.ts';
import { asList, printTable, toCompactJSON, toJSON, toYAML, type TableOptions } from '../printers.ts';
import type { KindInfo } from '../resources.ts';
import { SortByError, sortByField, sortField } from '../sort-by.ts';
import { bool, nsOf, parse, str } from './flags.ts';
import { Fail, apiError, listAt, noResources, targets, withKind, type MetaObject, type Run } from './util.ts';
import { withWatch, type WatchSpec } from './watch.ts';
import type { WatchNotification } from '../../api/watch.ts';
import { formatNotSimulated, printJsonPath } from './dryrun.ts';

/** The --sort-by field, or kubectl's error. */
function sortFieldOrFail(sortBy: string): string {
  try {
    return sortField(sortBy);
  } catch (e) {
    if (e instanceof SortByError) throw new Fail(`error: ${e.message}`);
    throw e;
  }
}

/** sortByField, its refusals as kubectl prints them. */
function sortOrFail(items: MetaObject[], field: string, passes: number): void {
  try {
    sortByField(items, field, passes);
  } catch (e) {
    if (e instanceof SortByError) throw new Fail(`error: ${e.message}`);
    throw e;
  }
}

/** kubectl get's default --chunk-size. */
const CHUNK_SIZE = 500;

/** kubectl get: the objects named or selected, printed as the output format asks; -w watches on. */
export function cmdGet(r: Run, argv: string[]): void {
  const p = parse(r, 'get', argv, {
    output: { kind: 'string', short: 'o' },
    selector: { kind: 'string', short: 'l' },
    'all-namespaces': { kind: 'bool', short: 'A' },
    'show-labels': { kind: 'bool' },
    'field-selector': { kind: 'string' },
    watch: { kind: 'bool', short: 'w' },
    'no-headers': { kind: 'bool' },
    'sort-by': { kind: 'string' },
    'label-columns': { kind: 'strings', short: 'L' },
    'watch-only': { kind: 'bool' },
    'output-watch-events': { kind: 'bool' },
  });
  if (!p.args.length) {
    throw new Fail(
      'You must specify the type of resource to get. Use "kubectl api-resources" for a complete list of supported resources.\n\nerror: Required resource not specified.\nUse "kubectl explain <resource>" for a detailed description of that resource (e.g. kubectl explain pods).\nSee \'kubectl get -h\' for help and examples',
    );
  }
  const output = str(p, 'output') ?? '';
  const jsonpath = output.startsWith('jsonpath=') ? output.slice('jsonpath='.length) : undefined;
  if (jsonpath !== undefined) {
    try {
      parseJsonPath(jsonpath);
    } catch (e) {
      throw new Fail(`error: error parsing jsonpath ${jsonpath}, ${(e as Error).message}`);
    }
  }
  const customColumns =
    output === 'custom-columns'
      ? ''
      : output.startsWith('custom-columns=')
        ? output.slice('custom-columns='.length)
        : undefined;
  let columns: CustomColumn[] | undefined;
  if (customColumns !== undefined) {
    try {
      columns = parseCustomColumns(customColumns);
    } catch (e) {
      if (e instanceof CustomColumnsError) throw new Fail(`error: ${e.message}`);
      throw e;
    }
  }
  if (jsonpath === undefined && columns === undefined && !['', 'wide', 'json', 'yaml', 'name'].includes(output)) {
    throw new Fail(
      formatNotSimulated(output) ??
        `error: unable to match a printer suitable for the output format "${output}", allowed formats are: custom-columns,custom-columns-file,go-template,go-template-file,json,jsonpath,jsonpath-as-json,jsonpath-file,kyaml,name,template,templatefile,wide,yaml`,
    );
  }
  const watching = bool(p, 'watch') || bool(p, 'watch-only');
  const events = bool(p, 'output-watch-events');
  if (events && !watching)
    throw new Fail('error: --output-watch-events option can only be used with --watch or --watch-only');
  const all = bool(p, 'all-namespaces');
  const ns = all ? undefined : nsOf(p);
  const t = targets(p.args, r);
  const sortBy = str(p, 'sort-by');
  const field = sortBy ? sortFieldOrFail(sortBy) : undefined;
  const human = jsonpath === undefined && (output === '' || output === 'wide');
  if (sortBy && bool(p, 'watch'))
    r.warn('warning: --watch requested, --sort-by will be ignored for watch events received\n');
  else if (sortBy && bool(p, 'watch-only')) r.warn('warning: --watch-only requested, --sort-by will be ignored\n');
  const groups: { kind: KindInfo; items: MetaObject[]; resourceVersion?: string }[] = [];
  const errors: string[] = [];
  for (const kind of t.kinds) {
    // The resource builder asks for pages of --chunk-size (500) objects: one page holds them all here.
    const { items, resourceVersion } = listAt(r, kind, ns, str(p, 'selector'), str(p, 'field-selector'), CHUNK_SIZE);
    // One server-side Table per list: get sorts its rows, then the SortingPrinter sorts them again.
    if (field && human) sortOrFail(items, field, 2);
    groups.push({ kind, items, resourceVersion });
  }
  for (const { kind, name } of t.names) {
    const res = r.req({ verb: 'get', resource: kind.resource, namespace: kind.namespaced ? nsOf(p) : undefined, name });
    if (!res.ok) {
      if (res.code === 0) throw new Fail(apiError(res.status));
      errors.push(apiError(res.status));
      continue;
    }
    const g = groups.find((x) => x.kind.resource === kind.resource);
    const o = withKind(kind, res.object);
    // A named object is a Table of its own (one row): checked for the field, never moved.
    if (field && human) sortOrFail([o], field, 2);
    if (g) g.items.push(o);
    else groups.push({ kind, items: [o] });
  }
  let items = groups.flatMap((g) => g.items);
  const single = t.names.length === 1 && t.kinds.length === 0;
  // Other outputs print one list of everything, which the SortingPrinter sorts once (a single named
  // object is no list and is left alone).
  if (field && !human && !single) {
    items = [...items];
    sortOrFail(items, field, 1);
  }
  if (columns !== undefined) {
    if (!(single && !items.length)) r.print(printCustomColumns(columns, items, bool(p, 'no-headers')));
  } else if (jsonpath !== undefined) {
    if (!(single && !items.length)) printJsonPath(r, jsonpath, single ? items[0] : asList(items));
  } else if (watching && (output === 'json' || output === 'yaml' || output === 'name')) {
    if (single && !items.length) {
      for (const e of errors) r.error(e);
      return;
    }
    if (!single && !(t.kinds.length === 1 && t.names.length === 0))
      throw new Fail('error: you may only specify a single resource type');
    const kind = groups[0].kind;
    const spec: WatchSpec = single
      ? { namespace: ns, fieldSelector: `metadata.name=${t.names[0].name}`, resourceVersion: '0' }
      : {
          namespace: ns,
          labelSelector: str(p, 'selector'),
          fieldSelector: str(p, 'field-selector'),
          resourceVersion: groups[0].resourceVersion!,
        };
    watchObjects(r, kind, spec, bool(p, 'watch-only') ? [] : items, output, events, single);
    return;
  } else if (output === 'json' || output === 'yaml') {
    if (single && !items.length) {
      for (const e of errors) r.error(e);
      return;
    }
    const v: unknown = single ? items[0] : asList(items);
    r.print(output === 'json' ? toJSON(v) + '\n' : toYAML(v));
  } else if (output === 'name') {
    const kindOf = new Map<MetaObject, KindInfo>();
    for (const g of groups) for (const o of g.items) kindOf.set(o, g.kind);
    for (const o of items) r.print(`${kindOf.get(o)!.singular}/${o.metadata?.name}\n`);
  } else {
    const nonEmpty = groups.filter((g) => g.items.length);
    const withKindPrefix = groups.length > 1;
    const labelColumns = str(p, 'label-columns')
      ?.split(',')
      .filter((l) => l !== '');
    const tableOpts: TableOptions = {
      event: events ? 'ADDED' : undefined,
      wide: output === 'wide',
      allNamespaces: all,
      showLabels: bool(p, 'show-labels'),
      labelColumns,
      withKind: withKindPrefix,
      noHeaders: bool(p, 'no-headers'),
    };
    const watchOnly = bool(p, 'watch-only');
    if (!watchOnly) {
      nonEmpty.forEach((g, i) => {
        if (i > 0) r.print('\n');
        r.print(printTable(g.kind, g.items, r.now, tableOpts));
      });
    }
    if (bool(p, 'watch') || watchOnly) {
      if (single) {
        // One named object: not found is the error; found, the watch starts at resourceVersion 0 with
        // its name as the field selector, so the server's first event is the object as it is now,
        // which get's skipPrinter holds back (outputObjects is false until one event has passed).
        if (!items.length) {
          for (const e of errors) r.error(e);
          return;
        }
        const kind = groups[0].kind;
        const spec = { namespace: ns, fieldSelector: `metadata.name=${t.names[0].name}`, resourceVersion: '0' };
        watchRows(r, kind, spec, tableOpts, !watchOnly || !!tableOpts.noHeaders, true);
        return;
      }
      if (!(t.kinds.length === 1 && t.names.length === 0))
        throw new Fail('error: you may only specify a single resource type');
      // Headers come with the first row printed: the empty first table printed none.
      const spec = {
        namespace: ns,
        labelSelector: str(p, 'selector'),
        fieldSelector: str(p, 'field-selector'),
        resourceVersion: groups[0].resourceVersion!,
      };
      watchRows(r, t.kinds[0], spec, tableOpts, (items.length > 0 && !watchOnly) || !!tableOpts.noHeaders);
      return;
    }
  }
  // Only the human-readable printers say so; the others print an empty list (or nothing).
  if (human && !items.length && !errors.length && t.kinds.length)
    noResources(
      r,
      ns,
      t.kinds.some((k) => k.namespaced),
    );
  for (const e of errors) r.error(e);
}

/**
 * get -w -o json|yaml|name: each object of the list printed alone (JSON indented, YAML documents
 * after the first opened by `---`), then each notification; with --output-watch-events each is a
 * WatchEvent, `{"type":…,"object":…}` on one line in JSON (`object:` then `type:` in YAML), the
 * listed ones as ADDED. A single named object's watch starts at resourceVersion 0: its first event,
 * the object as it is, is not printed again (the skipPrinter holds it back).
 */
function watchObjects(
  r: Run,
  kind: KindInfo,
  spec: WatchSpec,
  initial: MetaObject[],
  output: string,
  events: boolean,
  single: boolean,
): void {
  let count = 0;
  const printOne = (o: MetaObject, type: string): void => {
    if (output === 'name') {
      r.print(`${kind.singular}/${o.metadata?.name}\n`);
      return;
    }
    if (output === 'json') {
      r.print(events ? `{"type":${JSON.stringify(type)},"object":${toCompactJSON(o)}}\n` : `${toJSON(o)}\n`);
      return;
    }
    r.print(`${count++ ? '---\n' : ''}${toYAML(events ? { object: o, type } : o)}`);
  };
  for (const o of initial) printOne(o, 'ADDED');
  let skip = single;
  runWatch(r, kind, spec, (n) => {
    if (n.eventType === 'BOOKMARK') return;
    if (skip) {
      skip = false;
      return;
    }
    printOne(withKind(kind, n.object), n.eventType);
  });
}

/**
 * get -w's stream: each notification handed to `each` as simulated time runs on, until nothing is
 * left to happen (only heartbeats queued), WATCH_LIMIT_MS passes or --request-timeout cuts it; then
 * how it ended, said on stderr (the real one runs until Ctrl-C). Cut by --request-timeout (the HTTP
 * client's timeout ends the stream), it ends silently, exit 0, as the real one does.
 */
function runWatch(r: Run, kind: KindInfo, spec: WatchSpec, each: (n: WatchNotification) => void): void {
  const deadline = r.now + WATCH_LIMIT_MS;
  const cut = r.requestTimeoutMs !== undefined ? r.now + r.requestTimeoutMs : Infinity;
  withWatch(r, kind, spec, (w) => {
    // settle(0) runs no time: it says whether anything but heartbeats is queued.
    while (r.now < deadline && r.now < cut && (cut !== Infinity || !r.cluster.settle(0))) {
      r.cluster.advance(100);
      for (const n of w.take()) each(n);
    }
  });
  if (r.now >= cut) return;
  r.warn(
    `(watch ended: ${r.now >= deadline ? `${WATCH_LIMIT_MS / 60_000} simulated minutes passed` : 'nothing is left to happen'}; a real kubectl get -w keeps waiting until Ctrl-C)\n`,
  );
}

/** How long a simulated `get -w` may run, in simulated time, when the cluster never goes quiet. */
const WATCH_LIMIT_MS = 10 * 60_000;

/**
 * get -w after the first table: a WATCH from the list's resourceVersion (the namespace, the label and
 * field selectors), one row per notification, each flushed alone as kubectl flushes it (so its
 * columns are as wide as that row; the header comes with the first row when the first table had
 * none). A change that takes an object out of the selector arrives as its deletion, the API server's
 * doing. A real watch runs until Ctrl-C; here simulated time runs on until nothing is left to happen
 * (only heartbeats queued) or WATCH_LIMIT_MS passes, and a note on stderr says so.
 */
function watchRows(
  r: Run,
  kind: KindInfo,
  spec: WatchSpec,
  opts: TableOptions,
  headed: boolean,
  skipFirst = false,
): void {
  runWatch(r, kind, spec, (n) => {
    if (skipFirst) {
      skipFirst = false;
      return;
    }
    r.print(
      printTable(kind, [withKind(kind, n.object)], r.now, {
        ...opts,
        noHeaders: headed,
        event: opts.event && n.eventType,
      }),
    );
    headed = true;
  });
}
