import { describe, expect, it } from 'vitest';
import { alongCurve, causeMarksOf, causeWords, edgePoint, tripsOf, type Box } from './travel.ts';
import type { StepRecord } from '../../sim/view/types.ts';

const rec = (seq: number, from: string, to: string, kind: StepRecord['kind'], label: string): StepRecord => ({
  seq, t: 0, kind, component: from, from: from as StepRecord['from'], to: to as StepRecord['to'], label, verb: '', path: '', object: null, revision: null, code: 200, heartbeat: false, sentence: '', cause: null,
});

const boxes = new Map<string, Box>([
  ['kube-apiserver', { x: 100, y: 0, width: 100, height: 40 }],
  ['kube-controller-manager', { x: 400, y: 0, width: 100, height: 40 }],
  ['kubelet/node-1', { x: 0, y: 200, width: 80, height: 40 }],
  ['kubelet/node-2', { x: 200, y: 200, width: 80, height: 40 }],
]);

describe('requests travelling on the canvas', () => {
  it('samples a marker\'s keyframes along the curve, from its start to its end, bending towards the control point', () => {
    const pts = alongCurve({ x: 0, y: 0 }, { x: 50, y: 40 }, { x: 100, y: 0 }, 4);
    expect(pts).toHaveLength(5);
    expect(pts[0]).toEqual({ x: 0, y: 0 });
    expect(pts[4]).toEqual({ x: 100, y: 0 });
    // Half-way along a symmetric curve: the middle in x, half the control point's height in y.
    expect(pts[2]).toEqual({ x: 50, y: 20 });
    expect(pts.map((p) => p.x)).toEqual([...pts.map((p) => p.x)].sort((a, b) => a - b));
  });

  it('each trip\'s keyframes start at its path\'s start and stop at its end', () => {
    const [t] = tripsOf([rec(1, 'kube-controller-manager', 'kube-apiserver', 'write', 'POST pods')], boxes);
    expect(t.points[0]).toEqual({ x: Number(/^M([\d.]+)/.exec(t.d)![1]), y: Number(/^M[\d.]+ ([\d.]+)/.exec(t.d)![1]) });
    expect(t.points.at(-1)).toEqual(t.end);
  });

  it('leaves a box on its edge towards the other box', () => {
    expect(edgePoint({ x: 0, y: 0, width: 100, height: 40 }, { x: 50, y: 500 })).toEqual({ x: 50, y: 40 });
    expect(edgePoint({ x: 0, y: 0, width: 100, height: 40 }, { x: 500, y: 20 })).toEqual({ x: 100, y: 20 });
    expect(edgePoint({ x: 0, y: 0, width: 100, height: 40 }, { x: 50, y: 20 })).toEqual({ x: 50, y: 20 });
  });

  it('draws one trip per record from sender to receiver, and skips ends that have no box', () => {
    const trips = tripsOf([rec(1, 'kube-controller-manager', 'kube-apiserver', 'write', 'POST pods'), rec(2, 'kube-apiserver', 'etcd', 'write', 'PUT')], boxes);
    expect(trips).toHaveLength(1);
    expect(trips[0]).toMatchObject({ seq: 1, kind: 'write', end: { x: 200, y: 20 } });
    expect(trips[0].d).toMatch(/^M400 20Q[\d.-]+ [\d.-]+ 200 20$/);
  });

  it('groups a sender\'s notifications with one label into one burst that leaves together', () => {
    const trips = tripsOf([
      rec(1, 'kube-apiserver', 'kubelet/node-1', 'watch', 'ADDED pods'),
      rec(2, 'kube-apiserver', 'kubelet/node-2', 'watch', 'ADDED pods'),
      rec(3, 'kube-apiserver', 'kube-controller-manager', 'watch', 'MODIFIED deployments'),
    ], boxes);
    expect(trips.map((t) => t.burst)).toEqual([0, 0, 1]);
    // A burst's words ride on its first marker only, so a fan-out is labelled once.
    expect(trips.map((t) => t.label)).toEqual(['ADDED pods', null, 'MODIFIED deployments']);
  });

  it('bends a request and its reverse apart, so they never overlap', () => {
    const [there, back] = tripsOf([rec(1, 'kube-apiserver', 'kubelet/node-2', 'watch', 'A'), rec(2, 'kubelet/node-2', 'kube-apiserver', 'write', 'B')], boxes);
    const control = (d: string) => d.match(/Q([\d.-]+) ([\d.-]+)/)!.slice(1).map(Number);
    expect(control(there.d)).not.toEqual(control(back.d));
  });

  it('marks what woke a sender once per sender and cause: its box ringed, the route from the API server, the words below', () => {
    const cause = { seq: 7, label: 'ADDED replicasets', object: 'replicasets/default/web-c68c68797' };
    const marks = causeMarksOf([
      { ...rec(10, 'kube-controller-manager', 'kube-apiserver', 'write', 'POST pods'), cause },
      { ...rec(11, 'kube-controller-manager', 'kube-apiserver', 'write', 'POST pods'), cause },
      { ...rec(12, 'kubelet/node-1', 'kube-apiserver', 'write', 'PATCH pods/status'), cause: { seq: 9, label: 'ADDED pods', object: 'pods/default/web-c68c68797-pjhzg' } },
      // No cause (a Lease renewal), or no box for the sender: nothing drawn.
      rec(13, 'kubelet/node-2', 'kube-apiserver', 'write', 'PUT leases'),
      { ...rec(14, 'kubectl', 'kube-apiserver', 'write', 'POST pods'), cause },
    ], boxes);
    expect(marks.map((m) => [m.seq, m.endpoint, m.label])).toEqual([
      [7, 'kube-controller-manager', 'woken by ADDED rs/web-c68c68797'],
      [9, 'kubelet/node-1', 'woken by ADDED pod/web-c68c68797-pjhzg'],
    ]);
    // The route runs from the API server's box to the sender's, as the notification did.
    expect(marks[0].d).toMatch(/^M200 20Q[\d.-]+ [\d.-]+ 400 20$/);
    expect(marks[0].at).toEqual({ x: 402, y: 53 });
    expect(causeMarksOf([{ ...rec(10, 'kube-controller-manager', 'kube-apiserver', 'write', 'POST pods'), cause }], new Map([['kube-controller-manager', boxes.get('kube-controller-manager')!]]))).toEqual([]);
  });

  it('says a cause in kubectl\'s short names and cuts a long one', () => {
    expect(causeWords('MODIFIED deployments', 'deployments/default/web')).toBe('MODIFIED deploy/web');
    expect(causeWords('ADDED nodes', 'nodes/node-2')).toBe('ADDED node/node-2');
    expect(causeWords('BOOKMARK pods', null)).toBe('BOOKMARK pods');
    expect(causeWords('BOOKMARK pods', 'pods/undefined')).toBe('BOOKMARK pods');
    const [m] = causeMarksOf([{ ...rec(1, 'kube-controller-manager', 'kube-apiserver', 'write', 'POST pods'), cause: { seq: 0, label: 'MODIFIED replicasets', object: 'replicasets/default/a-very-long-replicaset-name-7d9c5b' } }], boxes);
    expect(m.label).toBe('woken by MODIFIED rs/a-very-long-repli…');
    expect(m.title).toBe('woken by MODIFIED rs/a-very-long-replicaset-name-7d9c5b');
  });
});
