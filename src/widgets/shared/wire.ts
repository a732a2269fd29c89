// The requests' line under a figure's own panel: which ends of this step's requests it draws, and
// where (the API server in the middle). Pure, so it is tested without a browser.
import type { StepRecord } from '../../sim/view/types.ts';
import type { Box } from './travel.ts';

/** One end drawn on the wire: an endpoint (or the ones that did not fit, as "+N"), its words and its whole name. */
interface WireEnd {
  id: string;
  name: string;
  title: string;
}

/** The API server: the wire's middle, as it is the middle of every request. */
const HUB = 'kube-apiserver';

/**
 * The ends of this step's requests laid along one line, for a figure's own panel: the API server in
 * the middle, the ends that send first on its left (two at most), those that only receive on its right (three) (a write's
 * watchers fan out there). Past `max` ends a side keeps max − 1 and one "+N" end stands for the rest;
 * the records are returned with their ends mapped to what is drawn, so each still travels.
 */
export function wireOf(
  records: readonly StepRecord[],
  max: { left: number; right: number } = { left: 2, right: 3 },
): { left: WireEnd[]; right: WireEnd[]; records: StepRecord[] } {
  const left: string[] = [];
  const right: string[] = [];
  for (const r of records) {
    if (r.from !== HUB && !left.includes(r.from) && !right.includes(r.from)) left.push(r.from);
    if (r.to !== HUB && !left.includes(r.to) && !right.includes(r.to)) right.push(r.to);
  }
  const moved = new Map<string, string>();
  const side = (ids: string[], n: number, more: string): WireEnd[] => {
    const keep = ids.length > n ? ids.slice(0, n - 1) : ids;
    const ends = keep.map((id) => endOf(id, records));
    const rest = ids.slice(keep.length);
    for (const id of rest) moved.set(id, more);
    if (rest.length > 0) ends.push({ id: more, name: `+${rest.length}`, title: rest.join(', ') });
    return ends;
  };
  const l = side(left, max.left, 'wire:left');
  const rt = side(right, max.right, 'wire:right');
  const mapped = records.map((r) =>
    moved.has(r.from) || moved.has(r.to)
      ? {
          ...r,
          from: (moved.get(r.from) ?? r.from) as StepRecord['from'],
          to: (moved.get(r.to) ?? r.to) as StepRecord['to'],
        }
      : r,
  );
  return { left: l, right: rt, records: mapped };
}

/** An end's words: the controller itself when one controller of kube-controller-manager sends all it sends this step. */
function endOf(id: string, records: readonly StepRecord[]): WireEnd {
  if (id === 'kube-controller-manager') {
    const names = [...new Set(records.filter((r) => r.from === id).map((r) => r.component))];
    if (names.length === 1 && names[0] !== id)
      return { id, name: names[0], title: `${names[0]}, in kube-controller-manager` };
  }
  return { id, name: id, title: id };
}

/** The wire's geometry in px, as its stylesheet lays it out (RequestWire.svelte): equal slots in a row. */
const WIRE = { pad: 8, gap: 8, height: 44, end: 20, bottom: 4 } as const;

/** How many ends a wire of a width has room for: six slots (two senders, the API server, three told), or three on a phone, whose middle is wider so "kube-apiserver" fits. */
export function roomOf(width: number): { slots: number; hub: number; left: number; right: number; weights: number[] } {
  return width < 520
    ? { slots: 3, hub: 1, left: 1, right: 1, weights: [1, 1.25, 1] }
    : { slots: 6, hub: 2, left: 2, right: 3, weights: [1, 1, 1, 1, 1, 1] };
}

/** The slot each drawn end sits in: the left ends from the left, then the API server, the right ends against the right edge. */
export function slotsOf(wire: { left: WireEnd[]; right: WireEnd[] }, room = roomOf(Infinity)): Map<string, number> {
  const slots = new Map<string, number>(wire.left.map((e, i) => [e.id, i]));
  slots.set(HUB, room.hub);
  wire.right.forEach((e, i) => slots.set(e.id, room.slots - wire.right.length + i));
  return slots;
}

/**
 * Where each end's box is on a wire `width` px wide whose columns have these weights (as the grid's
 * `fr`s), computed from the stylesheet's numbers instead of measured, so a step draws its travel
 * without laying the page out a second time.
 */
export function boxesOf(
  slots: ReadonlyMap<string, number>,
  width: number,
  weights = roomOf(width).weights,
): Map<string, Box> {
  const unit = (width - 2 * WIRE.pad - (weights.length - 1) * WIRE.gap) / weights.reduce((a, b) => a + b, 0);
  const y = WIRE.height - WIRE.bottom - WIRE.end;
  const x = (i: number) => WIRE.pad + weights.slice(0, i).reduce((a, w) => a + w * unit + WIRE.gap, 0);
  return new Map([...slots].map(([id, i]) => [id, { x: x(i), y, width: weights[i] * unit, height: WIRE.end }]));
}
