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
export function alongCurve(p: { x: number; y: number }, c: { x: number; y: number }, q: { x: number; y: number }, n = 12): { x: number; y: number }[] {
  return Array.from({ length: n + 1 }, (_, i) => {
    const t = i / n;
    const u = 1 - t;
    return { x: round(u * u * p.x + 2 * u * t * c.x + t * t * q.x), y: round(u * u * p.y + 2 * u * t * c.y + t * t * q.y) };
  });
}

/**
 * The trips of a step's records over the boxes by endpoint id. Records whose sender or receiver has
 * no box (a component drawn elsewhere) are left out. Each path is a quadratic curve bent to the left
 * of its direction, so a request and a reply between the same two boxes do not overlap.
 */
export function tripsOf(records: readonly StepRecord[], boxes: ReadonlyMap<string, Box>): Trip[] {
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
    const bend = Math.min(40, len / 5);
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
