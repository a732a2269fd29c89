// The worker side of a figure: one Cluster + Timeline per figure instance, driven by the requests
// of protocol.ts. It follows the figure's compiled story (its inputs loaded as the future, its beats
// at known steps) until the reader changes something; then the story forks away and the demos the
// reader presses narrate their own beats as the cluster reaches them.
import { createCluster, type Cluster } from '../cluster.ts';
import { RESOURCES } from '../api/resources.ts';
import { storeList } from '../view/stored.ts';
import { Timeline } from '../time-travel.ts';
import { frameOf } from '../view/frame.ts';
import { stepRecordsOf } from '../view/records.ts';
import type { Frame, StepRecord } from '../view/types.ts';
import type { Input, World } from '../world.ts';
import type { FigureAction } from './actions.ts';
import type { DemoBeat, DemoDef, DemoMemo, FigureDef, FigureDetail } from './demo.ts';
import type { RanLine } from './echo.ts';
import {
  firstMatterAhead,
  lastWholeListEnd,
  mattersBetween,
  notificationsOnly,
  REST_SENTENCE,
  skippedOf,
  skippedSentence,
} from './playback.ts';
import type { CompiledStory, DemoButton, FigureRequest, FigureView } from './protocol.ts';

/** Log records a view carries (the request-log panel's depth). */
const LOG_TAIL = 80;
/** What the narration says for the informers' start-up lists stepped over as one step. */
function listedSentence(notifications: number): string {
  return `Every component lists what exists: one ADDED notification for each object its watches cover, then a BOOKMARK saying the list is complete (${notifications} notifications in all). Nothing changes in the cluster; now each one knows what there is.`;
}

/** "Next event that matters" gives up after this much quiet simulated time. */
const NEXT_LIMIT_MS = 15 * 60_000;
/** … or after this many steps of heartbeats. */
const NEXT_LIMIT_STEPS = 50_000;
/**
 * The cluster is at rest when nothing that matters happens for this long: longer than the longest
 * wait of the defaults the figures show (300 s tolerations, the scheduler's 5 min flush of
 * unschedulable pods), so a wait under way is never taken for rest.
 */
export const REST_LOOKAHEAD_MS = 10 * 60_000;

/** A demo under way: its remaining beats and what it remembered when pressed. */
interface ActiveDemo {
  id: string;
  memo: DemoMemo;
  beats: DemoBeat[];
  next: number;
  /** Simulated ms of its last beat (or its start): a demo whose beat has not come for long may be stuck. */
  since: number;
}

/** What a look ahead found from one point of a run: valid later on the same run (same inputs, at or past `from`). */
interface Ahead {
  inputs: number;
  /** The last input as JSON: a restore copies the inputs, so only their content tells a run from a fork. */
  lastInput: string;
  from: number;
  /** Events processed when the first record that matters is written, or null: none up to `until`. */
  matterAt: number | null;
  until: number;
}

/** One figure's cluster and where the reader stands in it. */
export class FigureHost {
  readonly def: FigureDef;
  readonly story: CompiledStory;
  readonly cluster: Cluster;
  readonly timeline: Timeline;
  /** Beat texts by step: the story's, then those the reader's demos reached. */
  private beats = new Map<number, string>();
  /** The timeline still carries the story's inputs (nothing the reader did has forked it away). */
  private following = true;
  private diverged = false;
  private active: ActiveDemo | null = null;
  private readonly storySteps: number[];
  /** The lines the reader's last demo or panel action ran, and the step they ran at (the demo bar echoes them). */
  private ran: { step: number; lines: RanLine[] } | null = null;
  /** What the last "Next event that matters" passed over, said at the step it stopped at. */
  private skipped: { step: number; text: string } | null = null;
  /** Step forward went over informers' start-up lists as one step, from `from` to `to`: the view draws them as one burst and Step back returns to `from`. */
  private listed: { from: number; to: number; notifications: number } | null = null;
  private ahead: Ahead | null = null;
  /** Terminal commands run so far (each output's number; figures/terminal.ts counts them). */
  commands = 0;
  /** A terminal command has changed this cluster (a link to a moment is then checked by replay before it is given). */
  terminalUsed = false;

  /**
   * Builds the figure's cluster and loads its story as the future to replay; or, given a moment (a
   * link's inputs and step, already validated), replays that run to its step instead. A moment whose
   * inputs are the story's stands in the story; any other is the reader's own run. A moment already
   * replayed (`restored`, restoreMoment's timeline standing at its step, built for this figure's
   * cluster) is taken as it is, so opening a link replays it once.
   */
  constructor(
    def: FigureDef,
    story: CompiledStory,
    moment?: {
      inputs: Input[];
      step: number;
      beyond?: { events: number; t: number };
      install?: (on: { world: World }) => void;
      restored?: Timeline;
    },
  ) {
    this.def = def;
    this.story = story;
    this.storySteps = story.beats.map((b) => b.step);
    if (moment?.restored) {
      this.timeline = moment.restored;
      this.cluster = moment.restored.cluster;
      // The replay ran under a link's event budget; the reader's run goes on as any figure's does.
      this.timeline.limitEvents(Infinity);
      this.adoptStory(JSON.stringify(moment.inputs) === JSON.stringify(story.inputs));
      return;
    }
    this.cluster = createCluster({
      seed: story.options.seed,
      nodes: story.options.nodes,
      nodeCapacity: story.options.nodeCapacity,
      addons: def.addons?.(),
    });
    if (def.checks) this.cluster.world.apiConfig.checks = def.checks;
    // A link's moment may replay terminal commands: kubectl's part of the API server serves them.
    moment?.install?.(this.cluster);
    this.timeline = new Timeline(this.cluster);
    this.loadStory();
    // A widget opens where its setup has run (a link's moment says its own step instead).
    if (!moment && this.origin > 0) this.timeline.seek(this.origin);
    if (moment) {
      if (JSON.stringify(moment.inputs) !== JSON.stringify(story.inputs)) {
        this.timeline.load(moment.inputs);
        this.beats = new Map();
        this.following = false;
      }
      this.timeline.seek(moment.step);
      // A moment the cluster had run on past (restoreMoment has checked it gets there).
      if (moment.beyond) this.timeline.runOn(moment.beyond.events, moment.beyond.t);
    }
  }

  /** Answers one request; throws on a request it cannot make sense of (the worker turns that into an error reply). */
  handle(req: FigureRequest): FigureView {
    if (req.op !== 'view') this.skipped = null;
    const listed = this.listed;
    if (req.op !== 'view') this.listed = null;
    switch (req.op) {
      case 'view':
        break;
      case 'step':
        this.step();
        break;
      case 'back':
        if (listed && listed.to === this.timeline.at().step) this.timeline.seek(Math.max(this.origin, listed.from));
        else if (this.timeline.at().step > this.origin) this.timeline.back();
        break;
      case 'seek':
        this.seek(req.step);
        break;
      case 'advance':
        this.advance(req.ms);
        break;
      case 'next':
        this.next();
        break;
      case 'reset':
        this.reset();
        break;
      case 'rejoin':
        this.rejoin();
        break;
      case 'demo':
        this.demo(req.demo);
        break;
      case 'action':
        this.act([req.action], null);
        break;
    }
    return this.view();
  }

  /** The view at the cursor. */
  view(): FigureView {
    const tl = this.timeline;
    const pos = tl.at();
    const w = this.cluster.world.state;
    const frame = frameOf(this.cluster);
    const end = tl.logAt(pos.step);
    // A start-up list stepped over as one step is drawn as one burst: all its notifications.
    const from = this.listed?.to === pos.step ? this.listed.from : pos.step - 1;
    const records = pos.step > 0 ? stepRecordsOf(w, tl.logAt(from), end) : [];
    const log = stepRecordsOf(w, Math.max(0, end - LOG_TAIL), end);
    const beat = this.beats.get(pos.step) ?? null;
    let beatIndex = -1;
    if (this.following)
      for (let i = 0; i < this.storySteps.length && this.storySteps[i] <= pos.step; i++) beatIndex = i;
    return {
      figure: this.def.id,
      step: pos.step,
      last: Math.max(pos.last, this.following ? this.story.end : 0),
      t: pos.t,
      t0: tl.timeOf(0),
      frame,
      records,
      log,
      beat,
      sentence:
        beat ??
        (this.listed?.to === pos.step ? listedSentence(this.listed.notifications) : sentenceOf(records, pos.step)),
      skipped: this.skipped?.step === pos.step ? this.skipped.text : null,
      rest: this.atRest() ? REST_SENTENCE : null,
      story: {
        beats: this.storySteps.length,
        beatIndex,
        diverged: this.diverged,
        ended: this.following && pos.step >= this.story.end,
      },
      demos: this.def.demos.map((d) => buttonOf(d, frame, this.def.actions.command)),
      demoRunning: this.active && this.active.next < this.active.beats.length ? this.active.id : null,
      // A definition's detail is plain JSON (FigureDef.detail's contract); its widget reads it as FigureView<D>.
      detail: (this.def.detail ? this.def.detail(this.cluster, frame) : null) as FigureDetail | null,
      ...(this.ran && pos.step >= this.ran.step ? { ran: this.ran.lines } : {}),
    };
  }

  // ——— moving ———

  /** The step the figure opens at and goes back to no further (CompiledStory.opening). */
  get origin(): number {
    return this.story.opening ?? 0;
  }

  /** The furthest step the slider reaches: the recording's end, or the story's while it is followed. */
  private lastStep(): number {
    const last = this.timeline.length - 1;
    return this.following ? Math.max(last, this.story.end) : last;
  }

  /** Runs a forward move; when it recorded new steps, the active demo's beats are checked there. */
  private forward(move: () => unknown): void {
    const before = this.timeline.length;
    move();
    if (this.timeline.length > before && this.timeline.at().atEnd) this.checkBeats();
  }

  /**
   * Step forward: one step, except into the informers' start-up lists (each watch's ADDED
   * notifications for what exists, then its BOOKMARK), which are plumbing a reader reads once:
   * those it goes over as one summarised step (listedSentence), stopping at a beat, an input or
   * anything else on the way.
   */
  private step(): void {
    const tl = this.timeline;
    const start = tl.at();
    this.forward(() => tl.step());
    const first = tl.at();
    const w = () => this.cluster.world.state;
    const listing = (step: number) =>
      step > 0 &&
      tl.kindOf(step) !== 'input' &&
      !this.beats.has(step) &&
      notificationsOnly(w(), tl.logAt(step - 1), tl.logAt(step));
    // Only from outside such a list (a reader who went back into one steps through it one by one).
    if (first.step === start.step || !listing(first.step) || listing(start.step)) return;
    // The steps of the run (what a step holds is known only once it has run: the one after the run
    // is run too, then left by the one seek below).
    const ends = [first.step];
    for (let n = 0; n < NEXT_LIMIT_STEPS; n++) {
      const before = tl.at().step;
      this.forward(() => tl.step());
      const pos = tl.at();
      if (pos.step === before || !listing(pos.step)) break;
      ends.push(pos.step);
    }
    // Only whole lists (every ADDED before its watch's BOOKMARK) are said as one: a list cut short at the end is left for the next step.
    const whole = lastWholeListEnd(
      w(),
      tl.logAt(start.step),
      ends.map((s) => tl.logAt(s)),
    );
    const end = whole.index < 0 ? first.step : ends[whole.index];
    if (whole.index < 0 || end - start.step < 2) {
      tl.seek(first.step);
      return;
    }
    tl.seek(end);
    this.listed = { from: start.step, to: end, notifications: whole.notifications };
  }

  private seek(step: number): void {
    if (!Number.isFinite(step)) throw new Error('seek: the step is not a number');
    // Within the recording, or on to the story's end (its future is known); never further, so a
    // hostile step number cannot make the worker run for ever.
    const target = Math.max(this.origin, Math.min(Math.floor(step), this.lastStep()));
    this.forward(() => this.timeline.seek(target));
  }

  /** Simulated time forward; a story beat on the way stops it there (playback pauses at beats). */
  private advance(ms: number): void {
    if (!Number.isFinite(ms) || ms < 0 || ms > 3_600_000)
      throw new Error('advance: ms must be between 0 and 3,600,000');
    const pos = this.timeline.at();
    const target = pos.t + ms;
    if (this.following) {
      const beat = this.story.beats.find((b) => b.step > pos.step && b.t <= target);
      if (beat) {
        this.forward(() => this.timeline.seek(beat.step));
        return;
      }
    }
    this.forward(() => this.timeline.advance(ms));
  }

  /**
   * "Next event that matters": on to the next beat while one is ahead (the story's, or the active
   * demo's), else to the next change a reader would care about (playback.ts recordMatters), jumping
   * over heartbeats, notifications, reads and Events; at rest it stays. What it jumped over is said
   * at the step it stops at.
   */
  private next(): void {
    const tl = this.timeline;
    const start = tl.at();
    const story = this.following && this.storySteps.some((s) => s > start.step);
    const demo = this.demoPending();
    if (!story && !demo && this.atRest()) return;
    for (let n = 0; n < NEXT_LIMIT_STEPS; n++) {
      const before = tl.length;
      if (!tl.step()) break;
      const pos = tl.at();
      // Beats are checked at every newly recorded step, as they always were: the compiled stories depend on it.
      if (tl.length > before && pos.atEnd && this.checkBeats()) break;
      if (this.beats.has(pos.step) || tl.kindOf(pos.step) === 'input') break;
      if (!story && pos.t - start.t > NEXT_LIMIT_MS) break;
      if (!story && !demo && mattersBetween(this.cluster.world.state, tl.logAt(pos.step - 1), tl.logAt(pos.step)))
        break;
    }
    const end = tl.at();
    if (end.step - start.step < 2) return;
    const text = skippedSentence(
      skippedOf(this.cluster.world.state, tl.logAt(start.step), tl.logAt(end.step - 1)),
      end.t - start.t,
    );
    if (text) this.skipped = { step: end.step, text };
  }

  /** The active demo still waits for a beat. */
  private demoPending(): boolean {
    return this.active !== null && this.active.next < this.active.beats.length;
  }

  /**
   * At rest: the story (if followed) has ended, no future input of the recording is due within
   * REST_LOOKAHEAD_MS, no demo waits for a beat (unless none has come for that long: a stuck demo
   * rests too), and running on that long would write no record that matters. The look ahead runs on
   * a copy of the world and is remembered along the run, so asking again costs nothing.
   */
  atRest(): boolean {
    const tl = this.timeline;
    const pos = tl.at();
    if (this.following && pos.step < this.story.end) return false;
    const w = this.cluster.world.state;
    if (this.demoPending() && w.now - this.active!.since < REST_LOOKAHEAD_MS) return false;
    const due = tl.data.inputs[w.inputs.length];
    if (due && due.t <= w.now + REST_LOOKAHEAD_MS) return false;
    const lastInput = JSON.stringify(w.inputs[w.inputs.length - 1] ?? null);
    const a = this.ahead;
    if (a && a.inputs === w.inputs.length && a.lastInput === lastInput && w.steps >= a.from) {
      if (a.matterAt !== null && w.steps < a.matterAt) return false;
      if (a.matterAt === null && w.now + REST_LOOKAHEAD_MS <= a.until) return true;
    }
    const from = w.steps;
    const until = w.now + REST_LOOKAHEAD_MS;
    const matterAt = firstMatterAhead(this.cluster.world, REST_LOOKAHEAD_MS);
    this.ahead = { inputs: w.inputs.length, lastInput, from, matterAt, until };
    return matterAt === null;
  }

  /** Back to the opening (step 0 unless the figure opens later) with the story loaded again. */
  private reset(): void {
    this.timeline.seek(0);
    this.loadStory();
    if (this.origin > 0) this.timeline.seek(this.origin);
  }

  /** Returns to the story at the last story beat the reader had reached before changing things. */
  private rejoin(): void {
    const at = this.timeline.at().step;
    const beat = [...this.storySteps].reverse().find((s) => s <= at) ?? 0;
    this.timeline.seek(0);
    this.loadStory();
    this.timeline.seek(beat);
  }

  private loadStory(): void {
    this.timeline.load(this.story.inputs);
    this.adoptStory(true);
  }

  /** Starts narrating: the story's beats when the timeline carries the story's inputs, else none (the reader's own run). */
  private adoptStory(following: boolean): void {
    this.beats = following ? new Map(this.story.beats.map((b) => [b.step, b.text])) : new Map();
    this.following = following;
    this.diverged = false;
    this.active = null;
    this.ran = null;
  }

  // ——— changing ———

  /** Presses a demo button: its actions now, its beats from here on. */
  private demo(id: string): void {
    const d = this.def.demos.find((x) => x.id === id) ?? this.def.demoFor?.(id) ?? undefined;
    if (!d) throw new Error(`no demo "${id}" in figure ${this.def.id}`);
    const frame = frameOf(this.cluster);
    const why = d.unavailable(frame);
    if (why) throw new Error(why);
    const s = d.start(frame);
    this.act(s.actions, s.intro);
    this.active = { id, memo: s.memo, beats: s.beats, next: 0, since: this.cluster.now };
    this.checkBeats();
  }

  /** Makes the reader's actions at the cursor; in the story's middle that forks the story away. */
  private act(actions: FigureAction[], intro: string | null): void {
    const tl = this.timeline;
    this.readerChange();
    const lines: RanLine[] = [];
    tl.apply((c) => {
      for (const a of actions) {
        const w = c.world.state;
        // Positions in the whole log: the oldest records may be dropped while the action runs.
        const from = (w.logDropped ?? 0) + w.log.length;
        this.def.actions.apply(c, a);
        // Reading the log and the store records nothing: the echo is what a terminal would have printed.
        const listed =
          a.type === 'get' ? storeList(w.store, a.resource, a.resource === 'pods' ? 'default' : undefined).length : 0;
        lines.push(this.def.actions.echo(a, w.log.slice(Math.max(0, from - (w.logDropped ?? 0))), listed));
      }
    });
    const step = tl.at().step;
    this.ran = { step, lines };
    this.beats.set(step, intro ?? actions.map(this.def.actions.command).join('; '));
  }

  /**
   * The reader changes the cluster at the cursor (a demo, a panel's action, a terminal command): in
   * the story's middle that forks the story away, and beats ahead of the cursor no longer apply.
   */
  readerChange(): void {
    const at = this.timeline.at();
    if (!at.atEnd || (this.following && at.step < this.story.end)) {
      // At the opening nothing of the story has happened yet: the reader starts a path of their own.
      if (this.following && at.step > this.origin && at.step < this.story.end) this.diverged = true;
      for (const s of [...this.beats.keys()]) if (s > at.step) this.beats.delete(s);
    }
    this.following = false;
    this.active = null;
    this.ran = null;
  }

  /**
   * The names of a resource's objects as the cluster holds them now, for a terminal's Tab: read
   * from the store, because completing a word must not be a recorded request.
   */
  objectNames(resource: string, namespace: string): string[] {
    const names: string[] = [];
    for (const o of storeList(
      this.cluster.world.state.store,
      resource,
      RESOURCES[resource]?.namespaced === false ? undefined : namespace || undefined,
    )) {
      const name = (o as { metadata?: { name?: unknown } }).metadata?.name;
      if (typeof name === 'string' && names.length < 200) names.push(name);
    }
    return names;
  }

  /** Says `text` at a step (after what is already said there): the narration's sentence for the reader's change. */
  say(step: number, text: string): void {
    const prior = this.beats.get(step);
    this.beats.set(step, prior && prior !== text ? `${prior} ${text}` : text);
  }

  /** At a newly recorded step: fires the active demo's beats that now hold (true when one fired). */
  private checkBeats(): boolean {
    const a = this.active;
    if (!a || a.next >= a.beats.length) return false;
    let fired = false;
    let frame: Frame = frameOf(this.cluster);
    const detail = (): FigureDetail | null =>
      (this.def.detail ? this.def.detail(this.cluster, frame) : null) as FigureDetail | null;
    while (a.next < a.beats.length && a.beats[a.next].when(frame, a.memo, detail)) {
      const beat = a.beats[a.next++];
      const text = beat.text(frame, a.memo);
      // A beat that acts again is said at the step of its action, where the reader sees it happen.
      const more = beat.then?.(frame, a.memo) ?? [];
      if (more.length)
        this.timeline.apply((c) => {
          for (const x of more) this.def.actions.apply(c, x);
        });
      const step = this.timeline.at().step;
      const prior = this.beats.get(step);
      this.beats.set(step, prior ? `${prior} ${text}` : text);
      fired = true;
      a.since = this.cluster.now;
      if (more.length) frame = frameOf(this.cluster);
    }
    return fired;
  }
}

/** A demo's button as it reads at this frame. */
function buttonOf(d: DemoDef, f: Frame, commandOf: (a: FigureAction) => string): DemoButton {
  const why = d.unavailable(f);
  const label = d.label(f);
  let command = '';
  if (!why) {
    const s = d.start(f);
    command = s.actions.map(commandOf).join('; ');
  }
  return { id: d.id, label, command, enabled: !why, why };
}

/** What a step says when no beat falls on it: its first record that is not a heartbeat, else its first. */
function sentenceOf(records: StepRecord[], step: number): string {
  if (step === 0) return 'The cluster as it starts: the control plane and its worker nodes, with nothing running yet.';
  const r = records.find((x) => !x.heartbeat) ?? records[0];
  return r ? r.sentence : 'Time passes; nothing is sent.';
}
