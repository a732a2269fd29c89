// The kit rendered on the server, as a figure's .astro wrapper renders its first frame: the test
// ids, the words (states are never colour alone) and the accessible names the e2e tests rely on.
import { describe, expect, it } from 'vitest';
import { render } from 'svelte/server';
import ClusterCanvas from './ClusterCanvas.svelte';
import RequestLog from './RequestLog.svelte';
import Toolbar from './Toolbar.svelte';
import Narration from './Narration.svelte';
import LeavesOut from './LeavesOut.svelte';
import KeyboardHelp from './KeyboardHelp.svelte';
import { FRAME, RECORDS } from './fixtures.ts';
import type { FigureView } from '../../sim/figures/protocol.ts';

const noop = () => {};
/**
 * Text as a screen reader gets it, for phrase assertions: comments and aria-hidden glyphs dropped,
 * block tags read as a break, inline tags as nothing (so "Next event<span>that matters</span>"
 * would show as the run-together it is).
 */
const text = (html: string) =>
  html
    .replace(/<!--[\s\S]*?-->/g, '')
    .replace(/<span aria-hidden="true">[^<]*<\/span>/g, '')
    .replace(/<\/?(?:div|p|ul|ol|li|dl|dt|dd|option|select|summary|details|label|button)\b[^>]*>/g, ' ')
    .replace(/<[^>]+>/g, '')
    .replace(/\s+/g, ' ');
/** The opening tag of the first element with this attribute fragment. */
const tagWith = (html: string, attr: string) => html.match(new RegExp(`<[a-z]+[^>]*${attr}[^>]*>`))?.[0] ?? '';

function noInlineStyle(html: string) {
  expect(html).not.toMatch(/\sstyle=/);
}

describe('ClusterCanvas', () => {
  const { body } = render(ClusterCanvas, {
    props: { frame: FRAME, records: RECORDS, highlight: ['kube-apiserver', 'kubelet/node-2'] },
  });
  const words = text(body);

  it('draws every node and pod with test ids and state attributes', () => {
    for (const n of ['node-1', 'node-2', 'node-3']) expect(body).toContain(`data-testid="node-${n}"`);
    expect(tagWith(body, 'data-testid="node-node-3"')).toContain('data-ready="Unknown"');
    for (const p of [...FRAME.pods, ...FRAME.pending]) expect(body).toContain(`data-testid="pod-${p.name}"`);
    const running = tagWith(body, 'data-testid="pod-web-c68c68797-4mxbq"');
    expect(running).toContain('data-ready="true"');
    expect(running).toContain('data-status="Running"');
    const unready = tagWith(body, 'data-testid="pod-web-c68c68797-q8z7d"');
    expect(unready).toContain('data-ready="false"');
    expect(tagWith(body, 'data-testid="pod-web-c68c68797-7rnvw"')).toContain('data-status="Pending"');
  });

  it('says states in words', () => {
    expect(words).toContain('kube-apiserver up');
    // Up is drawn as a dot, its word said; down is drawn in words.
    expect(body).toMatch(/<span aria-hidden="true">●<\/span> <span class="kit-sr[^"]*">up<\/span>/);
    expect(body).toMatch(/<span aria-hidden="true">✕<\/span> <span( class="[^"]*")?>stopped<\/span>/);
    expect(body).not.toMatch(/<span class="kit-sr[^"]*">stopped/);
    expect(words).toContain('rev 48');
    expect(words).toMatch(/Ready condition: Ready/);
    expect(words).toMatch(/Ready condition: Unknown/);
    expect(words).toContain('powered off');
    expect(words).toContain('cordoned');
    expect(words).toContain('lease 3s ago');
    expect(words).toContain('lease 48s ago');
    expect(words).toContain('Not yet scheduled (1)');
    expect(words).toContain('10.244.2.4');
    expect(words).toContain('ready 0/1');
  });

  it('shortens taint keys on screen and keeps the full key for screen readers and the tooltip', () => {
    expect(body).toContain('title="node.kubernetes.io/unreachable:NoExecute"');
    expect(words).toContain('unreachable:NoExecute');
    expect(body).toMatch(/class="kit-sr[^"]*">node\.kubernetes\.io\/unreachable:NoSchedule</);
  });

  it('marks each endpoint box and outlines the highlighted ones', () => {
    for (const e of [
      'kubectl',
      'kube-apiserver',
      'etcd',
      'scheduler',
      'kube-controller-manager',
      'kubelet/node-1',
      'containerd/node-3',
    ])
      expect(body).toContain(`data-endpoint="${e}"`);
    expect(tagWith(body, 'data-endpoint="kube-apiserver"')).toContain('data-highlighted="true"');
    expect(tagWith(body, 'data-endpoint="etcd"')).toContain('data-highlighted="false"');
    // Not choosable without the callback: no buttons at all.
    expect(body).not.toContain('<button');
  });

  it("shows the step's records as chips on both ends, with kind words", () => {
    expect(body).toMatch(/data-dir="out" data-kind="watch" data-seq="103"/);
    expect(body).toMatch(/data-dir="in" data-kind="watch" data-seq="103"/);
    expect(words).toContain('out write to kube-apiserver POST pods/binding');
    expect(words).toContain('in CRI from kubelet/node-2 RunPodSandbox');
    expect(words).toContain('watch to kubelet/node-2');
    expect(words).toContain('out write to kube-apiserver PUT leases/node-1');
  });

  it('shows the API latency and a full etcd when the reader set them', () => {
    const frame = {
      ...FRAME,
      controlPlane: { ...FRAME.controlPlane, latencyMs: 200, etcdFull: true, scheduler: false },
    };
    const t = text(render(ClusterCanvas, { props: { frame, records: [] } }).body);
    expect(t).toContain('+200 ms latency');
    expect(t).toContain('full');
    expect(t).toContain('scheduler down');
  });

  it('makes the endpoint boxes buttons when they can be chosen', () => {
    const html = render(ClusterCanvas, { props: { frame: FRAME, records: RECORDS, onselectcomponent: noop } }).body;
    expect(tagWith(html, 'data-endpoint="kube-apiserver"')).toMatch(/^<button type="button"/);
    expect(tagWith(html, 'data-endpoint="containerd/node-2"')).toMatch(/^<button/);
    noInlineStyle(html);
  });

  it('has no inline style', () => noInlineStyle(body));
});

describe('RequestLog', () => {
  const props = { records: RECORDS, selected: 103, filter: null, onselect: noop, onfilter: noop, t0: 0 };
  const { body } = render(RequestLog, { props });
  const words = text(body);

  it('lists the entries with time, kind, ends, label, revision and failures', () => {
    expect(body).toMatch(/<ol[^>]*aria-label="Request log/);
    expect(words).toContain('72.101s write scheduler to kube-apiserver POST pods/binding rv=49');
    expect(words).toContain('watch kube-apiserver to kubelet/node-2');
    expect(words).toContain('CRI kubelet/node-2 to containerd/node-2 RunPodSandbox');
    expect(words).toContain('read kubectl');
    expect(words).toContain('DELETE pods/web-x 503');
    expect(tagWith(body, 'data-seq="103"')).toContain('aria-pressed="true"');
    expect(tagWith(body, 'data-seq="101"')).toContain('aria-pressed="false"');
  });

  it('hides heartbeats by default and says how many', () => {
    expect(body).not.toContain('data-seq="107"');
    expect(words).toContain('1 heartbeat hidden');
    expect(body).toMatch(/<input type="checkbox"/);
    expect(words).toContain('Show heartbeats');
  });

  it('offers every component as a filter and lists only its records when filtered', () => {
    for (const o of [
      'All',
      'kubectl',
      'kube-apiserver',
      'scheduler',
      'kube-controller-manager',
      'kubelet/node-1',
      'kubelet/node-2',
    ])
      expect(body).toContain(`>${o}</option>`);
    const html = render(RequestLog, {
      props: { ...props, filter: 'kubelet/node-2', endpoints: ['kubelet/node-3'] },
    }).body;
    expect(html).toMatch(/<option value="kubelet\/node-2" selected/);
    expect(html).toContain('>kubelet/node-3</option>');
    expect(html).toContain('data-seq="103"');
    expect(html).toContain('data-seq="105"');
    expect(html).not.toContain('data-seq="101"');
  });

  it('says so when there is nothing to list', () => {
    expect(text(render(RequestLog, { props: { ...props, records: [] } }).body)).toContain('No requests yet.');
  });

  it('marks the notification that caused the chosen request, and offers a button that chooses it', () => {
    expect(body).not.toContain('kit-log__why');
    const html = render(RequestLog, { props: { ...props, selected: 105 } }).body;
    expect(tagWith(html, 'data-seq="103"')).toMatch(/data-cause/);
    expect(tagWith(html, 'data-seq="104"')).not.toMatch(/data-cause/);
    expect(text(html)).toContain('cause of the chosen request');
    expect(text(html)).toContain('caused by MODIFIED pods web-c68c68797-7rnvw');
    // A cause the list no longer holds is not offered.
    const gone = render(RequestLog, {
      props: { ...props, selected: 105, records: RECORDS.filter((r) => r.seq !== 103) },
    }).body;
    expect(gone).not.toContain('kit-log__why');
    noInlineStyle(html);
  });

  it('has no inline style', () => noInlineStyle(body));
});

describe('Toolbar', () => {
  const base = {
    playing: false,
    canBack: true,
    canForward: true,
    step: 7,
    last: 23,
    speed: 'real' as const,
    t: 72_400,
    t0: 0,
    valueText: 'Step 7 of 23: the scheduler binds web-c68c68797-x2k9p to node-2',
    onplay: noop,
    onpause: noop,
    onback: noop,
    onforward: noop,
    onreset: noop,
    onnext: noop,
    onspeed: noop,
    onseek: noop,
  };
  const { body } = render(Toolbar, { props: base });
  // A button's name is its text: tags dropped without adding spaces, as the browser joins inline text.
  const buttonNames = (html: string) =>
    [...html.matchAll(/<button[^>]*>([\s\S]*?)<\/button>/g)].map((m) =>
      m[1]
        .replace(/<!--[\s\S]*?-->|<[^>]+>/g, '')
        .replace(/\s+/g, ' ')
        .trim(),
    );

  it('is an ARIA toolbar whose buttons have the shared names, one in the tab order', () => {
    expect(body).toMatch(/role="toolbar" aria-label="Playback"/);
    expect(buttonNames(body)).toEqual(['Play', 'Step back', 'Step forward', 'Next event that matters', 'Reset']);
    expect(body.match(/tabindex="0"/g)).toHaveLength(1);
    expect(buttonNames(render(Toolbar, { props: { ...base, playing: true } }).body)[0]).toBe('Pause');
  });

  it('has the speed select, the timeline slider and the clock', () => {
    expect(words(body)).toContain('Speed');
    for (const v of ['real', 'fast', 'compressed']) expect(body).toContain(`value="${v}"`);
    expect(body).toMatch(/<option value="real" selected/);
    expect(words(body)).toContain('real time faster compressed');
    expect(body).toMatch(/<label[^>]*>Timeline<\/label>/);
    expect(body).toMatch(
      /type="range"[^>]*max="23"[^>]*value="7"[^>]*aria-valuetext="Step 7 of 23: the scheduler binds web-c68c68797-x2k9p to node-2"/,
    );
    expect(body).toContain('aria-label="Simulated time 1 minute 12.4 seconds"');
    expect(words(body)).toContain('1:12.4');
  });

  it('marks what cannot be done with aria-disabled, never disabled', () => {
    const html = render(Toolbar, { props: { ...base, canBack: false, canForward: false } }).body;
    expect(tagWith(html, 'data-action="back"')).toContain('aria-disabled="true"');
    expect(tagWith(html, 'data-action="toggle"')).toContain('aria-disabled="true"');
    expect(tagWith(html, 'data-action="next"')).toContain('aria-disabled="true"');
    expect(tagWith(body, 'data-action="forward"')).toContain('aria-disabled="false"');
    expect(html).not.toMatch(/\sdisabled[\s=>]/);
  });

  it('has no inline style', () => noInlineStyle(body));
  function words(html: string) {
    return text(html);
  }
});

describe('Narration', () => {
  /** What the narration reads of a view: a step between beats, in the story, with nothing skipped and not at rest. */
  const view: Pick<FigureView, 'beat' | 'sentence' | 'skipped' | 'rest' | 'story'> = {
    beat: null,
    sentence: 'The scheduler binds web-c68c68797-7rnvw to node-2.',
    skipped: null,
    rest: null,
    story: { beats: 16, beatIndex: 2, diverged: false, ended: false },
  };
  const narration = (v: Partial<typeof view>) =>
    render(Narration, { props: { view: { ...view, ...v }, onrejoin: noop, onadvance: noop } }).body;

  it('tells the step, the beat emphasised in a polite log', () => {
    const between = narration({});
    expect(between).toMatch(/role="log" aria-live="polite"/);
    expect(text(between)).toContain('The scheduler binds web-c68c68797-7rnvw to node-2.');
    expect(between).not.toContain('Return to the story');
    const body = narration({ beat: 'Nothing has run yet.' });
    expect(body).toContain('<strong>Nothing has run yet.</strong>');
    // A beat says itself: the step's own sentence is not repeated under it.
    expect(body).not.toContain('The scheduler binds');
    noInlineStyle(body);
  });

  it('says when the reader has left the story and offers the way back', () => {
    const body = narration({ beat: 'ignored', story: { ...view.story, diverged: true } });
    expect(text(body)).toContain('You have changed the cluster: the story no longer applies.');
    expect(body).toMatch(/<button[^>]*>Return to the story<\/button>/);
    expect(body).not.toContain('ignored');
  });

  it("announces the beat and rest, not the step's sentence nor what Next skipped", () => {
    const at = narration({
      beat: 'Rollout complete.',
      skipped: '4 min 10 s later (skipped: 12 heartbeats).',
      rest: 'The cluster matches what you asked for; nothing happens until you change something.',
    });
    const log = at.match(/<div[^>]*role="log"[^>]*>([\s\S]*?)<\/div>/)![1];
    expect(text(log)).toContain('Rollout complete.');
    expect(text(log)).toContain('nothing happens until you change something.');
    expect(log).not.toContain('4 min 10 s later');
    expect(text(at)).toContain('4 min 10 s later (skipped: 12 heartbeats).');
    const between = narration({ skipped: 'Every component lists what exists: 31 notifications.' });
    expect(between.match(/<div[^>]*role="log"[^>]*>([\s\S]*?)<\/div>/)![1]).not.toContain('binds');
    expect(text(between)).toContain('Every component lists what exists: 31 notifications. The scheduler binds');
    noInlineStyle(at);
  });

  it('keeps the place of "Advance 5 minutes": shown at rest, held but hidden otherwise', () => {
    const resting = narration({ rest: 'At rest.' });
    expect(tagWith(resting, 'kit-narration__advance')).toContain('data-shown="true"');
    expect(resting).toMatch(/<button[^>]*kit-narration__advance[^>]*>Advance 5 minutes<\/button>/);
    const busy = narration({});
    expect(tagWith(busy, 'kit-narration__advance')).toContain('data-shown="false"');
    expect(text(busy)).not.toContain('At rest.');
    expect(busy).toMatch(/<p class="kit-narration__rest[^"]*"><\/p>/);
  });
});

describe('LeavesOut and KeyboardHelp', () => {
  it('lists what the figure leaves out, closed by default', () => {
    const { body } = render(LeavesOut, { props: { items: ['No kube-proxy.', 'One container per pod.'] } });
    expect(body).toMatch(/<details class="[^"]*"[^>]*>\s*<summary>What this leaves out<\/summary>/);
    expect(body).not.toMatch(/<details[^>]* open/);
    expect(text(body)).toContain('No kube-proxy. One container per pod.');
    noInlineStyle(body);
  });

  it('lists the shared keymap', () => {
    const { body } = render(KeyboardHelp, { props: {} });
    expect(body).toContain('<summary>Keyboard</summary>');
    const t = text(body);
    expect(t).toContain('Space or K Play or pause');
    expect(t).toContain('← or J Step back');
    expect(t).toContain('N Next event that matters');
    expect(t).toContain('Home Reset');
    noInlineStyle(body);
  });
});
