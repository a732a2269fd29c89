// What a body is once it has been through the Go types: ObjectMeta's empty collections are dropped.
import { describe, expect, test } from 'vitest';
import { fixtureCluster } from '../testing/kubectl-fixture.ts';
import { runKubectl } from '../kubectl/kubectl.ts';
import { decodeBody } from './decode.ts';
import { omitEmptyMeta } from './omit-empty-meta.ts';

describe('omitEmptyMeta', () => {
  test('empty labels, annotations, ownerReferences and finalizers go; others stay', () => {
    const o = {
      kind: 'Pod',
      metadata: { name: 'p', labels: {}, annotations: { a: '' }, ownerReferences: [], finalizers: [] },
      spec: { nodeSelector: {} },
    };
    expect(omitEmptyMeta(o)).toEqual({
      kind: 'Pod',
      metadata: { name: 'p', annotations: { a: '' } },
      spec: { nodeSelector: {} },
    });
    expect(o.metadata.labels).toEqual({});
  });
  test('nothing empty: the same object', () => {
    const o = { metadata: { name: 'p', labels: { app: 'web' } } };
    expect(omitEmptyMeta(o)).toBe(o);
    expect(omitEmptyMeta({ spec: {} })).toEqual({ spec: {} });
  });
  test('decodeBody drops them for a typed resource and for one it does not type', () => {
    expect(decodeBody('pods', { metadata: { name: 'p', labels: {} } })).toEqual({ obj: { metadata: { name: 'p' } } });
    expect(decodeBody('leases', { metadata: { name: 'l', annotations: {} } })).toEqual({
      obj: { metadata: { name: 'l' } },
    });
  });
});

describe('the last label or annotation removed', () => {
  test('kubectl label/annotate KEY-: the object has no labels: {} / annotations: {} left', () => {
    const c = fixtureCluster();
    expect(runKubectl(c, 'annotate deployment web note=x').exitCode).toBe(0);
    expect(runKubectl(c, 'annotate deployment web note-').stdout).toBe('deployment.apps/web annotated\n');
    expect(runKubectl(c, 'label deployment web app-').stdout).toBe('deployment.apps/web unlabeled\n');
    const meta = JSON.parse(runKubectl(c, 'get deployment web -o json').stdout).metadata;
    expect(meta).not.toHaveProperty('labels');
    expect(meta).not.toHaveProperty('annotations');
  });
});

describe('quantities are stored as Quantity.MarshalJSON writes them', () => {
  test('"0.5" as "500m", "1.5Gi" as "1536Mi", a number as a string; a canonical one as it came', () => {
    const pod = (requests: Record<string, unknown>) => ({
      metadata: { name: 'p' },
      spec: { containers: [{ name: 'c', image: 'nginx', resources: { requests } }] },
    });
    const stored = (requests: Record<string, unknown>) =>
      (decodeBody('pods', pod(requests)) as { obj: { spec: { containers: { resources: { requests: unknown } }[] } } })
        .obj.spec.containers[0].resources.requests;
    expect(stored({ cpu: '0.5', memory: '1.5Gi', 'ephemeral-storage': 2 })).toEqual({
      cpu: '500m',
      memory: '1536Mi',
      'ephemeral-storage': '2',
    });
    const same = pod({ cpu: '250m', memory: '64Mi' });
    expect((decodeBody('pods', same) as { obj: unknown }).obj).toBe(same);
  });
  test('kubectl get shows what the API server stored', () => {
    const c = fixtureCluster();
    const manifest =
      'apiVersion: v1\nkind: Pod\nmetadata:\n  name: half\nspec:\n  containers:\n  - name: c\n    image: nginx\n    resources:\n      requests:\n        cpu: 0.5\n        memory: 0.5Gi\n';
    expect(runKubectl(c, 'apply -f -', manifest).exitCode).toBe(0);
    expect(
      runKubectl(c, ['get', 'pod', 'half', '-o', 'jsonpath={.spec.containers[0].resources.requests}']).stdout,
    ).toBe('{"cpu":"500m","memory":"512Mi"}');
  });
});
