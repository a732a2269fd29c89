// kubectl's watches go through the API server like every client's: the WATCH is a recorded request
// (with the fieldSelector, labelSelector and resourceVersion kubectl sends), and its notifications
// arrive in kubectl's own inbox (../watch-inbox.ts) as simulated time runs. Opening one starts the
// inbox component and closing it stops it (both recorded inputs), so a replay rebuilds the same watch.
import { INITIAL_EVENTS_END_ANNOTATION, type WatchNotification, type WatchOptions } from '../../api/watch.ts';
import type { KindInfo } from '../resources.ts';
import { fnv1a32 } from '../../util/names.ts';
import { KUBECTL, kubectlDef, type KubectlInbox } from '../watch-inbox.ts';
import { Fail, apiError, withKind, type MetaObject, type Run } from './util.ts';

/**
 * What a watch selects and where it starts: after the resourceVersion of the list before it, or, as
 * a streaming list (`streaming`), with the current state sent first and no resourceVersion.
 */
export type WatchSpec = {
  namespace?: string;
  labelSelector?: string;
  fieldSelector?: string;
  timeoutSeconds?: number;
} & ({ resourceVersion: string; streaming?: false; allowWatchBookmarks?: boolean } | { streaming: true });

/**
 * The timeout client-go's reflector asks of each watch: minWatchTimeout (5 minutes) times a number in
 * [1, 2), whole seconds. The real one draws it from math/rand; here it comes from a hash of the moment
 * and what is watched, not from the world's generator, so opening a watch leaves every later draw
 * (pod names, the scheduler's ties) as it was.
 */
export function reflectorWatchTimeoutSeconds(now: number, what: string): number {
  return 300 + (fnv1a32(`${now} ${what}`) % 300);
}

/** A watch the API server refused, with its HTTP code (410: the resourceVersion was compacted away). */
class WatchRefused extends Fail {
  readonly code: number;
  constructor(code: number, message: string) {
    super(message);
    this.code = code;
  }
}

/** One open watch of kubectl's. */
class KubectlWatch {
  private readonly r: Run;
  readonly id: string;
  constructor(r: Run, kind: KindInfo, spec: WatchSpec) {
    this.r = r;
    const world = r.cluster.world;
    if (!world.defs.has(KUBECTL)) world.define(kubectlDef);
    // kubectl reads its stream as soon as it arrives: a fixed reaction, and no draw of chance.
    world.addComponent(KUBECTL, KUBECTL, { reactionMs: [0, 0] });
    const options: WatchOptions = spec.streaming
      ? { sendInitialEvents: true, resourceVersionMatch: 'NotOlderThan', allowWatchBookmarks: true }
      : { resourceVersion: spec.resourceVersion, ...(spec.allowWatchBookmarks ? { allowWatchBookmarks: true } : {}) };
    if (spec.fieldSelector) options.fieldSelector = spec.fieldSelector;
    if (spec.labelSelector) options.labelSelector = spec.labelSelector;
    if (spec.timeoutSeconds !== undefined) options.timeoutSeconds = spec.timeoutSeconds;
    // (Run.req adds --request-timeout's `timeout` to the request's options, which the WATCH logs.)
    const res = r.req({
      verb: 'watch',
      resource: kind.resource,
      namespace: kind.namespaced ? spec.namespace : undefined,
      options,
    });
    if (!res.ok) {
      this.close();
      throw new WatchRefused(res.code, apiError(res.status));
    }
    this.id = (res.object as { watchId: string }).watchId;
  }

  /** The notifications that have arrived since the last call, oldest first. */
  take(): WatchNotification[] {
    const inbox = this.r.cluster.world.ctx<KubectlInbox>(KUBECTL).state;
    if (!inbox?.events.length) return [];
    const mine = inbox.events.filter((e): e is WatchNotification => e.type === 'watch' && e.watchId === this.id);
    inbox.events = [];
    return mine;
  }

  /** Stop watching: the connection closes and kubectl's inbox goes with it. */
  close(): void {
    this.r.cluster.world.removeComponent(KUBECTL);
  }
}

/** Run `fn` with a watch open, closing it however `fn` ends. */
export function withWatch<T>(r: Run, kind: KindInfo, spec: WatchSpec, fn: (w: KubectlWatch) => T): T {
  const w = new KubectlWatch(r, kind, spec);
  try {
    return fn(w);
  } finally {
    w.close();
  }
}

/**
 * watchtools.UntilWithSync on one object, as wait, delete --wait and rollout status use it. Its
 * reflector runs as client-go 1.37's does (WatchListClient, on by default): one WATCH with
 * fieldSelector metadata.name=NAME and the reflector's timeoutSeconds that streams the object first
 * (sendInitialEvents), and `check` runs on what the stream held (undefined: nothing) once its
 * initial-events-end BOOKMARK arrives, then on each notification (undefined for a deletion), while
 * simulated time runs in steps of at most 100 ms, until `check` says done (true) or `deadline` passes
 * (false). When the watch's timeout is up the server would end it, and the reflector watches again
 * from the last resourceVersion it saw (no stream, bookmarks allowed, a new timeout).
 */
export function untilWithSync(
  r: Run,
  kind: KindInfo,
  namespace: string | undefined,
  name: string,
  deadline: number,
  check: (o: MetaObject | undefined) => boolean,
): boolean {
  const fieldSelector = `metadata.name=${name}`;
  const what = `${kind.resource}/${namespace ?? ''}/${name}`;
  let timeoutSeconds = reflectorWatchTimeoutSeconds(r.now, what);
  let w = new KubectlWatch(r, kind, { namespace, fieldSelector, streaming: true, timeoutSeconds });
  let endsAt = r.now + timeoutSeconds * 1000;
  try {
    let synced = false;
    let initial: MetaObject | undefined;
    let lastRV = '';
    for (;;) {
      if (r.now >= deadline) return false;
      if (synced && r.now >= endsAt) {
        w.close();
        timeoutSeconds = reflectorWatchTimeoutSeconds(r.now, what);
        try {
          w = new KubectlWatch(r, kind, {
            namespace,
            fieldSelector,
            resourceVersion: lastRV,
            allowWatchBookmarks: true,
            timeoutSeconds,
          });
        } catch (e) {
          // 410 Gone: the history since lastRV was compacted; the reflector lists again (a stream).
          if (!(e instanceof WatchRefused) || e.code !== 410) throw e;
          w = new KubectlWatch(r, kind, { namespace, fieldSelector, streaming: true, timeoutSeconds });
        }
        endsAt = r.now + timeoutSeconds * 1000;
      }
      // The stream's first events come within milliseconds: step finely until it has synced.
      r.cluster.advance(Math.min(synced ? 100 : 1, deadline - r.now));
      for (const n of w.take()) {
        const rv = (n.object as MetaObject | undefined)?.metadata?.resourceVersion;
        if (rv) lastRV = rv;
        const obj = n.eventType === 'DELETED' ? undefined : withKind(kind, n.object);
        if (n.eventType === 'BOOKMARK') {
          if (!synced && (n.object as MetaObject).metadata?.annotations?.[INITIAL_EVENTS_END_ANNOTATION] === 'true') {
            synced = true;
            if (check(initial)) return true;
          }
        } else if (!synced) initial = obj;
        else if (check(obj)) return true;
      }
    }
  } finally {
    w.close();
  }
}
