// The incremental relist (only the containers set in place since the last relist) must report exactly
// what comparing every container reports, whatever the runtime did in between.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { createRng, float, int, type RngState } from '../rng.ts';
import {
  CreateContainer,
  RemovePodSandbox,
  RunPodSandbox,
  StartContainer,
  StopContainer,
  containerExited,
  newRuntimeState,
} from './container-runtime.ts';
import { newDict } from '../util/dict.ts';
import type { KubeletState } from './kubelet-state.ts';
import { plegSeen } from './pleg-cache.ts';
import { newPodIPAllocator } from './pod-ip.ts';
import { relist, relistPending } from './pleg.ts';
import { runs } from '../../test/fc.ts';

type Op = 'sandbox' | 'create' | 'start' | 'exit' | 'stop' | 'remove' | 'forget' | 'relist' | 'pending';
const OPS: Op[] = [
  'sandbox',
  'create',
  'start',
  'start',
  'exit',
  'stop',
  'remove',
  'forget',
  'relist',
  'relist',
  'pending',
];

function newState(): KubeletState {
  return {
    runtime: newRuntimeState('node-1', newPodIPAllocator('10.244.1.0/24')),
    plegCache: newDict(),
    workers: newDict(),
  } as unknown as KubeletState;
}

/** Apply one operation (choices drawn from `rng`); relists go through `full` or the incremental path. */
function step(st: KubeletState, rng: RngState, op: Op, full: boolean, out: unknown[]): void {
  const r = () => float(rng);
  const ids = (state?: string) =>
    Object.keys(st.runtime.containers).filter((id) => !state || st.runtime.containers[id].state === state);
  const sandboxes = Object.keys(st.runtime.sandboxes);
  const choose = <T>(xs: T[]): T | undefined => (xs.length ? xs[int(rng, xs.length)] : undefined);
  switch (op) {
    case 'sandbox': {
      const name = `p${int(rng, 1000)}`;
      const res = RunPodSandbox(st.runtime, { uid: name, name, namespace: 'ns', attempt: 0 }, 0, r);
      st.runtime = res.state;
      if (res.sandbox) st.workers[`ns/${name}`] = { key: `ns/${name}`, sandboxId: res.sandbox.id } as never;
      return;
    }
    case 'create': {
      const sb = choose(sandboxes);
      if (sb)
        st.runtime = CreateContainer(
          st.runtime,
          { sandboxId: sb, name: 'app', image: 'registry.k8s.io/pause:3.10', restartCount: 0 },
          0,
          r,
        ).state;
      return;
    }
    case 'start': {
      const id = choose(ids('CONTAINER_CREATED'));
      if (id) st.runtime = StartContainer(st.runtime, id, 1).state;
      return;
    }
    case 'exit': {
      const id = choose(ids('CONTAINER_RUNNING'));
      if (id) st.runtime = containerExited(st.runtime, id, 2, { exitCode: 1 });
      return;
    }
    case 'stop': {
      const id = choose(ids());
      if (id) st.runtime = StopContainer(st.runtime, id, 30, 3).state;
      return;
    }
    case 'remove': {
      const sb = choose(sandboxes);
      if (sb) st.runtime = RemovePodSandbox(st.runtime, sb, 4).state;
      return;
    }
    case 'forget': {
      // teardown: drop a container's cache entry (and the relist's token with it)
      const id = choose(Object.keys(st.plegCache));
      if (id) {
        delete st.plegCache[id];
        plegSeen.delete(st.plegCache);
      }
      return;
    }
    case 'relist':
      out.push(relist(st, full));
      out.push(structuredClone(st.plegCache));
      return;
    case 'pending':
      out.push(relistPending(st, full));
      return;
  }
}

describe('PLEG relist', () => {
  it('the incremental relist reports what the full comparison reports', () => {
    fc.assert(
      fc.property(fc.array(fc.constantFrom(...OPS), { maxLength: 80 }), fc.integer(), (ops, seed) => {
        const a = newState(),
          b = newState();
        const ra = createRng(seed),
          rb = createRng(seed);
        const outA: unknown[] = [],
          outB: unknown[] = [];
        for (const op of ops) {
          step(a, ra, op, false, outA);
          step(b, rb, op, true, outB);
        }
        step(a, ra, 'relist', false, outA);
        step(b, rb, 'relist', true, outB);
        expect(outA).toEqual(outB);
      }),
      { numRuns: runs(0.3) },
    );
  });
});
