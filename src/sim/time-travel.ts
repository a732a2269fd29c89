// Time travel over a cluster, in the style of raftscope's state.js (seek, rewind, fork): a Timeline
// records a run as it goes (the inputs, the step boundaries a figure shows, and a snapshot every K
// events or T simulated ms, thinned as they age), and moves the cluster to any recorded step by
// restoring the nearest snapshot at or before it and replaying forward. Replay is exact because the
// world records every input with the number of events processed before it.
import type { Cluster } from './cluster.ts';
import { peek } from './clock.ts';
import { logCount, type Input, type WorldState } from './world.ts';

/** Tuning of a timeline: snapshot spacing, thinning and the forward-run limits. */
interface TimelineOptions {
  /** A snapshot is due after this many events since the previous one (default 64). */
  everyEvents?: number;
  /** … or after this many simulated ms (default 30 000). */
  everyMs?: number;
  /** Snapshots kept at full density next to the tip and next to the cursor (default 8); further away every 2ⁿ-th is kept. */
  dense?: number;
  /** Silent events (no log record) folded into one step before the step is cut anyway (default 10 000). */
  maxSilentEvents?: number;
  /** The run never goes past this many events in total (a budget against hostile replays; default unlimited). */
  maxEvents?: number;
}

/** Where the timeline stands: what a figure's step counter and clock show. */
interface Position {
  /** Step index (0 = the cluster as the timeline found it). */
  step: number;
  /** The last recorded step (the timeline's length − 1). */
  last: number;
  /** Events the world has processed. */
  events: number;
  /** Simulated ms. */
  t: number;
  /** Records written to the request log so far (dropped ones included; see WorldState.logLimit). */
  logLength: number;
  /** Inputs applied so far (the world's own count, construction included). */
  inputs: number;
  /** Whether the cursor is at the last recorded step (new inputs extend rather than fork). */
  atEnd: boolean;
}

/** How a step ended: one event that wrote to the request log, one input, or the start. */
type StepKind = 'start' | 'event' | 'input';

/** The recorded boundaries as parallel arrays of numbers (plain data, cheap per step). */
interface Bounds {
  /** Events processed at the boundary. */
  events: number[];
  /** Inputs applied at the boundary (an index into `inputs`). */
  inputs: number[];
  /** Simulated ms at the boundary. */
  t: number[];
  /** Request-log records written by the boundary (logCount): a step's records are those between two boundaries. */
  log: number[];
}

/** A timeline's recorded data, all plain (the world states are the world's own snapshots). */
interface TimelineData {
  /** Every input of the run, including the future after the cursor (the world holds the prefix). */
  inputs: Input[];
  bounds: Bounds;
  /** Step indexes at which a snapshot is due (every K events or T ms along the run). */
  slots: number[];
  /** Snapshot per slot, null where thinned out. */
  snaps: (WorldState | null)[];
  /** The cursor's step index. */
  cur: number;
}

const DEFAULTS: Required<TimelineOptions> = {
  everyEvents: 64,
  everyMs: 30_000,
  dense: 8,
  maxSilentEvents: 10_000,
  maxEvents: Infinity,
};

/**
 * A recorded run of one cluster that can be stepped, rewound, sought and forked. Drive the cluster's
 * time through the timeline (`step`, `advance`, `seek`); make inputs on the cluster directly (kubectl,
 * faults) or through `apply`: the timeline picks them up before it moves, and an input made while
 * the cursor is in the past discards the future, like a browser history.
 */
export class Timeline {
  /** The cluster being driven (its world's state is replaced on rewind). */
  readonly cluster: Cluster;
  /** Recorded data (plain). */
  readonly data: TimelineData;
  private readonly opts: Required<TimelineOptions>;
  /** The world has run past the last boundary (silent events, idle time) along the recorded path. */
  private beyond = false;

  /** Start recording at the cluster's present state (step 0). */
  constructor(cluster: Cluster, opts: TimelineOptions = {}) {
    this.cluster = cluster;
    this.opts = { ...DEFAULTS, ...opts };
    const w = cluster.world.state;
    this.data = {
      inputs: w.inputs.slice(),
      bounds: { events: [w.steps], inputs: [w.inputs.length], t: [w.now], log: [logCount(w)] },
      slots: [0],
      snaps: [cluster.world.snapshot()],
      cur: 0,
    };
  }

  private get w(): WorldState {
    return this.cluster.world.state;
  }
  private get lastIdx(): number {
    return this.data.bounds.events.length - 1;
  }

  /** Where the cursor is: step index, events, simulated time, log length. */
  at(): Position {
    this.sync();
    const w = this.w;
    return {
      step: this.data.cur,
      last: this.lastIdx,
      events: w.steps,
      t: w.now,
      logLength: logCount(w),
      inputs: w.inputs.length,
      atEnd: this.data.cur === this.lastIdx,
    };
  }

  /** Number of recorded steps (last index + 1). */
  get length(): number {
    return this.data.bounds.events.length;
  }

  /** Snapshots currently held (bounded: dense near the tip and the cursor, every 2ⁿ-th further away). */
  get snapshotCount(): number {
    return this.data.snaps.reduce((n, s) => n + (s ? 1 : 0), 0);
  }

  /** What ended step i: the start, an event that wrote to the log, or an input. */
  kindOf(i: number): StepKind {
    const b = this.data.bounds;
    if (i <= 0) return 'start';
    return b.inputs[i] > b.inputs[i - 1] ? 'input' : 'event';
  }

  /** Simulated ms at step i. */
  timeOf(i: number): number {
    return this.data.bounds.t[i];
  }

  /** Request-log records written by the end of step i (logCount): step i's own are those after step i − 1's. */
  logAt(i: number): number {
    return this.data.bounds.log[i];
  }

  /** Run an action that makes inputs on the cluster (kubectl, faults) and record them; forks when in the past. */
  apply<R>(action: (c: Cluster) => R): R {
    this.sync();
    const r = action(this.cluster);
    this.sync();
    return r;
  }

  /** Forward one step (recording a new one at the end); false when nothing more happens. */
  step(): boolean {
    this.sync();
    const d = this.data;
    if (d.cur < this.lastIdx) {
      this.forwardTo(d.cur + 1);
      return true;
    }
    return this.grow(Infinity);
  }

  /** Back one step: the cluster hash-equals what it was at that step; false at step 0. */
  back(): boolean {
    this.sync();
    if (this.data.cur === 0) return false;
    this.goTo(this.data.cur - 1);
    return true;
  }

  /** Move to step index `step` (clamped at 0; past the end the run is extended). Returns the new position. */
  seek(step: number): Position {
    this.sync();
    const target = Math.max(0, Math.floor(step));
    if (target > this.lastIdx) {
      if (this.data.cur < this.lastIdx) this.goTo(this.lastIdx);
      while (this.lastIdx < target && this.grow(Infinity)) {
        /* extend the recording */
      }
    } else this.goTo(target);
    return this.at();
  }

  /** Move to the last step at or before simulated time t (past the end: run on to t, like advance). */
  seekTime(t: number): Position {
    this.sync();
    const b = this.data.bounds;
    if (t >= b.t[this.lastIdx]) {
      if (this.data.cur < this.lastIdx) this.goTo(this.lastIdx);
      this.runTo(t);
      return this.at();
    }
    let lo = 0;
    let hi = this.lastIdx;
    while (lo < hi) {
      const mid = (lo + hi + 1) >> 1;
      if (b.t[mid] <= t) lo = mid;
      else hi = mid - 1;
    }
    this.goTo(lo);
    return this.at();
  }

  /** Run simulated time forward by ms from the cursor: within the recording this is seekTime; past its end it records. */
  advance(ms: number): Position {
    this.sync();
    return this.seekTime(this.w.now + ms);
  }

  /**
   * World.settle over the timeline: discards the future after the cursor, then records steps until
   * only recurring timers are queued or maxMs passes, stopping exactly where World.settle stops (so
   * `sim settle` in a figure's terminal leaves the same world as in the CLI). True when it settled.
   */
  settle(maxMs: number): boolean {
    this.fork();
    const d = this.data;
    const world = this.cluster.world;
    const w = this.w;
    const deadline = w.now + maxMs;
    while (w.queue.pending > 0) {
      const e = peek(w.queue);
      if (!e || e.at > deadline || w.steps >= this.opts.maxEvents) {
        if (deadline > w.now) {
          w.now = deadline;
          this.beyond = true;
        }
        return false;
      }
      const logLen = logCount(w);
      this.beyond = true;
      world.next();
      if (logCount(w) > logLen || w.steps - d.bounds.events[this.lastIdx] >= this.opts.maxSilentEvents) {
        this.pushBound(w.steps, w.inputs.length, w.now);
        this.beyond = false;
        this.maybeSnapshot();
      }
    }
    return true;
  }

  /**
   * At the recording's last step, runs the world on past it as a run that stopped between steps
   * leaves it: to `events` events and simulated time `t`, with no log record and no input on the way
   * (a link to such a moment carries both numbers). False when that is not how the run went on.
   */
  runOn(events: number, t: number): boolean {
    this.sync();
    const d = this.data;
    const world = this.cluster.world;
    const w = this.w;
    if (
      d.cur !== this.lastIdx ||
      this.beyond ||
      events < w.steps ||
      t < w.now ||
      events - d.bounds.events[d.cur] >= this.opts.maxSilentEvents
    )
      return false;
    const next = d.inputs[w.inputs.length];
    if (next && next.step <= events && next.t <= t) return false;
    const logLen = logCount(w);
    while (w.steps < events) {
      const e = peek(w.queue);
      if (!e || e.at > t || w.steps >= this.opts.maxEvents) return false;
      this.beyond = true;
      world.next();
      if (logCount(w) > logLen) return false;
    }
    if (t > w.now) {
      w.now = t;
      this.beyond = true;
    }
    return true;
  }

  /** Sets the event budget (`maxEvents`): a link's replay runs under one, and the figure it opens then runs on without it. */
  limitEvents(maxEvents: number): void {
    this.opts.maxEvents = maxEvents;
  }

  /** Discard every step after the cursor (the next input starts a new branch). */
  fork(): void {
    this.sync();
    this.truncate();
  }

  /** Replace the future after the cursor with these inputs (as recorded by a world: t and step); they are placed as the run reaches them. */
  load(inputs: readonly Input[]): void {
    this.sync();
    this.truncate();
    const d = this.data;
    d.inputs.length = d.bounds.inputs[d.cur];
    for (const i of inputs) d.inputs.push(i);
  }

  // ——— internals ———

  /** Pick up inputs made on the cluster since the timeline last looked; in the past, they fork. */
  private sync(): void {
    const w = this.w;
    const d = this.data;
    const known = d.bounds.inputs[d.cur];
    if (w.inputs.length === known) return;
    if (w.inputs.length < known) throw new Error('time-travel: the world was restored outside its timeline');
    const fresh = w.inputs.slice(known);
    this.truncate();
    d.inputs.length = known;
    for (const inp of fresh) {
      d.inputs.push(inp);
      this.pushBound(inp.step, d.inputs.length, inp.t);
    }
    // Inputs are recorded at the world's present step and time: the world is exactly at the last one.
    this.beyond = false;
    this.maybeSnapshot();
  }

  /** Drop the steps after the cursor, the future inputs and the snapshots beyond. */
  private truncate(): void {
    const d = this.data;
    const keep = d.cur + 1;
    const b = d.bounds;
    b.events.length = keep;
    b.inputs.length = keep;
    b.t.length = keep;
    b.log.length = keep;
    d.inputs.length = Math.max(b.inputs[d.cur], this.w.inputs.length);
    while (d.slots.length > 1 && d.slots[d.slots.length - 1] > d.cur) {
      d.slots.pop();
      d.snaps.pop();
    }
  }

  private pushBound(events: number, inputs: number, t: number): void {
    const b = this.data.bounds;
    b.events.push(events);
    b.inputs.push(inputs);
    b.t.push(t);
    b.log.push(logCount(this.w));
    this.data.cur = b.events.length - 1;
  }

  /** At the end: add one step (the next input due, or events up to one that writes to the log) if it happens by limitT. */
  private grow(limitT: number): boolean {
    const d = this.data;
    const world = this.cluster.world;
    const w = this.w;
    const last = this.lastIdx;
    const logLen = logCount(w);
    for (;;) {
      const ni = w.inputs.length;
      const next = d.inputs[ni];
      if (next && next.step <= w.steps) {
        if (next.t > limitT) return false;
        this.applyInput(next);
        this.pushBound(w.steps, w.inputs.length, w.now);
        break;
      }
      const e = peek(w.queue);
      if (!e) {
        if (!next || next.t > limitT) return false;
        // The queue ran dry before the input's step (an inconsistent recording): place it now.
        this.applyInput(next);
        this.pushBound(w.steps, w.inputs.length, w.now);
        break;
      }
      if (e.at > limitT || w.steps >= this.opts.maxEvents) return false;
      this.beyond = true;
      world.next();
      if (logCount(w) > logLen || w.steps - d.bounds.events[last] >= this.opts.maxSilentEvents) {
        this.pushBound(w.steps, w.inputs.length, w.now);
        break;
      }
    }
    this.beyond = false;
    this.maybeSnapshot();
    return true;
  }

  /** At the end: record steps up to simulated time t, then let the clock idle to t. */
  private runTo(t: number): void {
    while (this.grow(t)) {
      /* record */
    }
    const w = this.w;
    const next = this.data.inputs[w.inputs.length];
    if (t > w.now && !(next && next.t <= t) && w.steps < this.opts.maxEvents) {
      w.now = t;
      this.beyond = true;
    }
  }

  private applyInput(inp: Input): void {
    this.cluster.world.applyInput(inp);
  }

  /** Move the cursor to a recorded step: forward from here when possible, else from the nearest snapshot. */
  private goTo(k: number): void {
    const d = this.data;
    if (k === d.cur && !this.beyond) return;
    const s = this.slotAtOrBefore(k);
    const fromHere = k >= d.cur && !this.beyond;
    // Restore when the cursor is past k, or a snapshot between the cursor and k saves replaying.
    if (!fromHere || d.slots[s] > d.cur) {
      this.cluster.world.restore(d.snaps[s]!);
      d.cur = d.slots[s];
      this.beyond = false;
    }
    this.forwardTo(k);
  }

  /** Nearest slot with a snapshot at or before step k. */
  private slotAtOrBefore(k: number): number {
    const d = this.data;
    let lo = 0;
    let hi = d.slots.length - 1;
    while (lo < hi) {
      const mid = (lo + hi + 1) >> 1;
      if (d.slots[mid] <= k) lo = mid;
      else hi = mid - 1;
    }
    while (lo > 0 && !d.snaps[lo]) lo--;
    return lo;
  }

  /** Replay recorded steps from the cursor (exactly at a boundary) to step k ≥ cursor, re-taking thinned snapshots near k. */
  private forwardTo(k: number): void {
    const d = this.data;
    const b = d.bounds;
    const world = this.cluster.world;
    const w = this.w;
    const kSlot = this.slotIndexOf(k);
    let nextSlot = this.slotIndexOf(d.cur) + 1;
    for (let j = d.cur + 1; j <= k; j++) {
      for (;;) {
        if (w.inputs.length < b.inputs[j] && d.inputs[w.inputs.length].step <= w.steps) {
          this.applyInput(d.inputs[w.inputs.length]);
          continue;
        }
        if (w.steps < b.events[j]) {
          if (!world.next()) break;
          continue;
        }
        if (w.inputs.length < b.inputs[j]) {
          this.applyInput(d.inputs[w.inputs.length]);
          continue;
        }
        break;
      }
      if (w.now < b.t[j]) w.now = b.t[j];
      d.cur = j;
      if (nextSlot < d.slots.length && d.slots[nextSlot] === j) {
        if (!d.snaps[nextSlot] && kSlot - nextSlot < this.opts.dense) d.snaps[nextSlot] = world.snapshot();
        nextSlot++;
      }
    }
    this.beyond = false;
    this.thin();
  }

  /** Index of the last slot at or before step k (whether or not it holds a snapshot). */
  private slotIndexOf(k: number): number {
    const s = this.data.slots;
    let lo = 0;
    let hi = s.length - 1;
    while (lo < hi) {
      const mid = (lo + hi + 1) >> 1;
      if (s[mid] <= k) lo = mid;
      else hi = mid - 1;
    }
    return lo;
  }

  /** At a new last step: take a snapshot when K events or T ms have passed since the last slot. */
  private maybeSnapshot(): void {
    const d = this.data;
    const b = d.bounds;
    const i = this.lastIdx;
    const prev = d.slots[d.slots.length - 1];
    if (i === prev) return;
    if (b.events[i] - b.events[prev] >= this.opts.everyEvents || b.t[i] - b.t[prev] >= this.opts.everyMs) {
      d.slots.push(i);
      d.snaps.push(this.cluster.world.snapshot());
      this.thin();
    }
  }

  /**
   * Bounded memory: a snapshot at slot distance dist from the nearer of the tip and the cursor is kept
   * when its slot number is a multiple of 2^⌊log2(1 + ⌊dist / dense⌋)⌋ — `dense` per power of two.
   */
  private thin(): void {
    const d = this.data;
    const tip = d.slots.length - 1;
    const cursor = this.slotIndexOf(d.cur);
    const dense = this.opts.dense;
    for (let s = 1; s < tip; s++) {
      if (!d.snaps[s]) continue;
      const dist = Math.min(tip - s, Math.abs(cursor - s));
      const level = Math.floor(Math.log2(1 + Math.floor(dist / dense)));
      if (s % (1 << level) !== 0) d.snaps[s] = null;
    }
  }
}
