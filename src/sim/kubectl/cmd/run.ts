// kubectl run (pkg/cmd/run): one bare pod.
import { bool, nsOf, parse, str } from './flags.ts';
import { Fail, type Obj, type Run } from './util.ts';
import { WRITE_FLAGS, checkOutput, dryRunStrategy, printWritten, writeOptions } from './dryrun.ts';

/** kubectl run: one bare pod (labels run=NAME), as `kubectl run` makes it. */
export function cmdRun(r: Run, argv: string[]): void {
  const dash = argv.indexOf('--');
  const p = parse(r, 'run', dash >= 0 ? argv.slice(0, dash) : argv, {
    image: { kind: 'string' }, restart: { kind: 'string' }, port: { kind: 'string' }, labels: { kind: 'string', short: 'l' }, command: { kind: 'bool' }, ...WRITE_FLAGS,
  });
  const dry = dryRunStrategy(r, p);
  checkOutput(p);
  const tail = dash >= 0 ? argv.slice(dash + 1) : [];
  // cobra checks the required flag before the command runs.
  const image = str(p, 'image');
  if (!image) throw new Fail('error: required flag(s) "image" not set');
  const name = p.args[0];
  if (!name) throw new Fail("error: NAME is required for run\nSee 'kubectl run -h' for help and examples");
  const restart = str(p, 'restart') ?? 'Always';
  if (!['Always', 'OnFailure', 'Never'].includes(restart)) throw new Fail(`error: invalid restart policy: ${restart}\nSee 'kubectl run -h' for help and examples`);
  const labels: Record<string, string> = {};
  const labelArg = str(p, 'labels');
  if (labelArg) {
    for (const kv of labelArg.split(',')) {
      const eq = kv.indexOf('=');
      if (eq <= 0) throw new Fail(`error: invalid label spec: ${kv}`);
      labels[kv.slice(0, eq)] = kv.slice(eq + 1);
    }
  } else labels.run = name;
  const container: Obj = { name, image, resources: {} };
  const port = str(p, 'port');
  if (port !== undefined) {
    // --port is a string flag: run's generator reads it with strconv.Atoi.
    if (!/^[+-]?\d+$/.test(port)) throw new Fail(`error: strconv.Atoi: parsing "${port}": invalid syntax`);
    container.ports = [{ containerPort: Number(port) }];
  }
  if (tail.length) container[bool(p, 'command') ? 'command' : 'args'] = tail;
  const pod = { apiVersion: 'v1', kind: 'Pod', metadata: { name, labels }, spec: { containers: [container], dnsPolicy: 'ClusterFirst', restartPolicy: restart } };
  if (dry === 'client') { printWritten(r, p, dry, `pod/${name}`, 'created', { ...pod, ...(str(p, 'namespace') !== undefined ? { metadata: { ...pod.metadata, namespace: nsOf(p) } } : {}), status: {} }, true); return; }
  const created = r.must({ verb: 'create', resource: 'pods', namespace: nsOf(p), body: pod, options: writeOptions(dry) });
  printWritten(r, p, dry, `pod/${name}`, 'created', created);
}
