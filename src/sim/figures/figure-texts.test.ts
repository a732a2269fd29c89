// Every sentence a figure shows is checked against the frame it describes (the checker and the
// property are in testing/figure-texts.ts). This file: the checker itself, the chapters' figures, and
// the moments readers found wrong; figure-texts-widgets-{1,2}.test.ts take the inline widgets, so
// CI's two workers share the property's runs.
import { describe, expect, it } from 'vitest';
import { compileFigure } from './compile.ts';
import { CHAPTER_FIGURES, FIGURES } from '../testing/figures.ts';
import { FigureHost } from './host.ts';
import type { FigureId } from './catalog.ts';
import type { FigureView } from './protocol.ts';
import type { Frame } from '../view/types.ts';
import { contradictions, textsAgreeWithFrames } from '../testing/figure-texts.ts';

describe('contradictions (the checker itself)', () => {
  const base = compileFigure(FIGURES.outage).first;
  const withBeat = (beat: string, frame: Frame = base.frame): FigureView => ({
    ...base,
    frame,
    beat,
    sentence: beat,
    records: [],
  });
  it("finds the reader's examples", () => {
    expect(contradictions(withBeat("The nodes' rules still include the 0 addresss on node-3."))).toHaveLength(2);
    expect(contradictions(withBeat('1 pods of web are ready.'))).toHaveLength(1);
    const down = { ...base.frame, controlPlane: { ...base.frame.controlPlane, apiserver: false } };
    expect(contradictions(withBeat('The write was accepted; no controller is left to act on it.', down))).toHaveLength(
      1,
    );
    expect(contradictions(withBeat('node-9 is quiet.'))).toHaveLength(1);
    expect(contradictions(withBeat('node-1 is Ready, 2 pods of web run there.'))).toEqual([]);
  });
});

textsAgreeWithFrames(CHAPTER_FIGURES);

describe('figure texts: the moments readers found wrong', () => {
  /** Presses the demos in order on a fresh cluster of the figure and returns every view on the way. */
  function press(id: FigureId, demos: string[]): FigureView[] {
    const def = FIGURES[id];
    const host = new FigureHost(def, { ...compileFigure(def).story, inputs: [], beats: [], end: 0 });
    const views = [host.handle({ op: 'advance', ms: 5_000 })];
    for (const d of demos) {
      views.push(host.handle({ op: 'demo', demo: d }));
      for (let n = 0; n < 40 && views[views.length - 1].demoRunning; n++) views.push(host.handle({ op: 'next' }));
    }
    return views;
  }

  it('hub: the controller-manager stopped while the API server is down says the write was refused, not accepted', () => {
    const views = press('hub', ['apply', 'stop-apiserver', 'stop-controller-manager']);
    for (const v of views) expect(contradictions(v)).toEqual([]);
    expect(views[views.length - 1].beat).toMatch(/refused/);
  });

  it('cluster: Apply with the control plane down says kubectl was refused, not that the Deployment was stored', () => {
    const views = press('cluster', ['control-plane', 'apply']);
    for (const v of views) expect(contradictions(v)).toEqual([]);
    expect(views[views.length - 1].beat).toMatch(/refused/);
  });

  it("outage: a node dying in the outage says what share of the client's requests it loses from the frame", () => {
    const views = press('outage', ['apply', 'control-plane', 'node']);
    for (const v of views) expect(contradictions(v)).toEqual([]);
  });
});
