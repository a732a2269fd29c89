import { describe, expect, it } from 'vitest';
import { REPLICASET_STATUS_OMITEMPTY, omitZero } from './omitempty.ts';

describe('omitZero', () => {
  it('drops the omitempty fields that are 0 and keeps replicas', () => {
    expect(
      omitZero(
        { replicas: 0, readyReplicas: 0, availableReplicas: 2, fullyLabeledReplicas: 0, observedGeneration: 1 },
        REPLICASET_STATUS_OMITEMPTY,
      ),
    ).toEqual({ replicas: 0, availableReplicas: 2, observedGeneration: 1 });
  });
  it('returns the same object when nothing is 0', () => {
    const s = { replicas: 1, readyReplicas: 1 };
    expect(omitZero(s, REPLICASET_STATUS_OMITEMPTY)).toBe(s);
  });
});
