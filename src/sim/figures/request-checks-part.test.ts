// The API server's request checks (typed decoding and the built-in validation) are a part
// (ApiServerConfig.checks): a figure's cluster runs without them until kubectl loads them, unless the
// figure declares them (FigureDef.checks) because its own actions can be refused. That is only sound
// if, for every other figure, nothing the reader can press writes a body they would change or refuse:
// then a run gives the same bytes whether the part was loaded at the start (a link's replay installs
// kubectl's extras first) or never. This test presses each figure's demos in random orders with and
// without the part and compares the world after every press. Panels that send a reader's own values
// (the rollout figure's bounds, the scheduler figure's requests) are not pressed here: their figures
// declare the checks.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { setDefaultRequestChecks } from '../apiserver/options.ts';
import { REQUEST_CHECKS } from '../apiserver/request-checks.ts';
import { FIGURES } from '../testing/figures.ts';
import { compileFigure } from './compile.ts';
import { FigureHost } from './host.ts';
import type { FigureRequest } from './protocol.ts';
import type { FigureDef } from './demo.ts';

/** The world's hash after each request, in a host made with or without the request checks. */
function hashes(
  def: FigureDef,
  story: ReturnType<typeof compileFigure>['story'],
  reqs: FigureRequest[],
  checks: boolean,
): string[] {
  setDefaultRequestChecks(checks ? REQUEST_CHECKS : undefined);
  try {
    const host = new FigureHost(def, story);
    const out = [host.cluster.world.hash()];
    for (const r of reqs) {
      try {
        host.handle(r);
      } catch {
        /* a demo refused now: the same in both */
      }
      out.push(host.cluster.world.hash());
    }
    return out;
  } finally {
    setDefaultRequestChecks(REQUEST_CHECKS);
  }
}

// One compile per figure for the whole file: the runs below start from its story.
const stories = new Map<string, ReturnType<typeof compileFigure>['story']>();
const storyOf = (def: FigureDef) => stories.get(def.id) ?? stories.set(def.id, compileFigure(def).story).get(def.id)!;

describe('the request checks as a part', () => {
  for (const def of Object.values(FIGURES).filter((d) => !d.checks)) {
    it(`${def.id}: every press gives the same world with and without it`, () => {
      const story = storyOf(def);
      fc.assert(
        fc.property(
          fc.array(
            fc.oneof(
              fc.constantFrom<FigureRequest>(...def.demos.map((d) => ({ op: 'demo' as const, demo: d.id }))),
              fc.constantFrom<FigureRequest>({ op: 'next' }, { op: 'advance', ms: 30_000 }),
            ),
            { minLength: 1, maxLength: 6 },
          ),
          (reqs) => {
            expect(hashes(def, story, reqs, false)).toEqual(hashes(def, story, reqs, true));
            // A fixed count, not FC_RUNS's share: each run builds two hosts, and CI's 1,000 would take minutes.
          },
        ),
        { numRuns: 2 },
      );
    }, 120_000);
  }

  it('the figures that can send what it refuses declare it, and their hosts run it', () => {
    const declared = Object.values(FIGURES)
      .filter((d) => d.checks)
      .map((d) => d.id)
      .sort();
    // Those whose demos or panels send what a reader chose (numbers, quantities) or a refusal on purpose,
    // and those whose manifests hold quantities the API server rewrites (1000m is stored as 1, and a
    // Deployment's pod-template hash is taken over what is stored).
    expect(declared).toEqual([
      'filter-score',
      'hub',
      'max-surge',
      'one-at-a-time',
      'pending-pod',
      'rollout',
      'scheduler',
    ]);
    setDefaultRequestChecks(undefined);
    try {
      for (const def of Object.values(FIGURES)) {
        const host = new FigureHost(def, storyOf(def));
        expect(host.cluster.world.apiConfig.checks).toBe(def.checks);
      }
    } finally {
      setDefaultRequestChecks(REQUEST_CHECKS);
    }
  });
});
