import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import type { Pod } from './k8s-types.ts';
import { addPod, cloneNodeInfo, newNodeInfo, removePod, setNode } from './node-info.ts';
import { countPodsMatchSelector, filterTopologySpreadConstraints, matchCounter } from './pod-topology-spread.ts';
import { countSingleValueIn } from './match-counts.ts';
import { makeNode, makePod } from '../testing/scheduler.ts';
import { runs } from '../../test/fc.ts';

const constraintFor = (matchLabels: Record<string, string>) =>
  filterTopologySpreadConstraints(
    [
      {
        maxSkew: 1,
        topologyKey: 'kubernetes.io/hostname',
        whenUnsatisfiable: 'ScheduleAnyway',
        labelSelector: { matchLabels },
      },
    ],
    {},
    'ScheduleAnyway',
  )[0];

describe('NodeInfo.matchCounts kept by AddPod/RemovePod', () => {
  it('always equals a fresh countPodsMatchSelector', () => {
    const selectors = [
      ...([{ app: 'web' }, { app: 'db' }, { app: 'web', tier: 'fe' }] as Record<string, string>[]).map(constraintFor),
      // What a ReplicaSet's matchLabels becomes in the default constraints: one "In" requirement.
      filterTopologySpreadConstraints(
        [
          {
            maxSkew: 1,
            topologyKey: 'kubernetes.io/hostname',
            whenUnsatisfiable: 'ScheduleAnyway',
            labelSelector: { matchExpressions: [{ key: 'tier', operator: 'In', values: ['fe'] }] },
          },
        ],
        {},
        'ScheduleAnyway',
      )[0],
      // A Deployment's ReplicaSet: two one-value "In" requirements; and one the equality reads can't serve.
      filterTopologySpreadConstraints(
        [
          {
            maxSkew: 1,
            topologyKey: 'kubernetes.io/hostname',
            whenUnsatisfiable: 'ScheduleAnyway',
            labelSelector: {
              matchExpressions: [
                { key: 'app', operator: 'In', values: ['web'] },
                { key: 'tier', operator: 'In', values: ['fe'] },
              ],
            },
          },
        ],
        {},
        'ScheduleAnyway',
      )[0],
      filterTopologySpreadConstraints(
        [
          {
            maxSkew: 1,
            topologyKey: 'kubernetes.io/hostname',
            whenUnsatisfiable: 'ScheduleAnyway',
            labelSelector: {
              matchLabels: { app: 'db' },
              matchExpressions: [{ key: 'tier', operator: 'NotIn', values: ['fe'] }],
            },
          },
        ],
        {},
        'ScheduleAnyway',
      )[0],
    ];
    const op = fc.record({
      kind: fc.constantFrom('add', 'add', 'remove', 'setNode', 'count'),
      app: fc.constantFrom('web', 'db'),
      tier: fc.constantFrom(undefined, 'fe'),
      ns: fc.constantFrom('default', 'other'),
      terminating: fc.boolean(),
      sel: fc.integer({ min: 0, max: 5 }),
      pick: fc.nat(),
    });
    fc.assert(
      fc.property(fc.array(op, { maxLength: 40 }), (ops) => {
        const ni = newNodeInfo(makeNode('n1'));
        const pods: Pod[] = [];
        ops.forEach((o, k) => {
          if (o.kind === 'add') {
            const made = makePod(`p${k}`, [], {
              namespace: o.ns,
              labels: { app: o.app, ...(o.tier ? { tier: o.tier } : {}) },
            });
            const p: Pod = o.terminating
              ? { ...made, metadata: { ...made.metadata, deletionTimestamp: '2026-01-01T00:00:00Z' } }
              : made;
            addPod(ni, p);
            pods.push(p);
          } else if (o.kind === 'remove' && pods.length) {
            removePod(ni, pods.splice(o.pick % pods.length, 1)[0]);
          } else if (o.kind === 'setNode') {
            setNode(ni, makeNode('n1'));
          } else {
            matchCounter(selectors[o.sel], o.ns)(ni);
          }
          // A dry-run copy must not move the original's counts.
          if (pods.length) removePod(cloneNodeInfo(ni), pods[0]);
          for (const c of selectors) {
            for (const ns of ['default', 'other']) {
              const key = matchCounter(c, ns).key;
              if (ni.matchCounts?.[key] !== undefined && ni.matchCountsGeneration === ni.generation) {
                expect(ni.matchCounts[key]).toBe(countPodsMatchSelector(ni.pods, c.selector, ns));
              }
              expect(matchCounter(c, ns)(ni)).toBe(countPodsMatchSelector(ni.pods, c.selector, ns));
              // The one-label-read count of a "key In (value)" selector agrees with the general one.
              const single = countSingleValueIn(key, ni.pods);
              if (single !== undefined) expect(single).toBe(countPodsMatchSelector(ni.pods, c.selector, ns));
            }
          }
        });
      }),
      { numRuns: runs(0.2) },
    );
  });

  it('trusts restored counts only when every key is known here', () => {
    const c = constraintFor({ app: 'web' });
    const ni = newNodeInfo(makeNode('n1'), [makePod('a', [], { labels: { app: 'web' } })]);
    expect(matchCounter(c, 'default')(ni)).toBe(1);
    // A snapshot's copy (plain data) with a key this process never made: the counts are dropped.
    const odd = structuredClone(ni);
    odd.matchCounts!['default\u0000never-made'] = 7;
    odd.matchCountKeys!.push('default\u0000never-made');
    addPod(odd, makePod('b', [], { labels: { app: 'web' } }));
    expect(odd.matchCountsGeneration).not.toBe(odd.generation);
    expect(matchCounter(c, 'default')(odd)).toBe(2);
    // A copy with known keys only keeps counting.
    const fine = structuredClone(ni);
    addPod(fine, makePod('b', [], { labels: { app: 'web' } }));
    expect(fine.matchCountsGeneration).toBe(fine.generation);
    expect(matchCounter(c, 'default')(fine)).toBe(2);
  });
});
