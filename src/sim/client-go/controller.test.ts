import type { Deployment } from 'kubernetes-types/apps/v1';
import type { Pod } from 'kubernetes-types/core/v1';
import { describe, expect, it } from 'vitest';
import { controller, WORKER_DELAY_MS, type ControllerEvent } from './controller.ts';
import { listerGet, metaNamespaceKey, newInformer, type InformerState } from './informer.ts';
import { add, newWorkQueue, type WorkQueue } from './workqueue.ts';
import { deployment, pod, testWorld } from '../testing/world.ts';
import type { ComponentDef, Ctx } from '../world.ts';

// A toy controller declared as sample-controller's NewController: Deployments then pods, one queue of
// Deployment keys; its sync notes each key, when it ran, and whether the pod informer has the pod.
interface ToyState {
  deps: InformerState<Deployment>;
  pods: InformerState<Pod>;
  queue: WorkQueue;
  workerPending: boolean;
  queued: number[];
  synced: string[];
  podEvents: number;
}
const enqueue = (ctx: Ctx<ToyState>, d: Deployment) => {
  ctx.state.queued.push(ctx.now);
  add(ctx.state.queue, metaNamespaceKey(d), ctx.notification);
};
const toyController = controller<ToyState>({
  informers: {
    deps: (ctx) => ({ add: (d) => enqueue(ctx, d), update: (_old, d) => enqueue(ctx, d) }),
    pods: (ctx) => ({
      add: () => {
        ctx.state.podEvents++;
      },
    }),
  },
  worker: 'toy-worker',
  sync: (ctx: Ctx<ToyState>, key) => {
    ctx.state.synced.push(`${key} at ${ctx.now} pod=${!!listerGet(ctx.state.pods, `${key}-pod`)}`);
  },
});
const toy: ComponentDef<ToyState, ControllerEvent<'toy-worker'>> = {
  name: 'toy',
  identity: () => 'kubectl',
  init(ctx) {
    ctx.state = {
      deps: newInformer('deps', 'deployments'),
      pods: newInformer('pods', 'pods'),
      queue: newWorkQueue('toy'),
      workerPending: false,
      queued: [],
      synced: [],
      podEvents: 0,
    };
    toyController.run(ctx);
    return ctx.state;
  },
  handle(event, ctx) {
    toyController.handle(event, ctx);
  },
};

describe('controller', () => {
  it('opens the watches in the declared order, routes notifications to their informer, and runs the worker once per wake-up', () => {
    const w = testWorld({}, [toy]);
    w.kubectl({ verb: 'create', resource: 'deployments', namespace: 'default', body: deployment('web') });
    w.kubectl({ verb: 'create', resource: 'pods', namespace: 'default', body: pod('web-pod') });
    const mark = w.state.log.length;
    w.addComponent('toy', 'toy');
    const watches = w.state.log
      .slice(mark)
      .filter((r) => r.kind === 'request')
      .map((r) => r.path.split('?')[0]);
    expect(watches).toEqual(['/apis/apps/v1/deployments', '/api/v1/pods']);
    w.settle();
    const s = w.state.components.toy.state as ToyState;
    expect(s.podEvents).toBe(1);
    // One sync of the Deployment's key, a worker's delay after its add queued it.
    expect(s.synced.map((l) => l.replace(/ at \d+/, ''))).toEqual(['default/web pod=true']);
    expect(s.synced[0]).toBe(`default/web at ${s.queued[0] + WORKER_DELAY_MS} pod=true`);
    expect(s.workerPending).toBe(false);
    // An update goes to the Deployment informer's handlers: one more sync, nothing else.
    w.kubectl({
      verb: 'patch',
      resource: 'deployments',
      namespace: 'default',
      name: 'web',
      body: { metadata: { labels: { x: 'y' } } },
    });
    w.settle();
    expect(s.synced).toHaveLength(2);
    expect(s.podEvents).toBe(1);
  });
});
