// kubectl run (pkg/cmd/run): one bare pod.
import type { Container, Pod } from 'kubernetes-types/core/v1';
import type { ObjectMeta } from 'kubernetes-types/meta/v1';
import { parseDurationMs } from '../../util/parse-duration.ts';
import { decodeBody } from '../../api/decode.ts';
import { fromUnstructured } from '../../api/unstructured.ts';
import { applyJSONPatch, decodeJSONPatch } from '../../api/json-patch.ts';
import { mergePatch, strategicMergePatch } from '../../api/patch.ts';
import { unknownFields } from '../../api/strict-fields.ts';
import { arr, bool, nsOf, parse, str } from './flags.ts';
import { Fail, type Run } from './util.ts';
import { WRITE_FLAGS, checkOutput, dryRunStrategy, printWritten, writeOptions } from './dryrun.ts';

// distribution/reference's ReferenceRegexp (name[:tag][@digest]), which run's Validate holds --image to.
const ALNUM = '[a-z0-9]+';
const PATH_COMPONENT = `${ALNUM}(?:(?:[._]|__|[-]+)${ALNUM})*`;
const DOMAIN_COMPONENT = '(?:[a-zA-Z0-9]|[a-zA-Z0-9][a-zA-Z0-9-]*[a-zA-Z0-9])';
const DOMAIN = `(?:${DOMAIN_COMPONENT}(?:\\.${DOMAIN_COMPONENT})*|\\[(?:[a-fA-F0-9:]+)\\])(?::[0-9]+)?`;
const NAME = `(?:${DOMAIN}/)?${PATH_COMPONENT}(?:/${PATH_COMPONENT})*`;
const REFERENCE = new RegExp(
  `^${NAME}(?::[\\w][\\w.-]{0,127})?(?:@[A-Za-z][A-Za-z0-9]*(?:[-_+.][A-Za-z][A-Za-z0-9]*)*:[0-9A-Fa-f]{32,})?$`,
);

/** parseLabels: `k=v,k2=v2`, each spec exactly one `=` and a key. */
function parseLabels(arg: string): Record<string, string> {
  const labels: Record<string, string> = {};
  for (const spec of arg.split(',')) {
    const kv = spec.split('=');
    if (kv.length !== 2) throw new Fail(`error: unexpected label spec: ${spec}`);
    if (!kv[0]) throw new Fail('error: unexpected empty label key');
    labels[kv[0]] = kv[1];
  }
  return labels;
}

/** cmdutil.ParsePairs without removals: `k=v` each (the first `=` splits), the rest refused together. */
export function parsePairs(pairs: string[], type: string): Record<string, string> {
  const out: Record<string, string> = {};
  const invalid: string[] = [];
  for (const a of pairs) {
    if (a.includes('=') && a[0] !== '=') out[a.slice(0, a.indexOf('='))] = a.slice(a.indexOf('=') + 1);
    else invalid.push(a);
  }
  if (invalid.length) throw new Fail(`error: invalid ${type} format: ${invalid.join(', ')}`);
  return out;
}

/**
 * Overrider.Apply: the generated Pod's JSON with --overrides merged in (a JSON merge patch unless
 * --override-type says strategic or json), decoded back into a Pod: fields a Pod has not are dropped,
 * and each container keeps its `resources: {}` (a struct Go always encodes).
 */
export function applyOverrides(pod: Pod, overrides: string, type: string): Pod {
  if (!overrides) return pod;
  if (!['json', 'merge', 'strategic'].includes(type)) throw new Fail(`error: invalid override type: ${type}`);
  let fragment: unknown;
  try {
    fragment = JSON.parse(overrides);
  } catch {
    // evanphx/json-patch's errors for a fragment that is no JSON.
    throw new Fail(type === 'json' ? `error: ${overrides}` : 'error: Invalid JSON Patch');
  }
  let merged: unknown;
  if (type === 'json') {
    const d = decodeJSONPatch(fragment);
    if (!d.ok) throw new Fail(`error: ${d.message}`);
    const res = applyJSONPatch(pod, d.ops);
    if (!res.ok) throw new Fail(`error: ${res.error}`);
    merged = res.doc;
  } else {
    if (fragment === null || typeof fragment !== 'object' || Array.isArray(fragment))
      throw new Fail('error: Invalid JSON Patch');
    merged = type === 'merge' ? mergePatch(pod, fragment) : strategicMergePatch(pod, fragment);
  }
  const decoded = decodeBody('pods', merged);
  if ('status' in decoded)
    throw new Fail(`error: ${decoded.status.message.replace(/^Pod in version "v1" cannot be handled as a Pod: /, '')}`);
  const out = fromUnstructured<Pod>(structuredClone(decoded.obj));
  for (const path of unknownFields('pods', out)) dropPath(out, path);
  for (const c of [...(out.spec?.containers ?? []), ...(out.spec?.initContainers ?? [])]) c.resources ??= {};
  return out;
}

/** Delete the member a strict decoder's path names (`spec.foo`, `spec.containers[0].bar`). */
function dropPath(o: unknown, path: string): void {
  const steps = path.split(/\.|\[(\d+)\]/).filter((x) => x !== undefined && x !== '');
  const last = steps.pop()!;
  const parent = steps.reduce<unknown>((v, k) => (v == null ? undefined : (v as Record<string, unknown>)[k]), o);
  if (parent && typeof parent === 'object') delete (parent as Record<string, unknown>)[last];
}

/** kubectl run: one bare pod (labels run=NAME), as `kubectl run` makes it. */
export function cmdRun(r: Run, argv: string[]): void {
  const dash = argv.indexOf('--');
  const p = parse(r, 'run', dash >= 0 ? argv.slice(0, dash) : argv, {
    image: { kind: 'string' },
    restart: { kind: 'string' },
    annotations: { kind: 'array' },
    env: { kind: 'array' },
    overrides: { kind: 'string' },
    'override-type': { kind: 'string' },
    'pod-running-timeout': { kind: 'string' },
    port: { kind: 'string' },
    labels: { kind: 'string', short: 'l' },
    command: { kind: 'bool' },
    ...WRITE_FLAGS,
  });
  const tail = dash >= 0 ? argv.slice(dash + 1) : [];
  // cobra checks the required flag before the command runs.
  const image = str(p, 'image');
  if (image === undefined) throw new Fail('error: required flag(s) "image" not set');
  // Complete: annotations, labels, env, restart policy, --pod-running-timeout, dry run, printer.
  const annotations = parsePairs(arr(p, 'annotations'), 'annotations');
  const labelArg = str(p, 'labels');
  const labels = labelArg ? parseLabels(labelArg) : undefined;
  const env = arr(p, 'env').map((e) => {
    const name = e.includes('=') ? e.slice(0, e.indexOf('=')) : '';
    if (!name || !/^[-._a-zA-Z][-._a-zA-Z0-9]*$/.test(name) || name === '.' || name.startsWith('..'))
      throw new Fail(`error: invalid env: ${e}`);
    return { name, value: e.slice(e.indexOf('=') + 1) };
  });
  const restart = str(p, 'restart') || 'Always';
  if (!['Always', 'OnFailure', 'Never'].includes(restart))
    throw new Fail(`error: invalid restart policy: ${restart}, valid values are: Always, OnFailure, Never`);
  const timeoutArg = str(p, 'pod-running-timeout') ?? '1m0s';
  const timeout = parseDurationMs(timeoutArg.replace(/^-/, ''));
  if (timeout === undefined)
    throw new Fail(
      `error: invalid argument "${timeoutArg}" for "--pod-running-timeout" flag: time: invalid duration "${timeoutArg}"\nSee 'kubectl run --help' for usage.`,
    );
  if (timeoutArg.startsWith('-') || timeout === 0)
    throw new Fail('error: --pod-running-timeout must be higher than zero');
  const dry = dryRunStrategy(r, p);
  checkOutput(p);
  // Validate: NAME, the image (distribution/reference's grammar), --port an integer (strconv.Atoi).
  const name = p.args[0];
  if (!name) throw new Fail('error: NAME is required for run');
  if (!image) throw new Fail('error: --image is required');
  if (!REFERENCE.test(image))
    throw new Fail(`error: invalid image name ${JSON.stringify(image)}: invalid reference format`);
  const port = str(p, 'port');
  if (port && !/^[+-]?\d+$/.test(port)) throw new Fail('error: --port must be a number');
  const container: Container = { name, image, ...(env.length && { env }), resources: {} };
  if (port) {
    container.ports = [{ containerPort: Number(port) }];
  }
  if (tail.length) container[bool(p, 'command') ? 'command' : 'args'] = tail;
  // The generated Pod as Go encodes it (annotations a map: keys sorted), then --overrides merged into it.
  const meta: ObjectMeta = {
    name,
    labels: labels ?? { run: name },
    ...(Object.keys(annotations).length && {
      annotations: Object.fromEntries(Object.entries(annotations).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))),
    }),
  };
  const generated: Pod = {
    apiVersion: 'v1',
    kind: 'Pod',
    metadata: meta,
    spec: { containers: [container], dnsPolicy: 'ClusterFirst', restartPolicy: restart },
    status: {},
  };
  const pod = applyOverrides(generated, str(p, 'overrides') ?? '', str(p, 'override-type') || 'merge');
  if (dry === 'client') {
    printWritten(
      r,
      p,
      dry,
      `pod/${name}`,
      'created',
      str(p, 'namespace') !== undefined ? { ...pod, metadata: { ...pod.metadata, namespace: nsOf(p) } } : pod,
      true,
    );
    return;
  }
  const created = r.must({
    verb: 'create',
    resource: 'pods',
    namespace: nsOf(p),
    body: pod,
    options: writeOptions(dry, { fieldManager: 'kubectl-run' }),
  });
  printWritten(r, p, dry, `pod/${name}`, 'created', created);
}
