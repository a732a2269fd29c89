// Where this step's requests travel on the canvas: one path per record from its sender's box to its
// receiver's, bent so that a request and its answer's direction stay apart, and the notifications one
// sender sends with one label grouped as a single burst (a write's fan-out to its watchers leaves
// together). Pure geometry over the boxes' rectangles, so it is tested without a browser.
import type { StepRecord } from '../../sim/view/types.ts';

/** A box's place on the canvas, in the canvas's own coordinates (px). */
export interface Box {
  x: number;
  y: number;
  width: number;
  height: number;
}

/** One request drawn travelling: its path and where it belongs. */
export interface Trip {
  seq: number;
  kind: StepRecord['kind'];
  /** SVG path data from the sender's edge to the receiver's. */
  d: string;
  /** The point it arrives at (where a reduced-motion marker sits). */
  end: { x: number; y: number };
  /** Points along the path, start to end, evenly spaced in the curve's parameter: the marker's keyframes. */
  points: { x: number; y: number }[];
  /** Trips of one burst (a sender's notifications with one label) share it, and leave together. */
  burst: number;
  /** What the marker says to a pointer: "PATCH deployments/web → kube-apiserver". */
  title: string;
  /** The words it carries on the canvas ("PATCH deployments"): the first trip of each burst only, else null. */
  label: string | null;
}

/** The point where the segment from a box's centre towards `to` leaves the box. */
export function edgePoint(b: Box, to: { x: number; y: number }): { x: number; y: number } {
  const cx = b.x + b.width / 2;
  const cy = b.y + b.height / 2;
  const dx = to.x - cx;
  const dy = to.y - cy;
  if (dx === 0 && dy === 0) return { x: cx, y: cy };
  // Scale the direction to the box's half-size along whichever axis it reaches first.
  const sx = dx === 0 ? Infinity : b.width / 2 / Math.abs(dx);
  const sy = dy === 0 ? Infinity : b.height / 2 / Math.abs(dy);
  const s = Math.min(sx, sy);
  return { x: round(cx + dx * s), y: round(cy + dy * s) };
}

const round = (n: number) => Math.round(n * 10) / 10;

/** Points sampled along the quadratic curve p → (control c) → q, both ends included. */
export function alongCurve(
  p: { x: number; y: number },
  c: { x: number; y: number },
  q: { x: number; y: number },
  n = 12,
): { x: number; y: number }[] {
  return Array.from({ length: n + 1 }, (_, i) => {
    const t = i / n;
    const u = 1 - t;
    return {
      x: round(u * u * p.x + 2 * u * t * c.x + t * t * q.x),
      y: round(u * u * p.y + 2 * u * t * c.y + t * t * q.y),
    };
  });
}

/**
 * The trips of a step's records over the boxes by endpoint id. Records whose sender or receiver has
 * no box (a component drawn elsewhere) are left out. Each path is a quadratic curve bent to the left
 * of its direction, so a request and a reply between the same two boxes do not overlap.
 */
export function tripsOf(records: readonly StepRecord[], boxes: ReadonlyMap<string, Box>, maxBend = 40): Trip[] {
  const trips: Trip[] = [];
  const bursts = new Map<string, number>();
  for (const r of records) {
    const a = boxes.get(r.from);
    const b = boxes.get(r.to);
    if (!a || !b || r.from === r.to) continue;
    const ca = { x: a.x + a.width / 2, y: a.y + a.height / 2 };
    const cb = { x: b.x + b.width / 2, y: b.y + b.height / 2 };
    const p = edgePoint(a, cb);
    const q = edgePoint(b, ca);
    const mx = (p.x + q.x) / 2;
    const my = (p.y + q.y) / 2;
    const len = Math.hypot(q.x - p.x, q.y - p.y) || 1;
    const bend = Math.min(maxBend, len / 5);
    const c = { x: round(mx - ((q.y - p.y) / len) * bend), y: round(my + ((q.x - p.x) / len) * bend) };
    const key = `${r.from}\0${r.kind}\0${r.label}`;
    const first = !bursts.has(key);
    if (first) bursts.set(key, bursts.size);
    trips.push({
      seq: r.seq,
      kind: r.kind,
      d: `M${p.x} ${p.y}Q${c.x} ${c.y} ${q.x} ${q.y}`,
      end: q,
      points: alongCurve(p, c, q),
      burst: bursts.get(key)!,
      title: `${r.label} ${r.from} → ${r.to}`,
      label: first ? r.label : null,
    });
  }
  return trips;
}

/** The notification that woke a sender whose writes leave this step, drawn where it arrived. */
export interface CauseMark {
  /** The notification's seq (its row in the request log). */
  seq: number;
  /** The sender it woke. */
  endpoint: string;
  /** The sender's box: ringed while its writes leave. */
  box: Box;
  /** The notification's route, from the API server's box to the sender's (drawn dashed, as a watch is). */
  d: string;
  /** Where the words sit (below the sender's box). */
  at: { x: number; y: number };
  /** "woken by ADDED rs/web-c68c68797". */
  label: string;
  /** The same, whole (the label may cut a long name). */
  title: string;
}

const SHORT: Record<string, string> = {
  replicasets: 'rs',
  deployments: 'deploy',
  services: 'svc',
  endpointslices: 'endpointslice',
  pods: 'pod',
  nodes: 'node',
};

/** "ADDED rs/web-c68c68797" for a notification's label and object (`replicasets/default/web-c68c68797`). */
export function causeWords(label: string, object: string | null): string {
  const event = label.slice(0, label.indexOf(' '));
  const parts = (object ?? label.slice(event.length + 1)).split('/');
  const name = parts.length > 1 ? parts[parts.length - 1] : '';
  // A bookmark names no object (its name reads "undefined"): the resource alone.
  if (!name || name === 'undefined') return `${event} ${parts[0]}`;
  return `${event} ${SHORT[parts[0]] ?? parts[0]}/${name}`;
}

/**
 * One mark per sender and cause among this step's writes and CRI calls that carry a cause: what
 * woke the sender (a controller's write, the scheduler's binding, a kubelet's sandbox). Senders or an
 * API server with no box are left out.
 */
export function causeMarksOf(records: readonly StepRecord[], boxes: ReadonlyMap<string, Box>): CauseMark[] {
  const api = boxes.get('kube-apiserver');
  const marks: CauseMark[] = [];
  if (!api) return marks;
  for (const r of records) {
    const c = r.cause;
    const box = boxes.get(r.from);
    if (!c || !box || r.from === 'kube-apiserver' || marks.some((m) => m.seq === c.seq && m.endpoint === r.from))
      continue;
    const [trip] = tripsOf([{ ...r, from: 'kube-apiserver', to: r.from }], boxes);
    const words = causeWords(c.label, c.object);
    // A long name is cut: the box is small, and the request log has it whole.
    const label = `woken by ${words.length > 30 ? words.slice(0, 29) + '…' : words}`;
    marks.push({
      seq: c.seq,
      endpoint: r.from,
      box,
      d: trip.d,
      at: { x: round(box.x + 2), y: round(box.y + box.height + 13) },
      label,
      title: `woken by ${words}`,
    });
  }
  return marks;
}

/**
 * Whether two measurements put the boxes in the same place (to the pixel): every box, or only
 * those named in `only` (the ends a step's trips are drawn between; a box nothing travels to may move freely).
 */
export function sameBoxes(
  a: ReadonlyMap<string, Box>,
  b: ReadonlyMap<string, Box>,
  only?: ReadonlySet<string>,
): boolean {
  if (!only && a.size !== b.size) return false;
  for (const id of only ?? a.keys()) {
    const x = a.get(id);
    const y = b.get(id);
    if (!x || !y) {
      if (x !== y) return false;
      continue;
    }
    if (
      Math.round(x.x) !== Math.round(y.x) ||
      Math.round(x.y) !== Math.round(y.y) ||
      Math.round(x.width) !== Math.round(y.width) ||
      Math.round(x.height) !== Math.round(y.height)
    )
      return false;
  }
  return true;
}
