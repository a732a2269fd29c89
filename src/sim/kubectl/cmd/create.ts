// kubectl create (pkg/cmd/create): deployment, namespace, poddisruptionbudget, priorityclass, service clusterip|nodeport|externalname, or -f FILE.
import type { Deployment } from 'kubernetes-types/apps/v1';
import type { ServicePort, ServiceSpec } from 'kubernetes-types/core/v1';
import type { LabelSelector, LabelSelectorRequirement, ObjectMeta } from 'kubernetes-types/meta/v1';
import type { PodDisruptionBudget, PodDisruptionBudgetSpec } from 'kubernetes-types/policy/v1';
import type { PriorityClass } from 'kubernetes-types/scheduling/v1';
import { fromUnstructured, type Unstructured } from '../../api/unstructured.ts';
import { deploymentFor } from '../generators.ts';
import { kindInfo } from '../resources.ts';
import { arr, bool, nsOf, parse, str } from './flags.ts';
import type { Parsed } from '../args.ts';
import { parseDurationMs } from '../../util/parse-duration.ts';
import { manifestObjects, manifestResource, readSource } from './manifest.ts';
import { dns1123SubdomainErrors } from '../../api/name-validation.ts';
import { splitRequirements } from '../../api/labels.ts';
import {
  Fail,
  addSourceToErr,
  apiError,
  printAggregate,
  type MetaObject,
  type Run,
  unknownSubcommand,
} from './util.ts';
import { type DryRun, WRITE_FLAGS, checkOutput, dryRunStrategy, printWritten, writeOptions } from './dryrun.ts';

/**
 * The object a create generator builds as kubectl serialises it (what a client dry run prints): the
 * namespace only when -n was given (EnforceNamespace), the empty structs Go's encoder keeps.
 */
function generated(obj: { metadata?: ObjectMeta }, explicitNamespace: boolean, status: object = {}): MetaObject {
  // A generator always sets metadata.
  const { namespace: _ns, ...meta } = obj.metadata!;
  return { ...obj, metadata: explicitNamespace ? obj.metadata : meta, status };
}

// kubectl create subcommands for objects this cluster does not have, and why.
const CREATE_NOT_SIMULATED: Record<string, string> = {
  secret: 'the simulated cluster has no Secrets',
  job: 'the simulated cluster runs no Job controller',
  cronjob: 'the simulated cluster runs no CronJob controller',
  cj: 'the simulated cluster runs no CronJob controller',
  ingress: 'the simulated cluster has no Ingresses',
  ing: 'the simulated cluster has no Ingresses',
  role: 'RBAC objects are built into this simulator, not created',
  clusterrole: 'RBAC objects are built into this simulator, not created',
  rolebinding: 'RBAC objects are built into this simulator, not created',
  clusterrolebinding: 'RBAC objects are built into this simulator, not created',
  quota: 'the simulated cluster has no ResourceQuotas',
};

/** kubectl create: a deployment, namespace, PriorityClass or service, or the objects of a file. */
export function cmdCreate(r: Run, argv: string[]): void {
  if (argv[0] === 'namespace' || argv[0] === 'ns') {
    cmdCreateNamespace(r, argv.slice(1));
    return;
  }
  if (argv[0] === 'service' || argv[0] === 'svc') {
    cmdCreateService(r, argv.slice(1));
    return;
  }
  if (argv[0] === 'priorityclass' || argv[0] === 'pc') {
    cmdCreatePriorityClass(r, argv.slice(1));
    return;
  }
  if (argv[0] === 'poddisruptionbudget' || argv[0] === 'pdb') {
    cmdCreatePodDisruptionBudget(r, argv.slice(1));
    return;
  }
  if (argv[0] === 'configmap' || argv[0] === 'cm') {
    cmdCreateConfigMap(r, argv.slice(1));
    return;
  }
  if (argv[0] === 'serviceaccount' || argv[0] === 'sa') {
    cmdCreateServiceAccount(r, argv.slice(1));
    return;
  }
  if (argv[0] === 'token') {
    cmdCreateToken(r, argv.slice(1));
    return;
  }
  if (argv[0] !== undefined && Object.hasOwn(CREATE_NOT_SIMULATED, argv[0])) {
    throw new Fail(
      `error: kubectl create ${argv[0]} is a real command that this simulator does not run: ${CREATE_NOT_SIMULATED[argv[0]]}`,
    );
  }
  if (argv[0] !== 'deployment' && argv[0] !== 'deploy') {
    if (argv[0]?.startsWith('-')) {
      cmdApplyAsCreate(r, argv);
      return;
    }
    // `kubectl create` runs itself (it takes -f) when the word names no subcommand.
    throw new Fail(
      argv[0] && !argv[0].startsWith('-')
        ? `error: Unexpected args: [${argv.filter((a) => !a.startsWith('-')).join(' ')}]\nSee 'kubectl create -h' for help and examples`
        : 'error: must specify one of -f and -k',
    );
  }
  const p = parse(r, 'create deployment', argv.slice(1), {
    image: { kind: 'string' },
    replicas: { kind: 'string', short: 'r' },
    port: { kind: 'string' },
    ...WRITE_FLAGS,
  });
  const dry = dryRunStrategy(r, p);
  checkOutput(p);
  // cobra checks the required flag before the command runs.
  const image = str(p, 'image');
  if (!image) throw new Fail('error: required flag(s) "image" not set');
  const name = p.args[0];
  if (!name)
    throw new Fail(
      "error: exactly one NAME is required, got 0\nSee 'kubectl create deployment -h' for help and examples",
    );
  const replicas = str(p, 'replicas') === undefined ? 1 : Number(str(p, 'replicas'));
  if (!Number.isInteger(replicas))
    throw new Fail(
      `error: invalid argument "${str(p, 'replicas')}" for "-r, --replicas" flag: strconv.ParseInt: parsing "${str(p, 'replicas')}": invalid syntax\nSee 'kubectl create deployment --help' for usage.`,
    );
  const port = str(p, 'port');
  const ns = nsOf(p);
  const body = fromUnstructured<Deployment>(
    deploymentFor(name, image, replicas, ns, port === undefined ? undefined : Number(port)),
  );
  if (dry === 'client') {
    // deploymentFor builds the spec, its template and its containers.
    const tpl = body.spec!.template;
    const printed = {
      ...body,
      spec: {
        ...body.spec,
        strategy: {},
        template: {
          ...tpl,
          spec: { ...tpl.spec, containers: tpl.spec!.containers.map((c) => ({ ...c, resources: {} })) },
        },
      },
    };
    printWritten(
      r,
      p,
      dry,
      `deployment.apps/${name}`,
      'created',
      generated(printed, str(p, 'namespace') !== undefined),
      true,
    );
    return;
  }
  const res = r.req({
    verb: 'create',
    resource: 'deployments',
    namespace: ns,
    body,
    options: writeOptions(dry, { fieldManager: 'kubectl-create', fieldValidation: 'Strict' }),
  });
  // create_deployment.go wraps the API error in its own words (so no "Error from server (…)").
  if (!res.ok)
    throw new Fail(res.code === 0 ? apiError(res.status) : `error: failed to create deployment: ${res.status.message}`);
  printWritten(r, p, dry, `deployment.apps/${name}`, 'created', res.object);
}

/** validation.IsConfigMapKey: at most 253 characters of [-._a-zA-Z0-9], and not `.`, `..` or `..…`. */
function configMapKeyErrors(key: string): string[] {
  const errs: string[] = [];
  if (key.length > 253) errs.push('must be no more than 253 characters');
  if (!/^[-._a-zA-Z0-9]+$/.test(key))
    errs.push(
      "a valid config key must consist of alphanumeric characters, '-', '_' or '.' (e.g. 'key.name',  or 'KEY_NAME',  or 'key-name', regex used for validation is '[-._a-zA-Z0-9]+')",
    );
  if (key === '.') errs.push("must not be '.'");
  else if (key === '..') errs.push("must not be '..'");
  else if (key.startsWith('..')) errs.push("must not start with '..'");
  return errs;
}

/**
 * kubectl create configmap|cm NAME --from-literal=key=value… (create_configmap.go). The file sources
 * read files on the reader's machine, which this terminal does not have: they are refused in one line.
 */
function cmdCreateConfigMap(r: Run, argv: string[]): void {
  const p = parse(r, 'create configmap', argv, {
    'from-literal': { kind: 'array' },
    'from-file': { kind: 'array' },
    'from-env-file': { kind: 'array' },
    'append-hash': { kind: 'bool' },
    ...WRITE_FLAGS,
  });
  const dry = dryRunStrategy(r, p);
  checkOutput(p);
  if (p.args.length !== 1)
    throw new Fail(
      `error: exactly one NAME is required, got ${p.args.length}\nSee 'kubectl create configmap -h' for help and examples`,
    );
  const name = p.args[0];
  if (arr(p, 'from-env-file').length && (arr(p, 'from-file').length || arr(p, 'from-literal').length))
    throw new Fail('error: from-env-file cannot be combined with from-file or from-literal');
  for (const flag of ['from-file', 'from-env-file']) {
    if (arr(p, flag).length)
      throw new Fail(
        `error: kubectl create configmap --${flag} reads files on your machine, and this terminal has none: use --from-literal=key=value`,
      );
  }
  if (bool(p, 'append-hash'))
    throw new Fail(
      'error: kubectl create configmap --append-hash is a real flag that this simulator does not run: it names the ConfigMap after a hash of its data',
    );
  const data: Record<string, string> = {};
  for (const source of arr(p, 'from-literal')) {
    // util.ParseLiteralSource: split at the first "=", which may not lead.
    const at = source.indexOf('=');
    if (at <= 0) throw new Fail(`error: invalid literal source ${source}, expected key=value`);
    const key = source.slice(0, at);
    const errs = configMapKeyErrors(key);
    if (errs.length) throw new Fail(`error: "${key}" is not a valid key name for a ConfigMap: ${errs.join(',')}`);
    if (Object.hasOwn(data, key))
      throw new Fail(
        `error: cannot add key "${key}", another key by that name already exists in Data for ConfigMap "${name}"`,
      );
    data[key] = source.slice(at + 1);
  }
  const ns = nsOf(p);
  // Data and BinaryData start as empty maps, which Go's encoder leaves out (omitempty).
  const body: MetaObject = {
    apiVersion: 'v1',
    kind: 'ConfigMap',
    metadata: { name, namespace: ns },
    ...(Object.keys(data).length && { data }),
  };
  createSimple(r, p, dry, 'configmaps', `configmap/${name}`, body);
}

/** kubectl create serviceaccount|sa NAME (create_serviceaccount.go). */
function cmdCreateServiceAccount(r: Run, argv: string[]): void {
  const p = parse(r, 'create serviceaccount', argv, WRITE_FLAGS);
  const dry = dryRunStrategy(r, p);
  checkOutput(p);
  if (p.args.length !== 1)
    throw new Fail(
      `error: exactly one NAME is required, got ${p.args.length}\nSee 'kubectl create serviceaccount -h' for help and examples`,
    );
  const name = p.args[0];
  createSimple(r, p, dry, 'serviceaccounts', `serviceaccount/${name}`, {
    apiVersion: 'v1',
    kind: 'ServiceAccount',
    metadata: { name, namespace: nsOf(p) },
  });
}

/** The create commands whose object goes as built: printed (dry run client, its namespace only with -n), or POSTed and the answer printed. */
function createSimple(
  r: Run,
  p: Parsed,
  dry: DryRun,
  resource: 'configmaps' | 'serviceaccounts',
  what: string,
  body: MetaObject,
): void {
  if (dry === 'client') {
    // Neither kind has a status.
    const { status: _status, ...printed } = generated(body, str(p, 'namespace') !== undefined);
    printWritten(r, p, dry, what, 'created', printed, true);
    return;
  }
  const res = r.req({
    verb: 'create',
    resource,
    namespace: body.metadata!.namespace,
    body,
    options: writeOptions(dry, { fieldManager: 'kubectl-create', fieldValidation: 'Strict' }),
  });
  if (!res.ok)
    throw new Fail(
      res.code === 0
        ? apiError(res.status)
        : `error: failed to create ${body.kind!.toLowerCase()}: ${res.status.message}`,
    );
  printWritten(r, p, dry, what, 'created', res.object);
}

/** boundObjectKinds in create_token.go: the kinds a token may be bound to, and their API versions. */
const BOUND_OBJECT_KINDS: Record<string, string> = { Node: 'v1', Pod: 'v1', Secret: 'v1' };

/**
 * kubectl create token SERVICE_ACCOUNT_NAME (create_token.go): a TokenRequest for the account, and
 * the token printed. The simulator's tokens are opaque strings, not signed JWTs.
 */
function cmdCreateToken(r: Run, argv: string[]): void {
  const p = parse(r, 'create token', argv, {
    audience: { kind: 'array' },
    duration: { kind: 'string' },
    'bound-object-kind': { kind: 'string' },
    'bound-object-name': { kind: 'string' },
    'bound-object-uid': { kind: 'string' },
    output: { kind: 'string', short: 'o' },
  });
  checkOutput(p);
  if (p.args.length !== 1)
    throw new Fail(
      `error: exactly one NAME is required, got ${p.args.length}\nSee 'kubectl create token -h' for help and examples`,
    );
  const name = p.args[0];
  const durationText = str(p, 'duration');
  // time.ParseDuration takes a sign; Validate then refuses a negative one.
  const magnitude = durationText === undefined ? 0 : parseDurationMs(durationText.replace(/^[-+]/, ''));
  const ms = magnitude !== undefined && durationText?.startsWith('-') ? -magnitude : magnitude;
  if (ms === undefined)
    throw new Fail(
      `error: invalid argument "${durationText}" for "--duration" flag: time: invalid duration "${durationText}"\nSee 'kubectl create token --help' for usage.`,
    );
  if (ms < 0) throw new Fail('error: --duration must be greater than or equal to 0');
  if (ms % 1000 !== 0) throw new Fail('error: --duration cannot be expressed in units less than seconds');
  const audiences = arr(p, 'audience');
  if (audiences.some((a) => a === '')) throw new Fail('error: --audience must not be an empty string');
  const kind = str(p, 'bound-object-kind') ?? '';
  const boundName = str(p, 'bound-object-name') ?? '';
  const boundUid = str(p, 'bound-object-uid') ?? '';
  if (!kind) {
    if (boundName) throw new Fail('error: --bound-object-name can only be set if --bound-object-kind is provided');
    if (boundUid) throw new Fail('error: --bound-object-uid can only be set if --bound-object-kind is provided');
  } else {
    if (!Object.hasOwn(BOUND_OBJECT_KINDS, kind))
      throw new Fail(
        `error: supported --bound-object-kind values are ${Object.keys(BOUND_OBJECT_KINDS).sort().join(', ')}`,
      );
    if (!boundName) throw new Fail('error: --bound-object-name is required if --bound-object-kind is provided');
  }
  const spec: Unstructured = {
    ...(audiences.length && { audiences }),
    ...(ms > 0 && { expirationSeconds: ms / 1000 }),
    ...(kind && {
      boundObjectRef: {
        kind,
        apiVersion: BOUND_OBJECT_KINDS[kind],
        name: boundName,
        ...(boundUid && { uid: boundUid }),
      },
    }),
  };
  const res = r.req({
    verb: 'create',
    resource: 'serviceaccounts',
    namespace: nsOf(p),
    name,
    subresource: 'token',
    body: { apiVersion: 'authentication.k8s.io/v1', kind: 'TokenRequest', spec },
  });
  if (!res.ok)
    throw new Fail(res.code === 0 ? apiError(res.status) : `error: failed to create token: ${res.status.message}`);
  const token = (res.object as { status?: { token?: string } }).status?.token;
  if (!token) throw new Fail('error: failed to create token: no token in server response');
  if (str(p, 'output') !== undefined) {
    printWritten(r, p, 'none', `tokenrequest.authentication.k8s.io/${name}`, 'created', res.object, true);
    return;
  }
  r.print(`${token}\n`);
}

/** kubectl create namespace NAME. */
function cmdCreateNamespace(r: Run, argv: string[]): void {
  const p = parse(r, 'create namespace', argv, WRITE_FLAGS);
  const dry = dryRunStrategy(r, p);
  checkOutput(p);
  if (p.args.length !== 1)
    throw new Fail(
      `error: exactly one NAME is required, got ${p.args.length}\nSee 'kubectl create namespace -h' for help and examples`,
    );
  const name = p.args[0];
  const body = { apiVersion: 'v1', kind: 'Namespace', metadata: { name } };
  if (dry === 'client') {
    printWritten(r, p, dry, `namespace/${name}`, 'created', { ...body, spec: {}, status: {} }, true);
    return;
  }
  const res = r.req({
    verb: 'create',
    resource: 'namespaces',
    body,
    options: writeOptions(dry, { fieldManager: 'kubectl-create', fieldValidation: 'Strict' }),
  });
  if (!res.ok) throw new Fail(apiError(res.status));
  printWritten(r, p, dry, `namespace/${name}`, 'created', res.object);
}

/** kubectl create priorityclass NAME --value=VALUE [--global-default] [--description=…] [--preemption-policy=…]. */
function cmdCreatePriorityClass(r: Run, argv: string[]): void {
  const p = parse(r, 'create priorityclass', argv, {
    value: { kind: 'string' },
    'global-default': { kind: 'bool' },
    description: { kind: 'string' },
    'preemption-policy': { kind: 'string' },
    ...WRITE_FLAGS,
  });
  const dry = dryRunStrategy(r, p);
  checkOutput(p);
  if (p.args.length !== 1)
    throw new Fail(
      `error: exactly one NAME is required, got ${p.args.length}\nSee 'kubectl create priorityclass -h' for help and examples`,
    );
  const name = p.args[0];
  const valueText = str(p, 'value') ?? '0';
  // pflag's Int32Var: strconv.ParseInt(s, 0, 32).
  const value = /^[+-]?\d+$/.test(valueText) ? Number(valueText) : NaN;
  if (!Number.isInteger(value) || value > 2147483647 || value < -2147483648) {
    const why = Number.isNaN(value) ? 'invalid syntax' : 'value out of range';
    throw new Fail(
      `error: invalid argument "${valueText}" for "--value" flag: strconv.ParseInt: parsing "${valueText}": ${why}\nSee 'kubectl create priorityclass --help' for usage.`,
    );
  }
  const body: PriorityClass = {
    apiVersion: 'scheduling.k8s.io/v1',
    kind: 'PriorityClass',
    metadata: { name },
    value,
    globalDefault: bool(p, 'global-default'),
    description: str(p, 'description') ?? '',
    preemptionPolicy: str(p, 'preemption-policy') ?? 'PreemptLowerPriority',
  };
  // Go's encoder drops the empty description and false globalDefault (omitempty).
  if (!body.description) delete body.description;
  if (!body.globalDefault) delete body.globalDefault;
  if (dry === 'client') {
    printWritten(r, p, dry, `priorityclass.scheduling.k8s.io/${name}`, 'created', body, true);
    return;
  }
  const res = r.req({
    verb: 'create',
    resource: 'priorityclasses',
    body,
    options: writeOptions(dry, { fieldManager: 'kubectl-create', fieldValidation: 'Strict' }),
  });
  if (!res.ok)
    throw new Fail(
      res.code === 0 ? apiError(res.status) : `error: failed to create priorityclass: ${res.status.message}`,
    );
  printWritten(r, p, dry, `priorityclass.scheduling.k8s.io/${name}`, 'created', res.object);
}

/**
 * metav1.ParseToLabelSelector: `k=v` (or `==`) into matchLabels, `in`, `notin`, `k` and `!k` into
 * matchExpressions (values sorted, as sets.List gives them); any other operator is an error. It keeps
 * the operator labels.Parse read, which the matching parser (api/labels.ts) folds away.
 */
function parseToLabelSelector(sel: string): LabelSelector | string {
  const matchLabels: Record<string, string> = {};
  const matchExpressions: LabelSelectorRequirement[] = [];
  for (const p of splitRequirements(sel)) {
    let m = /^(\S+)\s+(in|notin)\s*\((.*)\)$/.exec(p);
    if (m) {
      matchExpressions.push({
        key: m[1],
        operator: m[2] === 'in' ? 'In' : 'NotIn',
        values: [...new Set(m[3].split(',').map((x) => x.trim()))].sort(),
      });
      continue;
    }
    m = /^([^!=<>\s]+)\s*(==|=|!=|<|>)\s*(.*)$/.exec(p);
    if (m) {
      if (m[2] === '=' || m[2] === '==') {
        matchLabels[m[1]] = m[3].trim();
        continue;
      }
      return m[2] === '!='
        ? '"!=" is not a valid label selector operator'
        : `"${m[2] === '<' ? 'lt' : 'gt'}" isn't supported in label selectors`;
    }
    if (p.startsWith('!')) matchExpressions.push({ key: p.slice(1).trim(), operator: 'DoesNotExist' });
    else matchExpressions.push({ key: p, operator: 'Exists' });
  }
  // omitempty: an empty map or list is left out.
  return {
    ...(Object.keys(matchLabels).length && { matchLabels }),
    ...(matchExpressions.length && { matchExpressions }),
  };
}

/**
 * kubectl create poddisruptionbudget|pdb NAME --selector=SELECTOR --min-available=N|--max-unavailable=N
 * (create_pdb.go): one bound, a number or a percent; the namespace only when -n was given.
 */
function cmdCreatePodDisruptionBudget(r: Run, argv: string[]): void {
  const p = parse(r, 'create poddisruptionbudget', argv, {
    selector: { kind: 'string' },
    'min-available': { kind: 'string' },
    'max-unavailable': { kind: 'string' },
    ...WRITE_FLAGS,
  });
  const dry = dryRunStrategy(r, p);
  checkOutput(p);
  if (p.args.length !== 1)
    throw new Fail(
      `error: exactly one NAME is required, got ${p.args.length}\nSee 'kubectl create poddisruptionbudget -h' for help and examples`,
    );
  const name = p.args[0];
  const selector = str(p, 'selector') ?? '';
  const minAvailable = str(p, 'min-available') ?? '';
  const maxUnavailable = str(p, 'max-unavailable') ?? '';
  // Validate.
  if (!selector) throw new Fail('error: a selector must be specified');
  if (!minAvailable && !maxUnavailable)
    throw new Fail('error: one of min-available or max-unavailable must be specified');
  if (minAvailable && maxUnavailable)
    throw new Fail('error: min-available and max-unavailable cannot be both specified');
  const re = /^[0-9]+%?$/;
  if (minAvailable && !re.test(minAvailable)) throw new Fail('error: invalid format specified for min-available');
  if (maxUnavailable && !re.test(maxUnavailable)) throw new Fail('error: invalid format specified for max-unavailable');
  const sel = parseToLabelSelector(selector);
  if (typeof sel === 'string') throw new Fail(`error: ${sel}`);
  // intstr.Parse: a number when Atoi takes it (int32 range), else the string.
  const intstr = (v: string): number | string => (/^\d+$/.test(v) && Number(v) <= 2147483647 ? Number(v) : v);
  const spec: PodDisruptionBudgetSpec = minAvailable
    ? { minAvailable: intstr(minAvailable), selector: sel }
    : { maxUnavailable: intstr(maxUnavailable), selector: sel };
  const ns = nsOf(p);
  const body: PodDisruptionBudget = {
    apiVersion: 'policy/v1',
    kind: 'PodDisruptionBudget',
    metadata: { name, namespace: ns },
    spec,
  };
  if (dry === 'client') {
    printWritten(
      r,
      p,
      dry,
      `poddisruptionbudget.policy/${name}`,
      'created',
      generated(body, str(p, 'namespace') !== undefined, {
        disruptionsAllowed: 0,
        currentHealthy: 0,
        desiredHealthy: 0,
        expectedPods: 0,
      }),
      true,
    );
    return;
  }
  const res = r.req({
    verb: 'create',
    resource: 'poddisruptionbudgets',
    namespace: ns,
    body,
    options: writeOptions(dry, { fieldManager: 'kubectl-create', fieldValidation: 'Strict' }),
  });
  if (!res.ok)
    throw new Fail(
      res.code === 0 ? apiError(res.status) : `error: failed to create poddisruptionbudgets: ${res.status.message}`,
    );
  printWritten(r, p, dry, `poddisruptionbudget.policy/${name}`, 'created', res.object);
}

/** validation.IsValidPortName's complaints, joined as create service joins them. */
function portNameErrors(name: string): string[] {
  const errs: string[] = [];
  if (name.length > 15) errs.push('must be no more than 15 characters');
  if (!/^[-a-z0-9]+$/.test(name)) errs.push('must contain only alpha-numeric characters (a-z, 0-9), and hyphens (-)');
  if (!/[a-z]/.test(name)) errs.push('must contain at least one letter (a-z)');
  if (name.includes('--')) errs.push('must not contain consecutive hyphens');
  if (name.length > 0 && (name.startsWith('-') || name.endsWith('-'))) errs.push('must not begin or end with a hyphen');
  return errs;
}

/** create service's parsePorts: `port[:targetPort]`, the port as utilsnet.ParsePort reads it, the target a number or a port name. */
function parseServicePort(spec: string): { port: number; targetPort: number | string } {
  const parts = spec.split(':');
  const portText = parts[0];
  // strconv.ParseUint(port, 10, 16): digits only, at most 65535 (0 is allowed here).
  if (!/^\d+$/.test(portText))
    throw new Fail(`error: strconv.ParseUint: parsing ${JSON.stringify(portText)}: invalid syntax`);
  const port = Number(portText);
  if (port > 65535) throw new Fail(`error: strconv.ParseUint: parsing ${JSON.stringify(portText)}: value out of range`);
  if (parts.length === 1) return { port, targetPort: port };
  const target = parts[1];
  if (/^[+-]?\d+$/.test(target)) {
    const n = Number(target);
    if (n < 1 || n > 65535) throw new Fail('error: must be between 1 and 65535, inclusive');
    return { port, targetPort: n };
  }
  const errs = portNameErrors(target);
  if (errs.length) throw new Fail(`error: ${errs.join(',')}`);
  return { port, targetPort: target };
}

/** kubectl create service clusterip|nodeport NAME --tcp=port[:targetPort], or externalname NAME --external-name NAME (selector and label app=NAME). */
function cmdCreateService(r: Run, argv: string[]): void {
  const types: Record<string, string> = { clusterip: 'ClusterIP', nodeport: 'NodePort', externalname: 'ExternalName' };
  const sub = argv[0];
  if (sub === 'loadbalancer') {
    throw new Fail(
      `error: kubectl create service ${sub} is a real command that this simulator does not run: the simulated cluster has no cloud load balancers`,
    );
  }
  if (!sub || !Object.hasOwn(types, sub))
    throw new Fail(sub ? unknownSubcommand('create service', argv) : 'error: Required subcommand not specified.');
  const type = types[sub];
  // Each subcommand has its own flag: --clusterip, --node-port or --external-name.
  const own = {
    clusterip: { clusterip: { kind: 'string' } },
    nodeport: { 'node-port': { kind: 'string' } },
    externalname: { 'external-name': { kind: 'string' } },
  }[sub as 'clusterip'] as Record<string, { kind: 'string' }>;
  const p = parse(r, `create service ${sub}`, argv.slice(1), { tcp: { kind: 'strings' }, ...own, ...WRITE_FLAGS });
  const externalName = str(p, 'external-name');
  // cobra's MarkFlagRequired, checked before the command runs.
  if (sub === 'externalname' && externalName === undefined)
    throw new Fail('error: required flag(s) "external-name" not set');
  const dry = dryRunStrategy(r, p);
  checkOutput(p);
  if (p.args.length !== 1)
    throw new Fail(
      `error: exactly one NAME is required, got ${p.args.length}\nSee 'kubectl create service ${sub} -h' for help and examples`,
    );
  const name = p.args[0];
  const tcp =
    str(p, 'tcp')
      ?.split(',')
      .filter((x) => x !== '') ?? [];
  const clusterIP = sub === 'clusterip' ? str(p, 'clusterip') : undefined;
  // ServiceOptions.Validate (the headless `--clusterip=None` needs no port).
  if (clusterIP !== 'None' && tcp.length === 0 && type !== 'ExternalName')
    throw new Fail('error: at least one tcp port specifier must be provided');
  if (type === 'ExternalName' && dns1123SubdomainErrors(externalName ?? '').length)
    throw new Fail(`error: invalid service external name ${externalName}`);
  const nodePort = sub === 'nodeport' && str(p, 'node-port') !== undefined ? Number(str(p, 'node-port')) : 0;
  const ports = tcp.map((spec) => {
    const { port, targetPort } = parseServicePort(spec);
    const sp: ServicePort = { name: spec.replace(/:/g, '-'), port, targetPort, protocol: 'TCP' };
    if (nodePort) sp.nodePort = nodePort;
    return sp;
  });
  // ServiceSpec.ports is omitempty: no --tcp sends none.
  const spec: ServiceSpec = { ...(ports.length ? { ports } : {}), selector: { app: name }, type };
  if (externalName) spec.externalName = externalName;
  if (clusterIP !== undefined && clusterIP !== '') spec.clusterIP = clusterIP;
  const ns = nsOf(p);
  const body = { apiVersion: 'v1', kind: 'Service', metadata: { name, namespace: ns, labels: { app: name } }, spec };
  if (dry === 'client') {
    printWritten(
      r,
      p,
      dry,
      `service/${name}`,
      'created',
      generated(body, str(p, 'namespace') !== undefined, { loadBalancer: {} }),
      true,
    );
    return;
  }
  const res = r.req({
    verb: 'create',
    resource: 'services',
    namespace: ns,
    body,
    options: writeOptions(dry, { fieldManager: 'kubectl-create', fieldValidation: 'Strict' }),
  });
  if (!res.ok)
    throw new Fail(
      res.code === 0 ? apiError(res.status) : `error: failed to create ${type} service: ${res.status.message}`,
    );
  printWritten(r, p, dry, `service/${name}`, 'created', res.object);
}

function cmdApplyAsCreate(r: Run, argv: string[]): void {
  const p = parse(r, 'create', argv, { filename: { kind: 'string', short: 'f' }, ...WRITE_FLAGS });
  const dry = dryRunStrategy(r, p);
  checkOutput(p);
  const file = str(p, 'filename');
  if (!file) throw new Fail('error: must specify one of -f and -k');
  const objs = manifestObjects(r, readSource(r, file), file === '-' ? 'STDIN' : file);
  // Every error gathered as the builder's visit goes on, and printed at the end (an aggregate).
  const errs: string[] = [];
  for (const m of objs) {
    let resource: string;
    try {
      resource = manifestResource(m, JSON.stringify(file === '-' ? 'STDIN' : file));
    } catch (e) {
      if (!(e instanceof Fail)) throw e;
      errs.push(e.message);
      continue;
    }
    const kind = kindInfo(resource);
    const ns = kind.namespaced ? m.metadata?.namespace || nsOf(p) : undefined;
    // NamePrinter: an object without a name (generateName only) prints as <unknown>.
    if (dry === 'client') {
      printWritten(r, p, dry, `${kind.singular}/${m.metadata?.name || '<unknown>'}`, 'created', m);
      continue;
    }
    const res = r.req({
      verb: 'create',
      resource,
      namespace: ns,
      body: m,
      options: writeOptions(dry, { fieldManager: 'kubectl-create', fieldValidation: 'Strict' }),
    });
    if (!res.ok) {
      errs.push(apiError(addSourceToErr('creating', file === '-' ? 'STDIN' : file, res.status)));
      continue;
    }
    // The name printer names the object the server returned: a generateName's name is the server's.
    printWritten(
      r,
      p,
      dry,
      `${kind.singular}/${(res.object as MetaObject).metadata?.name ?? ''}`,
      'created',
      res.object,
    );
  }
  printAggregate(r, errs);
}
