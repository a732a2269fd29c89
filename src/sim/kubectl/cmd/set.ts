// kubectl set image, env and resources (pkg/cmd/set): a strategic-merge patch of the pod template's containers.
import type {
  Container,
  EnvVar,
  EnvVarSource,
  Pod,
  PodSpec,
  PodTemplateSpec,
  ResourceRequirements,
} from 'kubernetes-types/core/v1';
import { fromUnstructured, nestedField, nestedString, type Unstructured } from '../../api/unstructured.ts';
import { strategicMergePatch } from '../../api/patch.ts';
import { RESOURCES } from '../../api/resources.ts';
import { regexError } from '../../api/name-validation.ts';
import { deepEqual } from '../../util/names.ts';
import { parseQuantity } from '../../api/quantity.ts';
import type { Parsed } from '../args.ts';
import type { KindInfo } from '../resources.ts';
import { arr, bool, nsOf, parse, str } from './flags.ts';
import {
  Fail,
  NO_RESOURCES,
  apiError,
  kindOrFail,
  list,
  oneTarget,
  printAggregate,
  targets,
  type Run,
  unknownSubcommand,
  withKind,
} from './util.ts';
import { WRITE_FLAGS, checkOutput, dryRunStrategy, printWritten, writeOptions, type DryRun } from './dryrun.ts';

/** kubectl set image|env|resources: the pod template's images, environment or resource requirements. */
export function cmdSet(r: Run, argv: string[]): void {
  if (argv[0] === 'env') return setEnv(r, argv.slice(1));
  if (argv[0] === 'resources') return setResources(r, argv.slice(1));
  if (argv[0] !== 'image')
    throw new Fail(argv[0] ? unknownSubcommand('set', argv) : 'error: Required subcommand not specified.');
  setImage(r, argv);
}

/** kubectl set image TYPE/NAME CONTAINER=IMAGE…: the containers' images replaced. */
function setImage(r: Run, argv: string[]): void {
  const p = parse(r, 'set image', argv.slice(1), WRITE_FLAGS);
  const dry = dryRunStrategy(r, p);
  checkOutput(p);
  if (!p.args.length) throw new Fail(NO_RESOURCES);
  const pairs = p.args.filter((a) => a.includes('='));
  const rest = p.args.filter((a) => !a.includes('='));
  if (!pairs.length) throw new Fail('error: at least one image update is required');
  const { kind, name } = oneTarget(r, rest, 'set image');
  const ns = nsOf(p);
  const d = r.must<Unstructured>({ verb: 'get', resource: kind.resource, namespace: ns, name });
  const tpl = kind.resource === 'pods' ? fromUnstructured<Pod>(d) : fromUnstructured<Templated>(d).spec?.template;
  const containers: Container[] = structuredClone(tpl?.spec?.containers ?? []);
  for (const pair of pairs) {
    const [cname, image] = [pair.slice(0, pair.indexOf('=')), pair.slice(pair.indexOf('=') + 1)];
    const targetsC = cname === '*' ? containers : containers.filter((c) => c.name === cname);
    if (!targetsC.length) throw new Fail(`error: unable to find container named "${cname}"`);
    for (const c of targetsC) c.image = image;
  }
  const patch =
    kind.resource === 'pods'
      ? { spec: { containers: containers.map((c) => ({ name: c.name, image: c.image })) } }
      : { spec: { template: { spec: { containers: containers.map((c) => ({ name: c.name, image: c.image })) } } } };
  if (dry === 'client') {
    printWritten(r, p, dry, `${kind.singular}/${name}`, 'image updated', strategicMergePatch(d, patch));
    return;
  }
  const res = r.must({
    verb: 'patch',
    resource: kind.resource,
    namespace: ns,
    name,
    body: patch,
    options: writeOptions(dry, { fieldManager: 'kubectl-set' }),
  });
  printWritten(r, p, dry, `${kind.singular}/${name}`, 'image updated', res);
}

// ---------------------------------------------------------------- set env, set resources

/** A workload with a pod template (Deployment, ReplicaSet, DaemonSet, StatefulSet, Job), as far as set reads it. */
interface Templated {
  spec?: { template?: PodTemplateSpec };
}

/** One object the builder visited: its kind, name and the object as the server sent it. */
interface Info {
  kind: KindInfo;
  name: string;
  object: Unstructured;
}

/**
 * The builder of set env and set resources (ResourceTypeOrNameArgs with Latest, ContinueOnError): a
 * GET of each name, or a LIST of each type for --all or -l; the GETs' errors, together, end it.
 */
function podTemplateInfos(
  r: Run,
  p: Parsed,
  resources: string[],
  all: boolean,
  sel: string | undefined,
  ns: string,
): Info[] {
  if (all || sel !== undefined) {
    if (resources.some((a) => a.includes('/')))
      throw new Fail('error: selectors and the all flag cannot be used when passing resource/name arguments');
    if (resources.length > 1) throw new Fail('error: name cannot be provided when a selector is specified');
    const kinds = (resources[0] ?? '').split(',').map((t) => kindOrFail(t, r));
    return kinds.flatMap((kind) =>
      list(r, kind, ns, sel).map((o) => ({ kind, name: nestedString(o, 'metadata', 'name') ?? '', object: o })),
    );
  }
  const t = targets(resources, r);
  if (t.kinds.length) throw new Fail('error: resource(s) were provided, but no name was specified');
  const infos: Info[] = [];
  const errs: string[] = [];
  for (const { kind, name } of t.names) {
    const got = r.req({ verb: 'get', resource: kind.resource, namespace: kind.namespaced ? ns : undefined, name });
    if (got.ok) infos.push({ kind, name, object: withKind(kind, got.object) });
    else errs.push(apiError(got.status));
  }
  // checkErr prints an aggregate of several one error a line.
  if (errs.length) throw new Fail(errs.join('\n'));
  return infos;
}

/** polymorphichelpers.UpdatePodSpecForObjectFn's path to the pod spec (a Pod's own, else its template's), or its error. */
function podSpecPath(info: Info): string[] {
  if (info.kind.resource === 'pods') return ['spec'];
  if (['deployments', 'replicasets', 'daemonsets', 'statefulsets', 'jobs'].includes(info.kind.resource))
    return ['spec', 'template', 'spec'];
  throw new Error(`the object is not a pod or does not have a pod template: *v1.${RESOURCES[info.kind.resource].kind}`);
}

/** The pod spec at a path of an object (undefined where a step is missing). */
const at = (o: Unstructured, path: string[]): PodSpec | undefined => nestedField(o, ...path) as PodSpec | undefined;
/** `{a: {b: v}}` for the path [a, b]. */
const nest = (path: string[], v: Unstructured): Unstructured =>
  path.reduceRight<Unstructured>((acc, k) => ({ [k]: acc }), v);

/** What a set command changed in one container, as a patch's fields (undefined: nothing). */
type ContainerDiff = (before: Container | undefined, after: Container) => Unstructured | undefined;

/** selectString: `*` every name; else the name itself, or a pattern whose `*`s stand for any run of characters. */
export function selectString(s: string, spec: string): boolean {
  if (spec === '*') return true;
  if (!spec.includes('*')) return s === spec;
  // helper.go's loop, as written (its index arithmetic included): the first part must lead, the last end the name.
  let pos = 0;
  const parts = spec.split('*');
  for (let i = 0; i < parts.length; i++) {
    const part = parts[i];
    if (!part) continue;
    const next = s.slice(pos).indexOf(part);
    if (next < pos || (i === 0 && pos !== 0) || (i === parts.length - 1 && s.length !== part.length + next))
      return false;
    pos = next;
  }
  return true;
}

/**
 * CalculatePatch's strategic merge patch, for the containers a mutation changed: each changed
 * container by name with the changed field (`diff` gives it), nested at the pod spec's path; {} when
 * nothing changed (the command then sends nothing and prints nothing).
 */
function containersPatch(path: string[], before: Unstructured, after: Unstructured, diff: ContainerDiff): Unstructured {
  const spec: Unstructured = {};
  for (const field of ['containers', 'initContainers'] as const) {
    const changed: Unstructured[] = [];
    const olds: Container[] = at(before, path)?.[field] ?? [];
    (at(after, path)?.[field] ?? []).forEach((c, i) => {
      const d = diff(olds[i], c);
      if (d) changed.push({ name: c.name, ...d });
    });
    if (changed.length) spec[field] = changed;
  }
  return Object.keys(spec).length ? nest(path, spec) : {};
}

/** The two-way patch of a container's env list (merge key name): the items added or changed, `$patch: delete` for the removed, null when none is left. */
function envDiff(before: Container | undefined, after: Container): Unstructured | undefined {
  const olds: EnvVar[] = before?.env ?? [];
  const news: EnvVar[] = after.env ?? [];
  if (deepEqual(olds, news)) return undefined;
  if (!news.length) return { env: null };
  const items: (EnvVar | { $patch: 'delete'; name: string })[] = news.filter((e) => !olds.some((o) => deepEqual(o, e)));
  for (const o of olds) if (!news.some((e) => e.name === o.name)) items.push({ $patch: 'delete', name: o.name });
  return { env: items };
}

/** validation.IsEnvVarName: kubectl holds the names it sets to the strict rule (the API server is more lenient). */
function envVarNameErrors(name: string): string[] {
  const errs = /^[-._a-zA-Z][-._a-zA-Z0-9]*$/.test(name)
    ? []
    : [
        regexError(
          "a valid environment variable name must consist of alphabetic characters, digits, '_', '-', or '.', and must not start with a digit",
          '[-._a-zA-Z][-._a-zA-Z0-9]*',
          'my.env-name',
          'MY_ENV.NAME',
          'MyEnvName1',
        ),
      ];
  if (name === '.') errs.push("must not be '.'");
  else if (name === '..') errs.push("must not be '..'");
  else if (name.startsWith('..')) errs.push("must not start with '..'");
  return errs;
}

/** env.ParseEnv: NAME=VALUE pairs, NAME- removals, `-` the lines of stdin; a name both set and removed is refused. */
export function parseEnv(specs: string[], stdin: string | undefined): { env: EnvVar[]; remove: string[] } {
  const env: EnvVar[] = [];
  const remove: string[] = [];
  for (const spec of specs) {
    if (spec === '-') {
      if (stdin === undefined) throw new Fail("error: when '-' is used, STDIN must be open");
      // readEnv: a `#` starts a comment; lines without `=` are skipped, and names are not checked.
      for (const line of stdin.split('\n')) {
        const text = line.includes('#') ? line.slice(0, line.indexOf('#')) : line;
        if (text.includes('='))
          env.push({ name: text.slice(0, text.indexOf('=')), value: text.slice(text.indexOf('=') + 1) });
      }
    } else if (spec.includes('=')) {
      const name = spec.slice(0, spec.indexOf('='));
      const errs = envVarNameErrors(name);
      if (errs.length) throw new Fail(`error: ${JSON.stringify(name)} is not a valid key name: ${errs.join(';')}`);
      env.push({ name, value: spec.slice(spec.indexOf('=') + 1) });
    } else if (spec.endsWith('-')) remove.push(spec.slice(0, -1));
    else throw new Fail(`error: unknown environment variable: ${spec}`);
  }
  if (remove.some((k) => specs.some((s) => s.includes('=') && s.slice(0, s.indexOf('=')) === k)))
    throw new Fail('error: can not both modify and remove the same environment variable in the same command');
  return { env, remove };
}

/** updateEnv: the existing variables in order (a new value in place, the removed dropped), then the new ones. */
export function updateEnv(existing: EnvVar[], env: EnvVar[], remove: string[]): EnvVar[] {
  const covered = new Set(remove);
  const out: EnvVar[] = [];
  for (const e of existing) {
    if (covered.has(e.name)) continue;
    const newer = env.find((n) => n.name === e.name);
    if (newer) {
      covered.add(e.name);
      out.push(newer);
    } else out.push(e);
  }
  for (const e of env)
    if (!covered.has(e.name)) {
      covered.add(e.name);
      out.push(e);
    }
  return out;
}

/** Where the first argument that is a change (`K=V` or `K-`) starts; every argument after it must be one too. */
function splitChanges(args: string[]): { resources: string[]; changes: string[] } | undefined {
  const isChange = (s: string) => /^[^]+=[^]*$/.test(s) || s.endsWith('-');
  const first = args.findIndex(isChange);
  if (first < 0) return { resources: args, changes: [] };
  return args.slice(first).every(isChange)
    ? { resources: args.slice(0, first), changes: args.slice(first) }
    : undefined;
}

/** Each patch's outcome the set commands gather: printed as they go, their errors at the end together. */
function sendPatches(
  r: Run,
  p: Parsed,
  dry: DryRun,
  infos: Info[],
  mutate: (info: Info, spec: PodSpec) => void,
  diff: ContainerDiff,
  verb: string,
  failure: string,
  errs: string[],
): void {
  for (const info of infos) {
    const after = structuredClone(info.object);
    let path: string[];
    try {
      path = podSpecPath(info);
      // A missing spec throws in the mutation, which reports it as this object's error.
      mutate(info, at(after, path)!);
    } catch (e) {
      if (e instanceof Fail) throw e;
      errs.push(`error: ${info.kind.resource}/${info.name} ${(e as Error).message}\n`);
      continue;
    }
    const patch = containersPatch(path, info.object, after, diff);
    if (!Object.keys(patch).length) continue;
    const what = `${info.kind.singular}/${info.name}`;
    if (dry === 'client') {
      printWritten(r, p, dry, what, verb, after);
      continue;
    }
    const res = r.req({
      verb: 'patch',
      resource: info.kind.resource,
      namespace: info.kind.namespaced ? nsOf(p) : undefined,
      name: info.name,
      body: patch,
      options: writeOptions(dry, { fieldManager: 'kubectl-set' }),
    });
    // The API error wrapped (fmt.Errorf's %v): its message as the server wrote it.
    if (!res.ok) {
      errs.push(`error: ${failure}${res.status.code === 0 ? apiError(res.status) : res.status.message}`);
      continue;
    }
    printWritten(r, p, dry, what, verb, res.object);
  }
}

/** kubectl set env RESOURCE/NAME KEY=VALUE… | KEY-…: a pod template's environment set or listed (--list). */
function setEnv(r: Run, argv: string[]): void {
  const p = parse(r, 'set env', argv, {
    containers: { kind: 'string', short: 'c' },
    env: { kind: 'array', short: 'e' },
    list: { kind: 'bool' },
    overwrite: { kind: 'bool' },
    all: { kind: 'bool' },
    selector: { kind: 'string', short: 'l' },
    prefix: { kind: 'string' },
    'field-manager': { kind: 'string' },
    ...WRITE_FLAGS,
  });
  const sel = str(p, 'selector');
  // Complete: --all with a selector, the arguments' order, the dry run and the printer; Validate; then RunEnv.
  if (bool(p, 'all') && sel) throw new Fail('error: cannot set --all and --selector at the same time');
  const split = splitChanges(p.args);
  if (!split) throw new Fail(`error: all resources must be specified before environment changes: ${p.args.join(' ')}`);
  const dry = dryRunStrategy(r, p);
  checkOutput(p);
  if (!split.resources.length)
    throw new Fail('error: one or more resources must be specified as <resource> <name> or <resource>/<name>');
  const listing = bool(p, 'list');
  if (listing && str(p, 'output')) throw new Fail('error: --list and --output may not be specified together');
  const { env, remove } = parseEnv([...arr(p, 'env'), ...split.changes], r.stdin);
  const prefix = str(p, 'prefix') ?? '';
  for (const e of env) e.name = prefix + e.name;
  const selector = str(p, 'containers') ?? '*';
  const overwrite = p.flags.overwrite !== false;
  const infos = podTemplateInfos(r, p, split.resources, bool(p, 'all'), sel, nsOf(p));
  const errs: string[] = [];
  const mutate = (info: Info, spec: PodSpec): void => {
    const containers = [...(spec.containers ?? []), ...(spec.initContainers ?? [])].filter((c) =>
      selectString(c.name, selector),
    );
    if (!containers.length) {
      r.warn(
        `Warning: ${info.object.kind}/${info.name} does not have any containers matching ${JSON.stringify(selector)}\n`,
      );
      return;
    }
    for (const c of containers) {
      if (!overwrite) {
        const clash = env.find((e) => c.env?.some((x) => x.name === e.name && x.value !== e.value));
        if (clash) {
          // The clash came from this list, so the variable is there.
          const cur = c.env!.find((x) => x.name === clash.name)!;
          throw new Error(`'${cur.name}' already has a value (${cur.value ?? ''}), and --overwrite is false`);
        }
      }
      const next = updateEnv(c.env ?? [], env, remove);
      if (next.length) c.env = next;
      else delete c.env;
      if (!listing) continue;
      r.print(`# ${info.object.kind} ${info.name}, container ${c.name}\n`);
      for (const e of next)
        r.print(e.valueFrom ? `# ${e.name} from ${envVarRefString(e.valueFrom)}\n` : `${e.name}=${e.value ?? ''}\n`);
    }
  };
  if (listing) {
    for (const info of infos) {
      try {
        mutate(info, at(structuredClone(info.object), podSpecPath(info))!);
      } catch (e) {
        if (e instanceof Fail) throw e;
      }
    }
    return;
  }
  sendPatches(r, p, dry, infos, mutate, envDiff, 'env updated', 'failed to patch env update to pod template: ', errs);
  if (errs.length) printAggregate(r, errs);
}

/** envutil.GetEnvVarRefString: where a variable's value comes from, as --list prints it. */
function envVarRefString(from: EnvVarSource): string {
  if (from.configMapKeyRef) return `configmap ${from.configMapKeyRef.name}, key ${from.configMapKeyRef.key}`;
  if (from.secretKeyRef) return `secret ${from.secretKeyRef.name}, key ${from.secretKeyRef.key}`;
  if (from.fieldRef) return `field path ${from.fieldRef.fieldPath}`;
  if (from.resourceFieldRef) {
    const ref = from.resourceFieldRef;
    return `resource ${ref.resource}${ref.containerName ? `, container ${ref.containerName}` : ''}`;
  }
  return 'invalid valueFrom';
}

/** parseResourceList: `cpu=100m,memory=128Mi`, each quantity as ParseQuantity takes it. */
function parseResourceList(spec: string): Record<string, string> | undefined {
  if (!spec) return undefined;
  const out: Record<string, string> = {};
  for (const stmt of spec.split(',')) {
    const parts = stmt.split('=');
    if (parts.length !== 2) throw new Fail(`error: invalid argument syntax ${stmt}, expected <resource>=<value>`);
    try {
      parseQuantity(parts[1]);
    } catch (e) {
      throw new Fail(`error: ${(e as Error).message}`);
    }
    out[parts[0]] = parts[1];
  }
  return out;
}

/** kubectl set resources TYPE NAME --limits=… --requests=…: the containers' resource requirements updated. */
function setResources(r: Run, argv: string[]): void {
  const p = parse(r, 'set resources', argv, {
    containers: { kind: 'string', short: 'c' },
    all: { kind: 'bool' },
    selector: { kind: 'string', short: 'l' },
    limits: { kind: 'string' },
    requests: { kind: 'string' },
    'field-manager': { kind: 'string' },
    record: { kind: 'bool' },
    ...WRITE_FLAGS,
  });
  // Complete: the dry run, the printer, then the builder (it sends its requests before Validate runs).
  const dry = dryRunStrategy(r, p);
  checkOutput(p);
  const sel = str(p, 'selector');
  if (bool(p, 'all') && sel) throw new Fail("error: setting 'all' parameter but found a non empty selector. ");
  if (!p.args.length) throw new Fail(NO_RESOURCES);
  const infos = podTemplateInfos(r, p, p.args, bool(p, 'all'), sel, nsOf(p));
  const limitsArg = str(p, 'limits') ?? '';
  const requestsArg = str(p, 'requests') ?? '';
  if (!limitsArg && !requestsArg)
    throw new Fail('error: you must specify an update to requests or limits (in the form of --requests/--limits)');
  const limits = parseResourceList(limitsArg);
  const requests = parseResourceList(requestsArg);
  const selector = str(p, 'containers') ?? '*';
  const errs: string[] = [];
  const mutate = (_info: Info, spec: PodSpec): void => {
    const containers = [...(spec.containers ?? []), ...(spec.initContainers ?? [])].filter((c) =>
      selectString(c.name, selector),
    );
    if (!containers.length) {
      errs.push(`error: unable to find container named ${selector}`);
      return;
    }
    for (const c of containers) {
      const res: ResourceRequirements = { ...c.resources };
      if (limits) res.limits = { ...res.limits, ...limits };
      if (requests) res.requests = { ...res.requests, ...requests };
      c.resources = res;
    }
  };
  const diff: ContainerDiff = (b, a) =>
    deepEqual(b?.resources, a.resources)
      ? undefined
      : { resources: { ...(limits && { limits }), ...(requests && { requests }) } };
  sendPatches(
    r,
    p,
    dry,
    infos,
    mutate,
    diff,
    'resource requirements updated',
    'failed to patch resources update to pod template ',
    errs,
  );
  if (errs.length) printAggregate(r, errs);
}
