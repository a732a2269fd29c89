import { describe, expect, it } from 'vitest';
import type { Pod } from 'kubernetes-types/core/v1';
import {
  fromUnstructured,
  isMap,
  nestedBool,
  nestedField,
  nestedMap,
  nestedNumber,
  nestedSlice,
  nestedString,
  nestedStringMap,
  toUnstructured,
  type Unstructured,
} from './unstructured.ts';

const pod: Unstructured & { metadata: Unstructured } = {
  apiVersion: 'v1',
  kind: 'Pod',
  metadata: { name: 'web', labels: { app: 'web' }, annotations: { n: 1 } },
  spec: { containers: [{ name: 'c', image: 'nginx' }], hostNetwork: false, priority: 0 },
  status: null,
};

describe('unstructured accessors', () => {
  it('walk a path and answer the value of the asked type', () => {
    expect(nestedString(pod, 'metadata', 'name')).toBe('web');
    expect(nestedBool(pod, 'spec', 'hostNetwork')).toBe(false);
    expect(nestedNumber(pod, 'spec', 'priority')).toBe(0);
    expect(nestedSlice(pod, 'spec', 'containers')).toHaveLength(1);
    expect(nestedMap(pod, 'metadata')).toBe(pod.metadata);
    expect(nestedStringMap(pod, 'metadata', 'labels')).toEqual({ app: 'web' });
    expect(nestedField(pod)).toBe(pod);
  });
  it('answer undefined for a missing step, a null, an array or another type', () => {
    expect(nestedString(pod, 'metadata', 'namespace')).toBeUndefined();
    expect(nestedString(pod, 'status', 'phase')).toBeUndefined();
    expect(nestedString(pod, 'spec', 'containers', '0')).toBeUndefined();
    expect(nestedNumber(pod, 'metadata', 'name')).toBeUndefined();
    expect(nestedBool(pod, 'spec', 'priority')).toBeUndefined();
    expect(nestedSlice(pod, 'metadata')).toBeUndefined();
    expect(nestedMap(pod, 'spec', 'containers')).toBeUndefined();
    expect(nestedStringMap(pod, 'metadata', 'annotations')).toBeUndefined();
    expect(nestedString(undefined, 'a')).toBeUndefined();
    expect(isMap(null)).toBe(false);
    expect(isMap([])).toBe(false);
  });
  it('converts without copying', () => {
    const typed = fromUnstructured<Pod>(pod);
    expect(typed.spec?.containers[0]?.image).toBe('nginx');
    expect(toUnstructured(typed)).toBe(pod);
  });
});
