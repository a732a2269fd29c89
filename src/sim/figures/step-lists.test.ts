// Step forward goes over the informers' start-up lists as one summarised step (issue 25: "the
// start-up is one summarised step"); Step back returns over them; anywhere else a step is one step.
import { describe, expect, it } from 'vitest';
import { FIGURES } from '../testing/figures.ts';
import { compileFigure } from './compile.ts';
import { FigureHost } from './host.ts';

const compiled = compileFigure(FIGURES.cluster);
const fresh = () => new FigureHost(FIGURES.cluster, compiled.story);

describe('Step forward over the start-up lists', () => {
  it("after Apply, one press goes over every watch's initial list and draws all of it as one burst", () => {
    const host = fresh();
    expect(host.handle({ op: 'step' }).records.map((r) => r.label)).toEqual(['POST deployments']);
    const v = host.handle({ op: 'step' });
    expect(v.step).toBeGreaterThan(20);
    expect(v.records.length).toBe(v.step - 1);
    expect(v.records.every((r) => r.kind === 'watch' && /^(ADDED|BOOKMARK) /.test(r.label))).toBe(true);
    // Each list ends in its BOOKMARK: as many BOOKMARKs as watches listed.
    expect(v.records.filter((r) => r.label.startsWith('BOOKMARK')).length).toBeGreaterThan(5);
    expect(v.sentence).toBe(
      `Every component lists what exists: one ADDED notification for each object its watches cover, then a BOOKMARK saying the list is complete (${v.records.length} notifications in all). Nothing changes in the cluster; now each one knows what there is.`,
    );
    // The next press is the first thing that is not a list: the Deployment told to the controllers.
    const after = host.handle({ op: 'step' });
    expect(after.step).toBe(v.step + 1);
    expect(after.records.map((r) => r.label)).toEqual(['ADDED deployments']);
  });

  it('Step back from there returns to before the lists, and Step forward comes back to the same view', () => {
    const host = fresh();
    const apply = host.handle({ op: 'step' });
    const listed = host.handle({ op: 'step' });
    expect(host.handle({ op: 'back' })).toEqual(apply);
    expect(host.handle({ op: 'step' })).toEqual(listed);
  });

  it('inside a list (reached by the slider), a step is one step, said on its own', () => {
    const host = fresh();
    const mid = host.handle({ op: 'seek', step: 5 });
    expect(mid.records).toHaveLength(1);
    const next = host.handle({ op: 'step' });
    expect(next.step).toBe(6);
    expect(next.records).toHaveLength(1);
    expect(next.sentence).not.toMatch(/lists what exists/);
  });

  it('the same step reached by the slider is the same cluster (only the words and the burst differ)', () => {
    const stepped = fresh();
    stepped.handle({ op: 'step' });
    const v = stepped.handle({ op: 'step' });
    const sought = fresh().handle({ op: 'seek', step: v.step });
    expect(sought.frame).toEqual(v.frame);
    expect(sought.records).toEqual(v.records.slice(-1));
  });
});
