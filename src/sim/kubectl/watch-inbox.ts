// kubectl's end of its watches: while a command watches (get -w, wait, rollout status, delete
// --wait), kubectl runs as a component of its own, so the API server's notifications reach it through
// the event queue with the latency every watcher sees, and wait there until the command reads them.
// Plain data, so snapshots and replays carry it; no `yaml`, so the cluster can register it.
import type { WatchClosed, WatchNotification } from '../api/watch.ts';
import type { ComponentDef } from '../world.ts';

/** The component name kubectl's requests and watches are logged under. */
export const KUBECTL = 'kubectl';

/** What kubectl's watches have delivered and the command has not read yet. */
export interface KubectlInbox {
  events: (WatchNotification | WatchClosed)[];
}

/** kubectl as a component: it keeps each notification for the command that opened the watch. */
export const kubectlDef: ComponentDef<KubectlInbox> = {
  name: KUBECTL,
  init: () => ({ events: [] }),
  handle(event, ctx) {
    const e = event as { type?: string };
    if (e?.type === 'watch' || e?.type === 'watch-closed')
      ctx.state.events.push(event as WatchNotification | WatchClosed);
  },
};
