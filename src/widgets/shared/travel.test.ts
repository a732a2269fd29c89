import { describe, expect, it } from 'vitest';
import { alongCurve, causeMarksOf, causeWords, edgePoint, sameBoxes, tripsOf, type Box } from './travel.ts';
import { boxesOf, roomOf, slotsOf, wireOf } from './wire.ts';
import type { StepRecord } from '../../sim/view/types.ts';

const rec = (seq: number, from: string, to: string, kind: StepRecord['kind'], label: string): StepRecord => ({
  seq,
  t: 0,
  kind,
  component: from,
  from: from as StepRecord['from'],
  to: to as StepRecord['to'],
  label,
  verb: '',
  path: '',
  object: null,
  revision: null,
  code: 200,
  heartbeat: false,
  sentence: '',
  cause: null,
});

const boxes = new Map<string, Box>([
  ['kube-apiserver', { x: 100, y: 0, width: 100, height: 40 }],
  ['kube-controller-manager', { x: 400, y: 0, width: 100, height: 40 }],
  ['kubelet/node-1', { x: 0, y: 200, width: 80, height: 40 }],
  ['kubelet/node-2', { x: 200, y: 200, width: 80, height: 40 }],
]);

describe('requests travelling on the canvas', () => {
  it("samples a marker's keyframes along the curve, from its start to its end, bending towards the control point", () => {
    const pts = alongCurve({ x: 0, y: 0 }, { x: 50, y: 40 }, { x: 100, y: 0 }, 4);
    expect(pts).toHaveLength(5);
    expect(pts[0]).toEqual({ x: 0, y: 0 });
    expect(pts[4]).toEqual({ x: 100, y: 0 });
    // Half-way along a symmetric curve: the middle in x, half the control point's height in y.
    expect(pts[2]).toEqual({ x: 50, y: 20 });
    expect(pts.map((p) => p.x)).toEqual([...pts.map((p) => p.x)].sort((a, b) => a - b));
  });

  it("each trip's keyframes start at its path's start and stop at its end", () => {
    const [t] = tripsOf([rec(1, 'kube-controller-manager', 'kube-apiserver', 'write', 'POST pods')], boxes);
    expect(t.points[0]).toEqual({
      x: Number(/^M([\d.]+)/.exec(t.d)![1]),
      y: Number(/^M[\d.]+ ([\d.]+)/.exec(t.d)![1]),
    });
    expect(t.points.at(-1)).toEqual(t.end);
  });

  it('leaves a box on its edge towards the other box', () => {
    expect(edgePoint({ x: 0, y: 0, width: 100, height: 40 }, { x: 50, y: 500 })).toEqual({ x: 50, y: 40 });
    expect(edgePoint({ x: 0, y: 0, width: 100, height: 40 }, { x: 500, y: 20 })).toEqual({ x: 100, y: 20 });
    expect(edgePoint({ x: 0, y: 0, width: 100, height: 40 }, { x: 50, y: 20 })).toEqual({ x: 50, y: 20 });
  });

  it('draws one trip per record from sender to receiver, and skips ends that have no box', () => {
    const trips = tripsOf(
      [
        rec(1, 'kube-controller-manager', 'kube-apiserver', 'write', 'POST pods'),
        rec(2, 'kube-apiserver', 'etcd', 'write', 'PUT'),
      ],
      boxes,
    );
    expect(trips).toHaveLength(1);
    expect(trips[0]).toMatchObject({ seq: 1, kind: 'write', end: { x: 200, y: 20 } });
    expect(trips[0].d).toMatch(/^M400 20Q[\d.-]+ [\d.-]+ 200 20$/);
  });

  it("groups a sender's notifications with one label into one burst that leaves together", () => {
    const trips = tripsOf(
      [
        rec(1, 'kube-apiserver', 'kubelet/node-1', 'watch', 'ADDED pods'),
        rec(2, 'kube-apiserver', 'kubelet/node-2', 'watch', 'ADDED pods'),
        rec(3, 'kube-apiserver', 'kube-controller-manager', 'watch', 'MODIFIED deployments'),
      ],
      boxes,
    );
    expect(trips.map((t) => t.burst)).toEqual([0, 0, 1]);
    // A burst's words ride on its first marker only, so a fan-out is labelled once.
    expect(trips.map((t) => t.label)).toEqual(['ADDED pods', null, 'MODIFIED deployments']);
  });

  it('bends a request and its reverse apart, so they never overlap', () => {
    const [there, back] = tripsOf(
      [
        rec(1, 'kube-apiserver', 'kubelet/node-2', 'watch', 'A'),
        rec(2, 'kubelet/node-2', 'kube-apiserver', 'write', 'B'),
      ],
      boxes,
    );
    const control = (d: string) =>
      d
        .match(/Q([\d.-]+) ([\d.-]+)/)!
        .slice(1)
        .map(Number);
    expect(control(there.d)).not.toEqual(control(back.d));
  });

  it('marks what woke a sender once per sender and cause: its box ringed, the route from the API server, the words below', () => {
    const cause = { seq: 7, label: 'ADDED replicasets', object: 'replicasets/default/web-c68c68797' };
    const marks = causeMarksOf(
      [
        { ...rec(10, 'kube-controller-manager', 'kube-apiserver', 'write', 'POST pods'), cause },
        { ...rec(11, 'kube-controller-manager', 'kube-apiserver', 'write', 'POST pods'), cause },
        {
          ...rec(12, 'kubelet/node-1', 'kube-apiserver', 'write', 'PATCH pods/status'),
          cause: { seq: 9, label: 'ADDED pods', object: 'pods/default/web-c68c68797-pjhzg' },
        },
        // No cause (a Lease renewal), or no box for the sender: nothing drawn.
        rec(13, 'kubelet/node-2', 'kube-apiserver', 'write', 'PUT leases'),
        { ...rec(14, 'kubectl', 'kube-apiserver', 'write', 'POST pods'), cause },
      ],
      boxes,
    );
    expect(marks.map((m) => [m.seq, m.endpoint, m.label])).toEqual([
      [7, 'kube-controller-manager', 'woken by ADDED rs/web-c68c68797'],
      [9, 'kubelet/node-1', 'woken by ADDED pod/web-c68c68797-pjhzg'],
    ]);
    // The route runs from the API server's box to the sender's, as the notification did.
    expect(marks[0].d).toMatch(/^M200 20Q[\d.-]+ [\d.-]+ 400 20$/);
    expect(marks[0].at).toEqual({ x: 402, y: 53 });
    expect(
      causeMarksOf(
        [{ ...rec(10, 'kube-controller-manager', 'kube-apiserver', 'write', 'POST pods'), cause }],
        new Map([['kube-controller-manager', boxes.get('kube-controller-manager')!]]),
      ),
    ).toEqual([]);
  });

  it("says a cause in kubectl's short names and cuts a long one", () => {
    expect(causeWords('MODIFIED deployments', 'deployments/default/web')).toBe('MODIFIED deploy/web');
    expect(causeWords('ADDED nodes', 'nodes/node-2')).toBe('ADDED node/node-2');
    expect(causeWords('BOOKMARK pods', null)).toBe('BOOKMARK pods');
    expect(causeWords('BOOKMARK pods', 'pods/undefined')).toBe('BOOKMARK pods');
    const [m] = causeMarksOf(
      [
        {
          ...rec(1, 'kube-controller-manager', 'kube-apiserver', 'write', 'POST pods'),
          cause: {
            seq: 0,
            label: 'MODIFIED replicasets',
            object: 'replicasets/default/a-very-long-replicaset-name-7d9c5b',
          },
        },
      ],
      boxes,
    );
    expect(m.label).toBe('woken by MODIFIED rs/a-very-long-repli…');
    expect(m.title).toBe('woken by MODIFIED rs/a-very-long-replicaset-name-7d9c5b');
  });
});

describe("the requests' line under a figure's own panel", () => {
  it('puts the API server in the middle, the senders on its left and the ends it tells on its right', () => {
    const w = wireOf([
      rec(1, 'kube-controller-manager', 'kube-apiserver', 'write', 'POST pods'),
      rec(2, 'kube-apiserver', 'scheduler', 'watch', 'ADDED pods'),
      rec(3, 'kube-apiserver', 'kube-controller-manager', 'watch', 'ADDED pods'),
    ]);
    expect(w.left.map((e) => e.id)).toEqual(['kube-controller-manager']);
    expect(w.right.map((e) => e.id)).toEqual(['scheduler']);
    expect(w.records.map((r) => [r.from, r.to])).toEqual([
      ['kube-controller-manager', 'kube-apiserver'],
      ['kube-apiserver', 'scheduler'],
      ['kube-apiserver', 'kube-controller-manager'],
    ]);
  });

  it('names the one controller that sends, not the manager that hosts it', () => {
    const r = {
      ...rec(1, 'kube-controller-manager', 'kube-apiserver', 'write', 'POST replicasets'),
      component: 'deployment-controller',
    };
    expect(wireOf([r]).left[0]).toEqual({
      id: 'kube-controller-manager',
      name: 'deployment-controller',
      title: 'deployment-controller, in kube-controller-manager',
    });
    const two = [r, { ...r, seq: 2, component: 'replicaset-controller' }];
    expect(wireOf(two).left[0].name).toBe('kube-controller-manager');
  });

  it('gathers a side\'s ends past its room into one "+N" end, and the requests still reach it', () => {
    const fan = [
      rec(1, 'kubectl', 'kube-apiserver', 'write', 'PATCH deployments'),
      ...['scheduler', 'kube-controller-manager', 'kubelet/node-1', 'kubelet/node-2', 'kubelet/node-3'].map((to, i) =>
        rec(i + 2, 'kube-apiserver', to, 'watch', 'MODIFIED deployments'),
      ),
    ];
    const w = wireOf(fan);
    expect(w.right.map((e) => e.name)).toEqual(['scheduler', 'kube-controller-manager', '+3']);
    expect(w.right[2]).toEqual({
      id: 'wire:right',
      name: '+3',
      title: 'kubelet/node-1, kubelet/node-2, kubelet/node-3',
    });
    expect(w.records.filter((r) => (r.to as string) === 'wire:right')).toHaveLength(3);
    // Every record keeps a drawn end at both sides: each travels.
    const drawn = new Set(['kube-apiserver', ...w.left.map((e) => e.id), ...w.right.map((e) => e.id)]);
    for (const r of w.records) expect(drawn.has(r.from) && drawn.has(r.to)).toBe(true);
  });

  it('a step without requests has the API server alone', () => {
    expect(wireOf([])).toEqual({ left: [], right: [], records: [] });
  });

  it('a flat strip bends its paths no further than it is told', () => {
    const flat = new Map<string, Box>([
      ['kubectl', { x: 0, y: 30, width: 60, height: 20 }],
      ['kube-apiserver', { x: 300, y: 30, width: 100, height: 20 }],
    ]);
    const [t] = tripsOf([rec(1, 'kubectl', 'kube-apiserver', 'write', 'PATCH deployments')], flat, 6);
    for (const p of t.points) expect(Math.abs(p.y - 40)).toBeLessThanOrEqual(6);
  });

  it('tells a moved or resized box from the same layout', () => {
    const a = new Map<string, Box>([['etcd', { x: 1, y: 2, width: 3, height: 4 }]]);
    expect(sameBoxes(a, new Map([['etcd', { x: 1.2, y: 2, width: 3, height: 4 }]]))).toBe(true);
    expect(sameBoxes(a, new Map([['etcd', { x: 1, y: 9, width: 3, height: 4 }]]))).toBe(false);
    expect(
      sameBoxes(
        a,
        new Map([
          ['etcd', { x: 1, y: 2, width: 3, height: 4 }],
          ['scheduler', { x: 0, y: 0, width: 1, height: 1 }],
        ]),
      ),
    ).toBe(false);
    // Only the boxes a step's trips use: another box may move, or come and go.
    const moved = new Map([
      ['etcd', { x: 1, y: 2, width: 3, height: 4 }],
      ['scheduler', { x: 0, y: 50, width: 1, height: 1 }],
    ]);
    expect(sameBoxes(a, moved, new Set(['etcd']))).toBe(true);
    expect(sameBoxes(a, moved, new Set(['etcd', 'scheduler']))).toBe(false);
    expect(
      sameBoxes(moved, new Map([['etcd', { x: 1, y: 2, width: 3, height: 4 }]]), new Set(['etcd', 'kube-apiserver'])),
    ).toBe(true);
  });
});

describe("the line's fixed slots", () => {
  it('puts the left ends from the left, the API server third, the right ends against the right edge', () => {
    const w = wireOf([
      rec(1, 'kubectl', 'kube-apiserver', 'write', 'PATCH deployments'),
      rec(2, 'kube-apiserver', 'kube-controller-manager', 'watch', 'MODIFIED deployments'),
    ]);
    expect([...slotsOf(w)]).toEqual([
      ['kubectl', 0],
      ['kube-apiserver', 2],
      ['kube-controller-manager', 5],
    ]);
  });

  it("computes each slot's box as the grid lays it out: equal columns between the padding, a gap apart", () => {
    const b = boxesOf(
      new Map([
        ['kubectl', 0],
        ['kube-apiserver', 2],
        ['etcd', 5],
      ]),
      656,
    );
    // (656 − 16 − 40) / 6 = 100 px a column.
    expect(b.get('kubectl')).toEqual({ x: 8, y: 20, width: 100, height: 20 });
    expect(b.get('kube-apiserver')).toEqual({ x: 224, y: 20, width: 100, height: 20 });
    expect(b.get('etcd')).toEqual({ x: 548, y: 20, width: 100, height: 20 });
  });

  it('on a phone, three slots: one sender, the API server, and one end (or "+N") for those told', () => {
    const room = roomOf(330);
    expect(room).toEqual({ slots: 3, hub: 1, left: 1, right: 1, weights: [1, 1.25, 1] });
    const w = wireOf(
      [
        rec(1, 'kube-controller-manager', 'kube-apiserver', 'write', 'POST pods'),
        rec(2, 'kube-apiserver', 'scheduler', 'watch', 'ADDED pods'),
        rec(3, 'kube-apiserver', 'kubelet/node-1', 'watch', 'ADDED pods'),
      ],
      room,
    );
    expect(w.right.map((e) => e.name)).toEqual(['+2']);
    expect([...slotsOf(w, room)]).toEqual([
      ['kube-controller-manager', 0],
      ['kube-apiserver', 1],
      ['wire:right', 2],
    ]);
    // (330 − 16 − 16) / 3.25 ≈ 91.7 px a unit: the middle column a quarter wider.
    const b = boxesOf(slotsOf(w, room), 330);
    expect(b.get('kube-apiserver')!.width).toBeCloseTo((1.25 * 298) / 3.25, 5);
    expect(b.get('wire:right')!.x).toBeCloseTo(8 + 2.25 * (298 / 3.25) + 16, 5);
    expect(b.get('wire:right')!.x + b.get('wire:right')!.width).toBeCloseTo(330 - 8, 5);
  });
});
