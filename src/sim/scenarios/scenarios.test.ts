// Runs every scenario: the steps through runScript on a fresh cluster, then each expectation's
// command, whose stdout must equal the text written in the scenario.
import { describe, expect, test } from 'vitest';
import { createCluster } from '../cluster.ts';
import { runKubectl } from '../kubectl/kubectl.ts';
import { runScript } from '../kubectl/script.ts';
import { SCENARIOS, type Scenario } from './index.ts';

function play(s: Scenario): void {
  const c = createCluster({ seed: 1, ...s.options });
  const r = runScript(c, s.steps.join('\n'));
  const failed = r.steps.filter((x) => x.exitCode !== 0).map((x) => x.command);
  expect(
    failed,
    r.steps
      .filter((x) => x.exitCode !== 0)
      .map((x) => x.stderr)
      .join(''),
  ).toEqual(s.failing ?? []);
  for (const [command, stdout, stderr = ''] of s.expect) {
    const out = runKubectl(c, command);
    expect(out.stderr, command).toBe(stderr);
    expect(out.stdout, command).toBe(stdout);
  }
}

describe.each([...new Set(SCENARIOS.map((s) => s.chapter))])('chapter %s', (chapter) => {
  for (const s of SCENARIOS.filter((x) => x.chapter === chapter)) {
    if (s.knownBug) test.fails(`${s.title} [known bug: ${s.knownBug}]`, () => play(s));
    else test(s.title, () => play(s));
  }
});

test('scenario titles are unique', () => {
  expect(new Set(SCENARIOS.map((s) => s.title)).size).toBe(SCENARIOS.length);
});
