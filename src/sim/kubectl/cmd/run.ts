// kubectl run (pkg/cmd/run): one bare pod.
import { parseDurationMs } from '../../util/duration.ts';
import { bool, nsOf, parse, str } from './flags.ts';
import { Fail, type Obj, type Run } from './util.ts';
import { WRITE_FLAGS, checkOutput, dryRunStrategy, printWritten, writeOptions } from './dryrun.ts';

// distribution/reference's ReferenceRegexp (name[:tag][@digest]), which run's Validate holds --image to.
const ALNUM = '[a-z0-9]+';
const PATH_COMPONENT = `${ALNUM}(?:(?:[._]|__|[-]+)${ALNUM})*`;
const DOMAIN_COMPONENT = '(?:[a-zA-Z0-9]|[a-zA-Z0-9][a-zA-Z0-9-]*[a-zA-Z0-9])';
const DOMAIN = `(?:${DOMAIN_COMPONENT}(?:\\.${DOMAIN_COMPONENT})*|\\[(?:[a-fA-F0-9:]+)\\])(?::[0-9]+)?`;
const NAME = `(?:${DOMAIN}/)?${PATH_COMPONENT}(?:/${PATH_COMPONENT})*`;
const REFERENCE = new RegExp(`^${NAME}(?::[\\w][\\w.-]{0,127})?(?:@[A-Za-z][A-Za-z0-9]*(?:[-_+.][A-Za-z][A-Za-z0-9]*)*:[0-9A-Fa-f]{32,})?$`);

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

/** kubectl run: one bare pod (labels run=NAME), as `kubectl run` makes it. */
export function cmdRun(r: Run, argv: string[]): void {
  const dash = argv.indexOf('--');
  const p = parse(r, 'run', dash >= 0 ? argv.slice(0, dash) : argv, {
    image: { kind: 'string' }, restart: { kind: 'string' }, 'pod-running-timeout': { kind: 'string' }, port: { kind: 'string' }, labels: { kind: 'string', short: 'l' }, command: { kind: 'bool' }, ...WRITE_FLAGS,
  });
  const tail = dash >= 0 ? argv.slice(dash + 1) : [];
  // cobra checks the required flag before the command runs.
  const image = str(p, 'image');
  if (image === undefined) throw new Fail('error: required flag(s) "image" not set');
  // Complete: labels, restart policy, --pod-running-timeout, dry run, printer.
  const labelArg = str(p, 'labels');
  const labels = labelArg ? parseLabels(labelArg) : undefined;
  const restart = str(p, 'restart') || 'Always';
  if (!['Always', 'OnFailure', 'Never'].includes(restart)) throw new Fail(`error: invalid restart policy: ${restart}, valid values are: Always, OnFailure, Never`);
  const timeoutArg = str(p, 'pod-running-timeout') ?? '1m0s';
  const timeout = parseDurationMs(timeoutArg.replace(/^-/, ''));
  if (timeout === undefined) throw new Fail(`error: invalid argument "${timeoutArg}" for "--pod-running-timeout" flag: time: invalid duration "${timeoutArg}"\nSee 'kubectl run --help' for usage.`);
  if (timeoutArg.startsWith('-') || timeout === 0) throw new Fail('error: --pod-running-timeout must be higher than zero');
  const dry = dryRunStrategy(r, p);
  checkOutput(p);
  // Validate: NAME, the image (distribution/reference's grammar), --port an integer (strconv.Atoi).
  const name = p.args[0];
  if (!name) throw new Fail('error: NAME is required for run');
  if (!image) throw new Fail('error: --image is required');
  if (!REFERENCE.test(image)) throw new Fail(`error: invalid image name ${JSON.stringify(image)}: invalid reference format`);
  const port = str(p, 'port');
  if (port && !/^[+-]?\d+$/.test(port)) throw new Fail('error: --port must be a number');
  const container: Obj = { name, image, resources: {} };
  if (port) {
    container.ports = [{ containerPort: Number(port) }];
  }
  if (tail.length) container[bool(p, 'command') ? 'command' : 'args'] = tail;
  const pod = { apiVersion: 'v1', kind: 'Pod', metadata: { name, labels: labels ?? { run: name } }, spec: { containers: [container], dnsPolicy: 'ClusterFirst', restartPolicy: restart } };
  if (dry === 'client') { printWritten(r, p, dry, `pod/${name}`, 'created', { ...pod, ...(str(p, 'namespace') !== undefined ? { metadata: { ...pod.metadata, namespace: nsOf(p) } } : {}), status: {} }, true); return; }
  const created = r.must({ verb: 'create', resource: 'pods', namespace: nsOf(p), body: pod, options: writeOptions(dry, { fieldManager: 'kubectl-run' }) });
  printWritten(r, p, dry, `pod/${name}`, 'created', created);
}
