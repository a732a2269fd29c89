import { describe, expect, it } from 'vitest';
import { RECORDS } from './fixtures.ts';
import { trafficByEndpoint } from './traffic.ts';

describe('traffic', () => {
  it('puts each record on both its ends, grouping a fan-out at the sender', () => {
    const m = trafficByEndpoint(RECORDS);
    const api = m.get('kube-apiserver')!;
    const watch = api.out.find((c) => c.kind === 'watch')!;
    expect(watch.to).toEqual(['kubelet/node-2', 'kube-controller-manager']);
    expect(watch.seqs).toEqual([103, 104]);
    expect(api.in.map((r) => r.seq)).toEqual([101, 106, 107, 108]);
    expect(m.get('containerd/node-2')!.in.map((r) => r.label)).toEqual(['RunPodSandbox']);
  });
});
