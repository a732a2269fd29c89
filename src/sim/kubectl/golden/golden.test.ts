// The simulator against real kubectl v1.37.2: every case of cases.ts prints what the real binary
// printed (kubectl-1.37.json, captured by scripts/kubectl-golden.ts). With KUBECTL_JUDGE naming a
// real kubectl (a path, or a command: KUBECTL_JUDGE='oracle/bin/oracle kubectl'), the fixture
// itself is checked against a fresh capture.
import { describe, expect, test } from 'vitest';
import { createCluster } from '../../cluster.ts';
import { runKubectl } from '../kubectl.ts';
import { GOLDEN_CASES } from '../../../../scripts/lib/kubectl-golden-cases.ts';
import fixture from './kubectl-1.37.json';
import type { GoldenResult } from '../../../../scripts/lib/kubectl-judge.ts';

const FIXTURE = fixture as (GoldenResult & { args: string[]; stdin?: string })[];
const label = (args: string[]) => `kubectl ${args.join(' ')}`;
/** klog's header (`W1201 11:39:25.887472   21663 helpers.go:719] `) names a time and a process: the simulator prints the message alone. */
const withoutKlogHeaders = (s: string) => s.replace(/^[IWEF]\d{4} \d\d:\d\d:\d\d\.\d{6} +\d+ [\w.-]+:\d+\] /gm, '');

describe('golden: kubectl 1.37', () => {
  test('the fixture holds every case, in order', () => {
    expect(FIXTURE.map((c) => c.args)).toEqual(GOLDEN_CASES.map((c) => c.args));
  });

  const differs = new Map(GOLDEN_CASES.filter((c) => c.differs).map((c) => [label(c.args), c.differs!]));
  const run = (c: (typeof FIXTURE)[number]) => {
    const r = runKubectl(createCluster({ seed: 1 }), c.args, c.stdin);
    return { got: { stdout: r.stdout, stderr: r.stderr, exitCode: r.exitCode }, want: { stdout: c.stdout, stderr: withoutKlogHeaders(c.stderr), exitCode: c.exitCode } };
  };
  test.each(FIXTURE.filter((c) => !differs.has(label(c.args))).map((c) => [label(c.args), c] as const))('%s', (_l, c) => {
    const { got, want } = run(c);
    expect(got).toEqual(want);
  });
  test.each(FIXTURE.filter((c) => differs.has(label(c.args))).map((c) => [label(c.args), differs.get(label(c.args)), c] as const))('%s differs on purpose: %s', (_l, _why, c) => {
    const { got, want } = run(c);
    expect(got).not.toEqual(want);
  });

  const judge = process.env.KUBECTL_JUDGE;
  test.skipIf(!judge)('the fixture is what the real binary prints now', async () => {
    const { runJudge } = await import('../../../../scripts/lib/kubectl-judge.ts');
    const seen = (args: string[], r: GoldenResult) => ({ args, stdout: r.stdout, stderr: withoutKlogHeaders(r.stderr), exitCode: r.exitCode });
    for (const c of GOLDEN_CASES) {
      expect(seen(c.args, await runJudge(judge!, c))).toEqual(seen(c.args, FIXTURE.find((f) => label(f.args) === label(c.args))!));
    }
  }, 300_000);
});
