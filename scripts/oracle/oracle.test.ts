// The oracle's own pieces: shell words, audit names, normalisation and the comparison's matching.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { compareTraces, dedupe, flatten, matches, outputLine, unmatched, wild, type Explained } from './compare.ts';
import { shellWords } from './shell-words.ts';
import { auditFieldsOf, runInSimulator } from './sim-run.ts';
import { componentOf, normalise, Normaliser, transitionsOf } from './trace.ts';

describe('shellWords', () => {
  it('splits like a shell: quotes, escapes, no expansion', () => {
    expect(shellWords(`kubectl get pods -o 'jsonpath={.items[*].metadata.name}' --selector="app=web x" a\\ b`))
      .toEqual(['kubectl', 'get', 'pods', '-o', 'jsonpath={.items[*].metadata.name}', '--selector=app=web x', 'a b']);
    expect(() => shellWords(`kubectl get 'pods`)).toThrow(/unterminated/);
  });
});

describe('audit names', () => {
  it('maps request paths to the audit log verbs and resources', () => {
    expect(auditFieldsOf('POST', '/api/v1/namespaces/default/pods/web-1/binding')).toEqual({ verb: 'create', resource: 'pods', subresource: 'binding', namespace: 'default', name: 'web-1' });
    expect(auditFieldsOf('GET', '/apis/apps/v1/namespaces/default/deployments')).toEqual({ verb: 'list', resource: 'deployments', namespace: 'default' });
    expect(auditFieldsOf('WATCH', '/api/v1/pods?watch=true&resourceVersion=4')).toEqual({ verb: 'watch', resource: 'pods' });
    expect(auditFieldsOf('GET', '/api/v1/namespaces/kube-system')).toEqual({ verb: 'get', resource: 'namespaces', name: 'kube-system' });
    expect(auditFieldsOf('DELETE', '/api/v1/namespaces/default/pods')).toEqual({ verb: 'deletecollection', resource: 'pods', namespace: 'default' });
    expect(auditFieldsOf('GET', '/healthz')).toBeUndefined();
  });
  it('names components as the simulator does', () => {
    expect(componentOf('system:node:node-2')).toBe('kubelet/node-2');
    expect(componentOf('system:serviceaccount:kube-system:replicaset-controller', 'kube-controller-manager/v1.37.2 (linux/amd64)')).toBe('replicaset-controller');
    expect(componentOf('kube-apiserver-kubelet-client')).toBeUndefined();
    expect(componentOf('kubernetes-admin')).toBe('kubectl');
  });
});

describe('Normaliser', () => {
  it('renumbers hashes, pods, UIDs, IPs in order of first sight and makes times relative', () => {
    const n = new Normaliser(Date.UTC(2026, 0, 1));
    n.hash('5d4b8c7f9');
    expect(n.str('web-5d4b8c7f9-x2kzq and web-5d4b8c7f9-bcdfg, web-5d4b8c7f9-x2kzq')).toBe('web-h1-p1 and web-h1-p2, web-h1-p1');
    expect(n.str('pod "web-5d4b8c7f9-x2kzq_default(0b1c2d3e-0000-4000-8000-000000000001)"')).toBe('pod "web-h1-p1_default(uid-1)"');
    expect(n.str('10.244.1.7 then 10.244.2.3 then 10.244.1.7')).toBe('ip-1 then ip-2 then ip-1');
    expect(n.value({ at: '2026-01-01T00:01:05Z', volume: 'kube-api-access-9xz2q' })).toEqual({ at: 'T+65s', volume: 'kube-api-access-v1' });
  });
  it('sees a pod deletion that finished between two observations', () => {
    expect(transitionsOf({ metadata: {} }, undefined, 'pod')).toEqual(['deleting', 'deleted']);
    expect(transitionsOf({ status: { conditions: [{ type: 'Ready', status: 'True' }] } }, { status: { conditions: [{ type: 'Ready', status: 'Unknown' }] }, spec: { taints: [{ key: 'node.kubernetes.io/unreachable', effect: 'NoSchedule' }] } }, 'node'))
      .toEqual(['Ready=Unknown', 'taint+ node.kubernetes.io/unreachable:NoSchedule']);
  });
});

describe('comparison', () => {
  it('aligns sequences and flattens objects by name', () => {
    expect(unmatched(['a', 'b', 'c', 'd'], ['a', 'c', 'x', 'd'], (x, y) => x === y)).toEqual({ onlyA: ['b'], onlyB: ['x'], pairs: 3 });
    expect(flatten({ kind: 'Pod', status: { conditions: [{ type: 'Ready', status: 'True', lastTransitionTime: 'T+3s' }] } }))
      .toEqual({ 'status.conditions[Ready].type': 'Ready', 'status.conditions[Ready].status': 'True', 'status.conditions[Ready].lastTransitionTime': '<time>' });
    expect(wild('web-h1-p3 on ip-2')).toBe('web-h1-p* on ip-*');
    expect(outputLine('web-h1-p2   1/1     Running   0          2m5s')).toBe('web-h1-p* 1/1 Running 0 <age>');
  });
  it('matches explained differences field by field with wildcards', () => {
    const e: Explained = { match: { kind: 'request', component: 'kubelet/*', verb: 'get' }, reason: 'r' };
    expect(matches(e, { scenario: 's', kind: 'request', component: 'kubelet/node-1', verb: 'get' })).toBe(true);
    expect(matches(e, { scenario: 's', kind: 'request', component: 'scheduler', verb: 'get' })).toBe(false);
  });
  it('finds no difference between a simulated run and itself', () => {
    const script = readFileSync(join(import.meta.dirname, '..', '..', 'oracle', 'scenarios', 'scale.sim'), 'utf8');
    const a = normalise(runInSimulator('scale', script));
    const r = compareTraces(a, normalise(runInSimulator('scale', script)));
    expect(dedupe(r.diffs)).toEqual([]);
    expect(r.compared).toBeGreaterThan(100);
  });
});
