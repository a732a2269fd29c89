import { describe, it, expect } from 'vitest';
import type { Node } from 'kubernetes-types/core/v1';
import {
  doNoScheduleTaintingPass,
  applyNoScheduleTaints,
  swapNodeControllerTaint,
  markNodeAsReachable,
  noExecuteSwapFor,
  isNodeExcludedFromDisruptionChecks,
  UnreachableTaintTemplate,
  NotReadyTaintTemplate,
} from './taints.ts';
import { rfc3339 } from '../util/time.ts';

const node = (conds: [string, string][], extra: Partial<Node['spec']> = {}): Node => ({
  metadata: { name: 'node-1' },
  spec: { ...extra },
  status: { conditions: conds.map(([type, status]) => ({ type, status })) },
});
const keys = (ts: { key: string; effect: string }[]) => ts.map((t) => `${t.key}:${t.effect}`);

describe('doNoScheduleTaintingPass', () => {
  it.each<[[string, string][], boolean, string[]]>([
    [[['Ready', 'True']], false, []],
    [[['Ready', 'False']], false, ['node.kubernetes.io/not-ready:NoSchedule']],
    [
      [
        ['Ready', 'Unknown'],
        ['MemoryPressure', 'Unknown'],
      ],
      false,
      ['node.kubernetes.io/unreachable:NoSchedule'],
    ],
    [
      [
        ['Ready', 'True'],
        ['MemoryPressure', 'True'],
        ['DiskPressure', 'True'],
        ['PIDPressure', 'True'],
        ['NetworkUnavailable', 'True'],
      ],
      false,
      [
        'node.kubernetes.io/memory-pressure:NoSchedule',
        'node.kubernetes.io/disk-pressure:NoSchedule',
        'node.kubernetes.io/pid-pressure:NoSchedule',
        'node.kubernetes.io/network-unavailable:NoSchedule',
      ],
    ],
    [[['Ready', 'True']], true, ['node.kubernetes.io/unschedulable:NoSchedule']],
  ])('%j unschedulable=%s → %j', (conds, unschedulable, want) => {
    expect(keys(doNoScheduleTaintingPass(node(conds, { unschedulable })).taintsToAdd)).toEqual(want);
  });

  it('removes its own stale taints but leaves user taints', () => {
    const n = node([['Ready', 'True']], {
      taints: [
        { key: 'node.kubernetes.io/unreachable', effect: 'NoSchedule' },
        { key: 'gpu', effect: 'NoSchedule' },
      ],
    });
    const d = doNoScheduleTaintingPass(n);
    expect([keys(d.taintsToAdd), keys(d.taintsToDel)]).toEqual([[], ['node.kubernetes.io/unreachable:NoSchedule']]);
    expect(keys(applyNoScheduleTaints(n, 0).spec!.taints!)).toEqual(['gpu:NoSchedule']);
  });

  it('Ready False → Unknown swaps not-ready for unreachable', () => {
    const n = node([['Ready', 'Unknown']], {
      taints: [{ key: 'node.kubernetes.io/not-ready', effect: 'NoSchedule', timeAdded: rfc3339(0) }],
    });
    expect(keys(applyNoScheduleTaints(n, 5000).spec!.taints!)).toEqual(['node.kubernetes.io/unreachable:NoSchedule']);
  });
});

describe('NoExecute taints', () => {
  it('swap picks the taint for the Ready status', () => {
    expect(noExecuteSwapFor('False')).toEqual({ add: NotReadyTaintTemplate, remove: UnreachableTaintTemplate });
    expect(noExecuteSwapFor('Unknown')).toEqual({ add: UnreachableTaintTemplate, remove: NotReadyTaintTemplate });
    expect(noExecuteSwapFor('True')).toBeUndefined();
  });

  it('swapNodeControllerTaint stamps timeAdded and keeps an existing one', () => {
    let n = swapNodeControllerTaint(node([]), [UnreachableTaintTemplate], [NotReadyTaintTemplate], 60_000);
    expect(n.spec!.taints).toEqual([
      { key: 'node.kubernetes.io/unreachable', effect: 'NoExecute', timeAdded: '2026-01-01T00:01:00Z' },
    ]);
    n = swapNodeControllerTaint(n, [UnreachableTaintTemplate], [], 90_000);
    expect(n.spec!.taints![0].timeAdded).toBe('2026-01-01T00:01:00Z');
    n = swapNodeControllerTaint(n, [NotReadyTaintTemplate], [UnreachableTaintTemplate], 95_000);
    expect(keys(n.spec!.taints!)).toEqual(['node.kubernetes.io/not-ready:NoExecute']);
  });

  it('markNodeAsReachable removes both NoExecute taints only', () => {
    const n = node([], {
      taints: [
        UnreachableTaintTemplate,
        { key: 'node.kubernetes.io/unreachable', effect: 'NoSchedule' },
        NotReadyTaintTemplate,
      ],
    });
    const r = markNodeAsReachable(n);
    expect([r.removed, keys(r.node.spec!.taints!)]).toEqual([true, ['node.kubernetes.io/unreachable:NoSchedule']]);
    expect(markNodeAsReachable(r.node).removed).toBe(false);
  });

  it('exclude-disruption label, any value', () => {
    expect(
      isNodeExcludedFromDisruptionChecks({ metadata: { labels: { 'node.kubernetes.io/exclude-disruption': '' } } }),
    ).toBe(true);
    expect(isNodeExcludedFromDisruptionChecks({ metadata: {} })).toBe(false);
  });
});
