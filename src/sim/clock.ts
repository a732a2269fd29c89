// Discrete-event clock: a binary min-heap of plain-data entries ordered by (at, seq).
// The heap lives in the world state, so a snapshot captures every pending event.

/** One queued event: delivered to component `target` at simulated ms `at`; `seq` breaks ties. */
export interface QueueEntry<E = unknown> {
  at: number;
  seq: number;
  target: string;
  event: E;
  /** A recurring timer (heartbeat, resync); `settle()` ignores these when deciding quiescence. */
  recurring?: boolean;
}

/** The event queue as plain data. */
export interface EventQueue<E = unknown> {
  heap: QueueEntry<E>[];
  nextSeq: number;
  /** Number of queued entries that are not recurring (kept so quiescence is O(1)). */
  pending: number;
}

/** An empty queue. */
export function createQueue<E = unknown>(): EventQueue<E> {
  return { heap: [], nextSeq: 0, pending: 0 };
}

function less(a: QueueEntry<unknown>, b: QueueEntry<unknown>): boolean {
  return a.at < b.at || (a.at === b.at && a.seq < b.seq);
}

/** Queue `event` for `target` at time `at`; returns the entry. */
export function push<E>(q: EventQueue<E>, at: number, target: string, event: E, recurring = false): QueueEntry<E> {
  const entry: QueueEntry<E> = { at, seq: q.nextSeq++, target, event };
  if (recurring) entry.recurring = true;
  else q.pending++;
  const h = q.heap;
  h.push(entry);
  // Sift with a hole instead of swaps: the same final layout, half the writes and no temporaries.
  let i = h.length - 1;
  while (i > 0) {
    const p = (i - 1) >> 1;
    if (!less(entry, h[p])) break;
    h[i] = h[p];
    i = p;
  }
  h[i] = entry;
  return entry;
}

/** The next entry without removing it. */
export function peek<E>(q: EventQueue<E>): QueueEntry<E> | undefined {
  return q.heap[0];
}

/** Remove and return the earliest entry. */
export function pop<E>(q: EventQueue<E>): QueueEntry<E> | undefined {
  const h = q.heap;
  if (h.length === 0) return undefined;
  const top = h[0];
  const last = h.pop()!;
  if (h.length > 0) {
    // `last` conceptually sits at i; move the smaller child up until it fits (same layout as swapping).
    let i = 0;
    const n = h.length;
    for (;;) {
      const l = 2 * i + 1;
      const r = l + 1;
      let m = last;
      let mi = i;
      if (l < n && less(h[l], m)) {
        m = h[l];
        mi = l;
      }
      if (r < n && less(h[r], m)) {
        m = h[r];
        mi = r;
      }
      if (mi === i) break;
      h[i] = m;
      i = mi;
    }
    h[i] = last;
  }
  if (!top.recurring) q.pending--;
  return top;
}

/** Number of queued entries. */
export function size(q: EventQueue<unknown>): number {
  return q.heap.length;
}

/** Drop every entry the predicate matches (a component removed from the world); keeps heap order. */
export function removeWhere<E>(q: EventQueue<E>, pred: (e: QueueEntry<E>) => boolean): number {
  const kept = q.heap.filter((e) => !pred(e));
  const removed = q.heap.length - kept.length;
  if (removed === 0) return 0;
  // A sorted array is a valid min-heap.
  kept.sort((a, b) => a.at - b.at || a.seq - b.seq);
  q.heap = kept;
  q.pending = kept.reduce((n, e) => n + (e.recurring ? 0 : 1), 0);
  return removed;
}
