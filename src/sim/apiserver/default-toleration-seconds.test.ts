import { describe, it, expect } from 'vitest';
import type { Pod } from 'kubernetes-types/core/v1';
import { mutate } from './default-toleration-seconds.ts';

const pod = (tolerations?: NonNullable<Pod['spec']>['tolerations']): Pod => ({
  metadata: { name: 'p' },
  spec: { containers: [{ name: 'c' }], tolerations },
});

describe('DefaultTolerationSeconds', () => {
  it('adds both tolerations with 300 s', () => {
    expect(mutate(pod()).spec!.tolerations).toEqual([
      { key: 'node.kubernetes.io/not-ready', operator: 'Exists', effect: 'NoExecute', tolerationSeconds: 300 },
      { key: 'node.kubernetes.io/unreachable', operator: 'Exists', effect: 'NoExecute', tolerationSeconds: 300 },
    ]);
  });
  it('keeps an existing one and adds the other', () => {
    const t = mutate(
      pod([{ key: 'node.kubernetes.io/unreachable', operator: 'Exists', effect: 'NoExecute', tolerationSeconds: 10 }]),
    ).spec!.tolerations!;
    expect(t.map((x) => [x.key, x.tolerationSeconds])).toEqual([
      ['node.kubernetes.io/unreachable', 10],
      ['node.kubernetes.io/not-ready', 300],
    ]);
  });
  it('an empty key or empty effect already tolerates', () => {
    expect(mutate(pod([{ operator: 'Exists' }])).spec!.tolerations).toEqual([{ operator: 'Exists' }]);
    expect(mutate(pod([{ key: 'node.kubernetes.io/not-ready', operator: 'Exists' }])).spec!.tolerations!.length).toBe(
      2,
    );
  });
  it('a NoSchedule toleration does not count', () => {
    expect(
      mutate(pod([{ key: 'node.kubernetes.io/not-ready', operator: 'Exists', effect: 'NoSchedule' }])).spec!
        .tolerations!.length,
    ).toBe(3);
  });
});
