// kubectl's watches go through the API server like every client's: the WATCH is a recorded request
// (with the fieldSelector, labelSelector and resourceVersion kubectl sends), and its notifications
// arrive in kubectl's own inbox (../watch-inbox.ts) as simulated time runs. Opening one starts the
// inbox component and closing it stops it (both recorded inputs), so a replay rebuilds the same watch.
import type { WatchNotification } from '../../apiserver/watch.ts';
import type { KindInfo } from '../resources.ts';
import { KUBECTL, kubectlDef, type KubectlInbox } from '../watch-inbox.ts';
import { Fail, apiError, listAt, withKind, type Obj, type Run } from './util.ts';

/** What a watch selects and where it starts (the resourceVersion of the list before it). */
export interface WatchSpec { namespace?: string; labelSelector?: string; fieldSelector?: string; resourceVersion: string }

/** One open watch of kubectl's. */
export class KubectlWatch {
  private readonly r: Run;
  readonly id: string;
  constructor(r: Run, kind: KindInfo, spec: WatchSpec) {
    this.r = r;
    const world = r.cluster.world;
    if (!world.defs.has(KUBECTL)) world.define(kubectlDef);
    // kubectl reads its stream as soon as it arrives: a fixed reaction, and no draw of chance.
    world.addComponent(KUBECTL, KUBECTL, { reactionMs: [0, 0] });
    const options: Record<string, string> = { resourceVersion: spec.resourceVersion };
    if (spec.fieldSelector) options.fieldSelector = spec.fieldSelector;
    if (spec.labelSelector) options.labelSelector = spec.labelSelector;
    const res = r.req({ verb: 'watch', resource: kind.resource, namespace: kind.namespaced ? spec.namespace : undefined, options });
    if (!res.ok) { this.close(); throw new Fail(apiError(res.status)); }
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
  try { return fn(w); } finally { w.close(); }
}

/**
 * watchtools.UntilWithSync on one object, as wait, delete --wait and rollout status use it: a LIST
 * with fieldSelector metadata.name=NAME, `check` on what it found (undefined: nothing), then, unless
 * that settled it, a WATCH from the list's resourceVersion with `check` on each notification
 * (undefined for a deletion) while simulated time runs in steps of at most 100 ms, until `check`
 * says done (true) or `deadline` passes (false).
 */
export function untilWithSync(r: Run, kind: KindInfo, namespace: string | undefined, name: string, deadline: number, check: (o: Obj | undefined) => boolean): boolean {
  const fieldSelector = `metadata.name=${name}`;
  const { items, resourceVersion } = listAt(r, kind, namespace, undefined, fieldSelector);
  if (check(items[0])) return true;
  return withWatch(r, kind, { namespace, fieldSelector, resourceVersion }, (w) => {
    for (;;) {
      if (r.now >= deadline) return false;
      r.cluster.advance(Math.min(100, deadline - r.now));
      for (const n of w.take()) if (check(n.eventType === 'DELETED' ? undefined : withKind(kind, n.object))) return true;
    }
  });
}
