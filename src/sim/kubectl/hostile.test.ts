// What a hostile reader can type into a terminal or pipe in as a manifest never brings JavaScript's
// or Node's own words to the page: every error is kubectl's or the API server's, or a plain sentence.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { fixtureCluster } from '../testing/kubectl-fixture.ts';
import { runLine } from './script.ts';
import { errorLine, FAULT_TEXT, isFault } from './plain-error.ts';
import { flowTooDeep } from './cmd/manifest.ts';
import { runs } from '../../test/fc.ts';

const cluster = fixtureCluster();
const snap = cluster.world.snapshot();

/** The engine's vocabulary, none of which kubectl or the API server prints. */
const FORBIDDEN = [
  'TypeError',
  'RangeError',
  'ReferenceError',
  'SyntaxError',
  'InternalError',
  'Maximum call stack',
  'undefined is not',
  'Cannot read properties',
  'is not a function',
  'is not iterable',
  'EISDIR',
  'ENOENT',
  'EACCES',
  '[object Object]',
  'NaN',
  'Infinity',
  'BigInt',
];

/** The words of `out` that are the engine's, leaving those the reader typed (kubectl echoes names back). */
const engineWords = (out: string, typed: string): string[] =>
  FORBIDDEN.filter((w) => out.includes(w) && !typed.includes(w));

const deep = (open: string, close: string, n: number, inner = '1'): string => open.repeat(n) + inner + close.repeat(n);
const manifest = (spec: string): string =>
  `apiVersion: v1\nkind: Pod\nmetadata:\n  name: p\nspec:\n  containers:\n  - name: c\n    image: nginx:1.27\n${spec}`;
const QUANTITIES = [
  '1e-300000000',
  '1e999999999',
  '1e99999999999999999999',
  '-1e999999999',
  '9Ei',
  '.',
  '+',
  'm',
  '1e4294967297',
  '0.000000000001Ki',
  '12E',
  'NaN',
  '1e400',
  '-0',
  '.inf',
  '.nan',
];

const MANIFESTS = fc.oneof(
  fc.integer({ min: 1, max: 12_000 }).map((n) => manifest(`    env: ${deep('[', ']', n)}\n`)),
  fc.integer({ min: 1, max: 12_000 }).map((n) => manifest(`    resources: ${deep('{a: ', '}', n)}\n`)),
  fc
    .integer({ min: 1, max: 6000 })
    .map(
      (n) => `{"apiVersion":"v1","kind":"ConfigMap","metadata":{"name":"c"},"data":${deep('{"a":', '}', n, '"x"')}}`,
    ),
  fc
    .tuple(fc.constantFrom('requests', 'limits'), fc.constantFrom(...QUANTITIES))
    .map(([k, q]) =>
      manifest(`    resources:\n      ${k}:\n        cpu: ${JSON.stringify(q)}\n        memory: ${q}\n`),
    ),
  fc.constantFrom(
    'kind: [1]\napiVersion: v1',
    'apiVersion: 5\nkind: Pod',
    'apiVersion: v1\nkind: Pod\nmetadata: {name: {a: 1}}',
    'apiVersion: v1\nkind: Pod\nmetadata:\n  name: x\nspec: .nan',
    'apiVersion: apps/v1\nkind: Deployment\nmetadata: {name: d}\nspec: {replicas: .inf, selector: {matchLabels: {a: b}}, template: {metadata: {labels: {a: b}}, spec: {containers: [{name: c, image: i}]}}}',
    'apiVersion: apps/v1\nkind: Deployment\nmetadata: {name: d}\nspec: {replicas: 1e400}',
    '!!binary aGVsbG8=',
    'a: &a [*a]',
    '- 1\n- 2',
    '"just a string"',
    '{',
    '---\n---\n',
    'apiVersion: v1\nkind: List\nitems: [1, null, "x"]',
    'apiVersion: v1\nkind: Pod\nmetadata: {name: p, labels: {a: 2021-01-01}}',
    'apiVersion: v1\nkind: Node\nmetadata: {name: n9}\nstatus: {capacity: {cpu: 1e999999999, memory: "1e-300000000"}}',
  ),
  fc.string({ maxLength: 200 }),
);

const LINE_WORDS = [
  'kubectl',
  'apply',
  'create',
  'replace',
  'delete',
  'get',
  'describe',
  'patch',
  'scale',
  'run',
  'set',
  'label',
  '-f',
  '/',
  '.',
  '..',
  '-',
  'x.yaml',
  '/etc/passwd',
  '-R',
  'pods',
  'deploy',
  'web',
  'node-1',
  '-o',
  'json',
  'yaml',
  'jsonpath={..}',
  'jsonpath={.items[-99999999999]}',
  'jsonpath={range}',
  '--sort-by={}',
  '--sort-by=.spec.containers[0].resources.requests.cpu',
  '--replicas=1e400',
  '--replicas=99999999999999999999',
  '--type=json',
  '-p',
  '[{"op":"add","path":"/spec/replicas","value":1e400}]',
  '{"spec":{"replicas":"NaN"}}',
  '--timeout=999999h',
  'sim',
  'advance',
  '999999h',
  '1e999h',
  'settle',
  '0.0000001ms',
  'crash',
  '--log',
  'node',
  'stop',
  '--grace-period=-99999999999',
  '--image=nginx',
  '--',
  '\u0000',
  'ü',
  '""',
  "''",
  '$(x)',
  '`x`',
];

describe('no engine words reach the reader', () => {
  it("hostile lines and manifests end in kubectl's words or a plain sentence", () => {
    const line = fc
      .array(fc.oneof(fc.constantFrom(...LINE_WORDS), fc.string({ maxLength: 8 })), { minLength: 1, maxLength: 7 })
      .map((ws) => ws.join(' '));
    fc.assert(
      fc.property(
        fc.oneof(line, fc.constant('kubectl apply -f -'), fc.constant('kubectl create -f -')),
        fc.option(MANIFESTS),
        (l, stdin) => {
          cluster.world.restore(snap);
          const r = runLine(cluster, l, stdin ?? undefined);
          const typed = l + (stdin ?? '');
          expect(
            engineWords(r.stdout + r.stderr, typed),
            `${l}\n${(stdin ?? '').slice(0, 300)}\n${r.stderr.slice(0, 500)}`,
          ).toEqual([]);
        },
      ),
      { numRuns: runs(0.5) },
    );
  }, 120_000);

  it.each([
    [
      'kubectl apply -f -',
      manifest(`    env: ${deep('[', ']', 3000)}\n`),
      'error: error parsing STDIN: the manifest is nested more deeply than this simulator can read\n',
    ],
    [
      'kubectl apply -f -',
      manifest(`    env:\n      ${deep('[', ']', 10_001)}\n`),
      'error: error parsing STDIN: error converting YAML to JSON: yaml: line 10: exceeded max depth of 10000\n',
    ],
    ['kubectl apply -f /', undefined, 'error: the path "/" does not exist\n'], // a page has no file system
    ['kubectl apply -f x.yaml', undefined, 'error: the path "x.yaml" does not exist\n'],
  ])('%s: what kubectl says', (l, stdin, stderr) => {
    cluster.world.restore(snap);
    expect(runLine(cluster, l, stdin).stderr).toBe(stderr);
  });

  it("a fault is a plain sentence; the simulator's own errors keep their words", () => {
    expect(errorLine(new TypeError("Cannot read properties of undefined (reading 'x')"))).toBe(FAULT_TEXT);
    expect(errorLine(new RangeError('Maximum call stack size exceeded'))).toBe(FAULT_TEXT);
    expect(
      errorLine(Object.assign(new Error('EISDIR: illegal operation on a directory, read'), { code: 'EISDIR' })),
    ).toBe(FAULT_TEXT);
    expect(errorLine('a string')).toBe(FAULT_TEXT);
    expect(errorLine(new Error('pods "x" not found'))).toBe('error: pods "x" not found');
    expect(isFault(new Error('value is [object Object]'))).toBe(true);
  });

  it('counts flow nesting outside quotes and comments', () => {
    expect(flowTooDeep('a: [[1]]', 1)).toBe(1);
    expect(flowTooDeep('a: "[[[["\nb: \'[[[\'  # [[[[', 1)).toBe(0);
    expect(flowTooDeep('a: [\n[\n1]]', 1)).toBe(2);
  });
});

describe('what the real API server refuses', () => {
  const pod = (extra: string) =>
    `apiVersion: v1\nkind: Pod\nmetadata:\n  name: strict\nspec:\n${extra}  containers:\n  - name: c\n    image: nginx:1.27\n`;

  it("fieldValidation=Strict: unknown fields are a 400 with the strict decoder's paths, and nothing is stored", () => {
    cluster.world.restore(snap);
    const r = runLine(cluster, 'kubectl apply -f -', pod('  foo: 1\n'));
    expect(r.stderr).toBe(
      'Error from server (BadRequest): error when creating "STDIN": Pod in version "v1" cannot be handled as a Pod: strict decoding error: unknown field "spec.foo"\n',
    );
    expect(runLine(cluster, 'kubectl get pod strict').stderr).toBe(
      'Error from server (NotFound): pods "strict" not found\n',
    );
    const d =
      'apiVersion: apps/v1\nkind: Deployment\nmetadata:\n  name: d\n  Labels: {a: b}\nspec:\n  replica: 2\n  selector: {matchLabels: {a: b}}\n  template:\n    metadata: {labels: {a: b}}\n    spec:\n      containers:\n      - name: c\n        image: nginx\n        imagePullPolicys: Always\n        ports: [{containerPort: 80, proto: TCP}]\n';
    expect(runLine(cluster, 'kubectl create -f -', d).stderr).toBe(
      'Error from server (BadRequest): error when creating "STDIN": Deployment in version "v1" cannot be handled as a Deployment: strict decoding error: ' +
        'unknown field "metadata.Labels", unknown field "spec.replica", unknown field "spec.template.spec.containers[0].imagePullPolicys", unknown field "spec.template.spec.containers[0].ports[0].proto"\n',
    );
    // Every field of the structs a reader writes is known; below an unlisted struct nothing is checked.
    expect(
      runLine(
        cluster,
        'kubectl apply -f -',
        pod('  securityContext: {runAsUser: 1000, whatever: 1}\n  hostname: h\n  enableServiceLinks: false\n'),
      ).stdout,
    ).toBe('pod/strict created\n');
  });
});
