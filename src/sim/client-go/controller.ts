// A controller's wiring as sample-controller's NewController spells it: the informers it watches,
// each with its event handlers, the work queue those handlers fill, and the sync its worker runs
// per key. controller() opens the watches in the declared order, hands each notification to its
// informer, and runs the worker as wait.Until(runWorker) does: here, a timer WORKER_DELAY_MS after
// keys wait, then the queue run dry (the model's workers are synchronous).
import type { Ctx } from '../world.ts';
import {
  informerHandle,
  listAndWatch,
  memoHandlers,
  type EventHandlers,
  type InformerEvent,
  type InformerState,
} from './informer.ts';
import { drainQueue, len, workQueueHandle, type SyncResult, type WorkQueue, type WorkQueueAdd } from './workqueue.ts';

/** Time a worker takes to pick up a queued key (the real worker goroutine reacts in about a millisecond). */
export const WORKER_DELAY_MS = 1;

/** The events a controller() takes: its informers', its queue's delayed adds, its worker's wake-up `W`. */
export type ControllerEvent<W extends string> = InformerEvent | WorkQueueAdd | { type: W };

/** The state a controller() runs on: its work queue, and whether the worker's wake-up is queued. */
interface ControllerState {
  queue: WorkQueue;
  workerPending: boolean;
}

/** What controller() is told (NewController's arguments). */
interface ControllerSpec<S extends ControllerState> {
  /**
   * The informers, by their field in the state, in the order their watches open; each with the
   * builder of its handlers (ResourceEventHandlerFuncs, built once per context and state).
   */
  informers: { [K in keyof S]?: S[K] extends InformerState<infer T> ? (ctx: Ctx<S>) => EventHandlers<T> : never };
  /** The worker's wake-up timer (an event type of the component's own). */
  worker: string;
  /** syncHandler: one key, from the queue. */
  sync(ctx: Ctx<S>, key: string): SyncResult;
}

/** A controller's run loop, for its component's init and handle. */
interface Controller<S> {
  /** Run: open the watches in the declared order, then wake the worker if keys wait. */
  run(ctx: Ctx<S>): void;
  /**
   * One event: the worker's timer runs the queue dry, a notification goes to its informer, a delayed
   * add to the queue (any other event passes); then the worker is woken if keys wait.
   */
  handle(event: unknown, ctx: Ctx<S>, s?: S): void;
}

/** NewController: the watches, the routing of their notifications, and the worker of one controller. */
export function controller<S extends ControllerState>(spec: ControllerSpec<S>): Controller<S> {
  const informers = spec.informers as Record<string, (ctx: Ctx<S>) => EventHandlers>;
  const fields = Object.keys(informers) as (keyof S & string)[];
  // Every informer's handlers, built once per context and state (memoHandlers keys on this function).
  const handlers = (ctx: Ctx<S>) => fields.map((f) => informers[f](ctx));
  const kick = (ctx: Ctx<S>, s: S): void => {
    if (s.workerPending || len(s.queue) === 0) return;
    s.workerPending = true;
    ctx.schedule(WORKER_DELAY_MS, { type: spec.worker });
  };
  return {
    run(ctx) {
      const s = ctx.state;
      for (const f of fields) listAndWatch(ctx, s[f] as InformerState);
      kick(ctx, s);
    },
    handle(event, ctx, s = ctx.state) {
      if ((event as { type?: string } | undefined)?.type === spec.worker) {
        s.workerPending = false;
        drainQueue(ctx, s.queue, (key) => spec.sync(ctx, key));
      } else {
        const h = memoHandlers(ctx, handlers, s);
        // Each informer answers only its own watch's events: the order here is only how soon one does.
        let i = 0;
        while (i < fields.length && !informerHandle(ctx, s[fields[i]] as InformerState, event, h[i])) i++;
        if (i === fields.length) workQueueHandle(s.queue, event);
      }
      kick(ctx, s);
    },
  };
}
