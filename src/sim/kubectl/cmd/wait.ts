// kubectl wait (pkg/cmd/wait): until each object meets a condition, or the timeout passes.
import { parseDurationMs } from '../../util/parse-duration.ts';
import type { KindInfo } from '../resources.ts';
import { arr, bool, nsOf, parse, str } from './flags.ts';
import { Fail, apiError, list, targets, type Run, withKind, type MetaObject, type Stored } from './util.ts';
import { untilWithSync } from './watch.ts';

type WaitCondition = (o: MetaObject | undefined) => boolean;

/** The status conditions every kind that has them shares (metav1.Condition's fields wait reads). */
interface Conditioned {
  metadata?: { generation?: number };
  status?: {
    observedGeneration?: number;
    conditions?: { type?: string; status?: string; observedGeneration?: number }[];
  };
}

/** ConditionalWait.IsConditionMet: the named condition has the status (case-insensitive), for the current generation. */
function conditionMet(name: string, status: string): WaitCondition {
  return (obj) => {
    const o = obj as Conditioned | undefined;
    for (const c of o?.status?.conditions ?? []) {
      if (String(c.type ?? '').toLowerCase() !== name.toLowerCase()) continue;
      const generation = o?.metadata?.generation;
      const observed = c.observedGeneration ?? o?.status?.observedGeneration;
      if (generation !== undefined && observed !== undefined && observed < generation) return false;
      return String(c.status ?? '').toLowerCase() === status.toLowerCase();
    }
    return false;
  };
}

/** A `{.a.b[0].c}` JSONPath (field names and indexes only) read from an object. */
function simpleJsonPath(expr: string): ((o: MetaObject) => unknown) | undefined {
  const m = /^\{((?:\.[A-Za-z0-9_-]+(?:\[\d+\])?)+)\}$/.exec(expr);
  if (!m) return undefined;
  const steps: (string | number)[] = [];
  for (const part of m[1].slice(1).split('.')) {
    const [, field, index] = /^([A-Za-z0-9_-]+)(?:\[(\d+)\])?$/.exec(part)!;
    steps.push(field);
    if (index !== undefined) steps.push(Number(index));
  }
  return (o) =>
    steps.reduce<unknown>((v, k) => (v == null ? undefined : (v as Record<string | number, unknown>)[k]), o);
}

/** One --for of conditionFuncsFor: delete, create, condition=NAME[=STATUS] or jsonpath='{.path}'=VALUE. */
function waitCondition(forArg: string): WaitCondition {
  const lower = forArg.toLowerCase();
  if (lower === 'delete') return (o) => o === undefined;
  if (lower === 'create') return (o) => o !== undefined;
  if (forArg.startsWith('condition=')) {
    const rest = forArg.slice('condition='.length);
    const eq = rest.indexOf('=');
    return conditionMet(eq === -1 ? rest : rest.slice(0, eq), eq === -1 ? 'true' : rest.slice(eq + 1));
  }
  if (forArg.startsWith('jsonpath=')) {
    const body = forArg.slice('jsonpath='.length).replace(/^'|'$/g, '');
    const eq = body.lastIndexOf('}=');
    const expr = eq === -1 ? body : body.slice(0, eq + 1);
    const want = eq === -1 ? undefined : body.slice(eq + 2);
    const read = simpleJsonPath(expr);
    if (!read)
      throw new Fail(
        `error: this simulator's kubectl wait reads only simple paths such as '{.status.phase}', not ${JSON.stringify(expr)}`,
      );
    return (o) => {
      if (!o) return false;
      const v = read(o);
      return want === undefined
        ? v !== undefined
        : v !== undefined && v !== null && typeof v !== 'object' && String(v) === want;
    };
  }
  throw new Fail(`error: unrecognized condition: ${JSON.stringify(forArg)}`);
}

/** conditionFuncsFor: one condition per --for, in order; none given is an error naming the empty list. */
function waitConditions(forArgs: string[]): WaitCondition[] {
  if (!forArgs.length) throw new Fail('error: unrecognized condition: []');
  return forArgs.map(waitCondition);
}

/** The longest a `kubectl wait` runs simulated time. */
const WAIT_CAP_MS = 3_600_000;

/**
 * kubectl wait: each object read (GET), then watched through the API server (LIST and WATCH with
 * fieldSelector metadata.name=NAME) while simulated time runs, until it meets each condition in
 * turn (--for may be given several times, 1.36+; each one met prints its line) or --timeout (30 s)
 * passes.
 */
export function cmdWait(r: Run, argv: string[]): void {
  const p = parse(r, 'wait', argv, {
    for: { kind: 'array' },
    timeout: { kind: 'string' },
    selector: { kind: 'string', short: 'l' },
    all: { kind: 'bool' },
  });
  const forArgs = arr(p, 'for');
  const conds = waitConditions(forArgs);
  const timeoutArg = str(p, 'timeout') ?? '30s';
  const timeoutMs = parseDurationMs(timeoutArg.replace(/^-.*/, '0'));
  if (timeoutMs === undefined)
    throw new Fail(
      `error: invalid argument "${timeoutArg}" for "--timeout" flag: time: invalid duration "${timeoutArg}"\nSee 'kubectl wait --help' for usage.`,
    );
  // A negative timeout is kubectl's "a week"; the simulator runs at most an hour of simulated time
  // per command, so a page never spends long on one line.
  const requested = timeoutArg.startsWith('-') ? 168 * 3_600_000 : timeoutMs;
  const effective = Math.min(requested, WAIT_CAP_MS);
  const ns = nsOf(p);
  const t = targets(p.args, r);
  const objs: { kind: KindInfo; name: string }[] = [...t.names];
  for (const kind of t.kinds) {
    if (str(p, 'selector') === undefined && !bool(p, 'all'))
      throw new Fail('error: resource(s) were provided, but no name was specified');
    for (const o of list<Stored<MetaObject>>(r, kind, ns, str(p, 'selector')))
      objs.push({ kind, name: o.metadata.name! });
  }
  if (!objs.length) throw new Fail('error: no matching resources found');
  const deadline = r.now + effective;
  const forDelete = forArgs.some((f) => f.toLowerCase() === 'delete');
  for (const { kind, name } of objs) {
    const namespace = kind.namespaced ? ns : undefined;
    // The resource builder's GET (--for=delete ignores NotFound: an object already gone is skipped without a word).
    const first = r.req({ verb: 'get', resource: kind.resource, namespace, name });
    if (!first.ok && first.code === 404 && forDelete) continue;
    if (!first.ok) throw new Fail(apiError(first.status));
    forArgs.forEach((forArg, i) => {
      if (!waitFor(r, kind, namespace, name, forArg.toLowerCase(), conds[i], requested, deadline)) {
        if (requested > effective)
          throw new Fail(
            `error: the simulator waits at most 1h0m0s, and the condition is not met yet on ${kind.resource}/${name}`,
          );
        throw new Fail(`error: timed out waiting for the condition on ${kind.resource}/${name}`);
      }
      r.print(`${kind.singular}/${name} condition met\n`);
    });
  }
}

/** One condition on one object: whether it is met by the deadline (every condition of the command shares one). */
function waitFor(
  r: Run,
  kind: KindInfo,
  namespace: string | undefined,
  name: string,
  forArg: string,
  cond: WaitCondition,
  requested: number,
  deadline: number,
): boolean {
  // IsCreated is done once the object is found; IsDeleted reads it again before it watches; the
  // condition and jsonpath waits list it and, unless that settles it, watch it.
  const forDelete = forArg === 'delete';
  if (forArg === 'create') return true;
  let met = false;
  if (forDelete) {
    const again = r.req({ verb: 'get', resource: kind.resource, namespace, name });
    if (!again.ok && again.code !== 404) throw new Fail(apiError(again.status));
    met = !again.ok;
  }
  // --timeout=0: one more GET and one check, no watch (getObjAndCheckCondition).
  if (!met && requested === 0) {
    if (!forDelete) {
      const once = r.req({ verb: 'get', resource: kind.resource, namespace, name });
      if (!once.ok) throw new Fail(apiError(once.status));
      met = cond(withKind(kind, once.object));
    }
    if (!met) throw new Fail(`error: condition not met for ${kind.resource}/${name}`);
  }
  return met || untilWithSync(r, kind, namespace, name, deadline, cond);
}
