// What a body is once it has been through the Go types: ObjectMeta's empty collections are dropped.
import { describe, expect, test } from 'vitest';
import { fixtureCluster } from '../testing/kubectl-fixture.ts';
import { runKubectl } from '../kubectl/kubectl.ts';
import { decodeBody } from './decode.ts';
import { omitEmptyMeta } from './omit-empty-meta.ts';

describe('omitEmptyMeta', () => {
  test('empty labels, annotations, ownerReferences and finalizers go; others stay', () => {
    const o = { kind: 'Pod', metadata: { name: 'p', labels: {}, annotations: { a: '' }, ownerReferences: [], finalizers: [] }, spec: { nodeSelector: {} } };
    expect(omitEmptyMeta(o)).toEqual({ kind: 'Pod', metadata: { name: 'p', annotations: { a: '' } }, spec: { nodeSelector: {} } });
    expect(o.metadata.labels).toEqual({});
  });
  test('nothing empty: the same object', () => {
    const o = { metadata: { name: 'p', labels: { app: 'web' } } };
    expect(omitEmptyMeta(o)).toBe(o);
    expect(omitEmptyMeta({ spec: {} })).toEqual({ spec: {} });
  });
  test('decodeBody drops them for a typed resource and for one it does not type', () => {
    expect(decodeBody('pods', { metadata: { name: 'p', labels: {} } })).toEqual({ obj: { metadata: { name: 'p' } } });
    expect(decodeBody('leases', { metadata: { name: 'l', annotations: {} } })).toEqual({ obj: { metadata: { name: 'l' } } });
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
