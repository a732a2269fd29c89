// StateDiagram rendered on the server: every state of the chart as text, the current one marked in
// words (not only by its outline), the reason beside it, nested states inside their parent, no inline style.
import { describe, expect, it } from 'vitest';
import { render } from 'svelte/server';
import StateDiagram from './StateDiagram.svelte';
import type { Statechart, StatechartView } from '../../sim/index.ts';

// A hand-written chart in the shape statechartOf gives (the widget gets only JSON from the worker).
const CHART: Statechart = {
  machine: 'pod',
  initial: 'pending',
  states: [
    { id: 'pending', key: 'pending', label: 'pending', parent: null, depth: 0, initial: true, type: 'atomic' },
    { id: 'running', key: 'running', label: 'running', parent: null, depth: 0, initial: false, type: 'compound' },
    {
      id: 'running.notReady',
      key: 'notReady',
      label: 'not ready',
      parent: 'running',
      depth: 1,
      initial: true,
      type: 'atomic',
    },
    { id: 'running.ready', key: 'ready', label: 'ready', parent: 'running', depth: 1, initial: false, type: 'atomic' },
    { id: 'terminated', key: 'terminated', label: 'terminated', parent: null, depth: 0, initial: false, type: 'final' },
  ],
  transitions: [
    { from: null, to: 'terminated', event: 'DELETE_REQUESTED', guarded: false },
    { from: 'pending', to: 'running', event: 'STARTED', guarded: true },
    { from: 'running.notReady', to: 'running.ready', event: 'PROBE_OK', guarded: false },
    { from: 'running.ready', to: null, event: 'PROBE_OK', guarded: false },
  ],
};
const view = (current: string | null): StatechartView => ({
  chart: CHART,
  current,
  reason: 'The readiness probe passed.',
  subject: 'web-1',
});
const text = (html: string) =>
  html
    .replace(/<!--[\s\S]*?-->/g, '')
    .replace(/<[^>]+>/g, ' ')
    .replace(/\s+/g, ' ');

describe('StateDiagram', () => {
  it('lists every state, the current one marked "now", what can happen from it, and every transition in a table', () => {
    const { body } = render(StateDiagram, { props: { view: view('running.ready'), title: 'The pod on its kubelet' } });
    const words = text(body);
    for (const s of CHART.states) expect(body).toContain(`data-chart-state="${s.id}"`);
    expect(words).toContain('The pod on its kubelet: web-1');
    expect(words).toContain('Now ready. The readiness probe passed.');
    // From running.ready: the machine's own transition, its parent's (none here) and its own.
    expect(words).toContain('From here: DELETE_REQUESTED → terminated; PROBE_OK stays.');
    expect(words).toContain('Every transition of the statechart (4)');
    expect(words).toContain('not ready PROBE_OK ready');
    expect(words).toContain('any state DELETE_REQUESTED terminated');
    expect(words).toContain('pending STARTED (if its guard holds) running');
    expect(body.match(/aria-current="true"/g)).toHaveLength(1);
    expect(body).toMatch(/data-chart-state="running.ready"[^>]*data-current="true"/);
    expect(words.match(/ now /g)).toHaveLength(1);
    expect(body).toContain('data-current="running.ready"');
    expect(body).not.toMatch(/\sstyle=/);
  });

  it('nests child states inside their parent and says when nothing is current', () => {
    const { body } = render(StateDiagram, { props: { view: view(null), title: 'The pod' } });
    const running = body.indexOf('data-chart-state="running"');
    expect(running).toBeLessThan(body.indexOf('data-chart-state="running.ready"'));
    expect(body.indexOf('data-chart-state="running.ready"')).toBeLessThan(
      body.indexOf('data-chart-state="terminated"'),
    );
    expect(text(body)).toContain('No current state.');
    expect(body).not.toContain('state-diagram-next');
    expect(body).not.toContain('aria-current');
  });
});
