// The oracle's own pieces: shell words, audit names, normalisation and the comparison's matching.
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { comparable, compareScenario, compareTraces, COMPONENTS, dedupe, flatten, lineDurations, matches, outputLine, queryDiffers, queryOf, sameLine, simComponentOf, unmatched, wild, type Explained } from './compare.ts';
import { shellWords } from './shell-words.ts';
import { auditFieldsOf, runInSimulator } from './sim-run.ts';
import { componentOf, leaderRenewals, normalise, Normaliser, transitionsOf, volatile, type RawRequest, type Trace } from './trace.ts';

const TRACES = join(import.meta.dirname, '..', '..', 'oracle', 'traces');

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
  it('renumbers a hash that ends a line of output, and makes describe\'s dates and resourceVersions alike', () => {
    const n = new Normaliser(Date.UTC(2026, 0, 1));
    n.hash('5d4b8c7f9');
    expect(n.str('replicaset.apps/web-5d4b8c7f9\nreplicaset.apps/web-5d4b8c7f9\n')).toBe('replicaset.apps/web-h1\nreplicaset.apps/web-h1\n');
    expect(volatile('Start Time:       Thu, 01 Jan 2026 00:01:05 +0000')).toBe('Start Time:       <date>');
    expect(volatile('  resourceVersion: "48213"\n"resourceVersion": "7"\n?resourceVersion=0&watch=true')).toBe('  resourceVersion: "<rv>"\n"resourceVersion": "<rv>"\n?resourceVersion=0&watch=true');
    expect(volatile(volatile('resourceVersion: "12"'))).toBe('resourceVersion: "<rv>"');
  });
  it('makes a leader-election identity\'s host alike, the uuid renumbered as any', () => {
    const n = new Normaliser(Date.UTC(2026, 0, 1));
    expect(n.str('ip-10-0-3-7.ec2.internal_0b1c2d3e-0000-4000-8000-000000000001 became leader')).toBe('<host>_uid-1 became leader');
    expect(volatile('control-plane_uid-4')).toBe('<host>_uid-4');
    expect(volatile('kube-api-access_x and node_1')).toBe('kube-api-access_x and node_1');
  });
  it('sees a leader Lease change hands', () => {
    const held = (h?: string) => ({ spec: h === undefined ? {} : { holderIdentity: h } });
    expect(transitionsOf(held('a_1'), held('b_2'), 'lease')).toEqual(['acquired']);
    expect(transitionsOf(held('a_1'), held(''), 'lease')).toEqual(['released']);
    expect(transitionsOf(held('a_1'), held('a_1'), 'lease')).toEqual([]);
  });
  it('counts the leader Leases\' renewals per line and keeps the acquiring requests', () => {
    const r = (t: number, verb: string, name = 'kube-scheduler', namespace = 'kube-system'): RawRequest => ({ t, component: 'scheduler', verb, resource: 'leases', namespace, name, uri: '', code: 200 });
    const reqs = [r(0, 'update', 'kube-controller-manager'), r(0, 'get'), r(1, 'update'), r(2, 'update'), r(5, 'update'), r(6, 'get'), r(7, 'update'), r(8, 'update'), r(9, 'update', 'node-1', 'kube-node-lease')];
    const { requests, renewals } = leaderRenewals(reqs, [{ line: 2, t: 0 }, { line: 3, t: 4 }]);
    expect(requests.map((x) => `${x.t} ${x.verb}`)).toEqual(['0 get', '1 update', '6 get', '7 update', '9 update']);
    expect(renewals).toEqual({ scheduler: { 2: 2, 3: 2 } });
  });
  it('sees a pod deletion that finished between two observations', () => {
    expect(transitionsOf({ metadata: {} }, undefined, 'pod')).toEqual(['deleting', 'deleted']);
    expect(transitionsOf({ status: { conditions: [{ type: 'Ready', status: 'True' }] } }, { status: { conditions: [{ type: 'Ready', status: 'Unknown' }] }, spec: { taints: [{ key: 'node.kubernetes.io/unreachable', effect: 'NoSchedule' }] } }, 'node'))
      .toEqual(['Ready=Unknown', 'taint+ node.kubernetes.io/unreachable:NoSchedule']);
  });
});

describe('comparison', () => {
  it('aligns sequences and flattens objects by name', () => {
    expect(unmatched(['a', 'b', 'c', 'd'], ['a', 'c', 'x', 'd'], (x, y) => x === y)).toEqual({ onlyA: ['b'], onlyB: ['x'], pairs: 3, matched: [[0, 0], [2, 1], [3, 3]] });
    expect(flatten({ kind: 'Pod', status: { conditions: [{ type: 'Ready', status: 'True', lastTransitionTime: 'T+3s' }] } }))
      .toEqual({ 'status.conditions[Ready].type': 'Ready', 'status.conditions[Ready].status': 'True', 'status.conditions[Ready].lastTransitionTime': '<time>' });
    expect(wild('web-h1-p3 on ip-2')).toBe('web-h1-p* on ip-*');
    expect(outputLine('web-h1-p2   1/1     Running   0          2m5s')).toBe('web-h1-p* 1/1 Running 0 <age>');
  });
  it('matches explained differences field by field with wildcards, a list as any of its values', () => {
    const e: Explained = { match: { kind: 'request', component: 'kubelet/*', verb: ['get', 'list'] }, reason: 'r', max: 1 };
    expect(matches(e, { scenario: 's', kind: 'request', component: 'kubelet/node-1', verb: 'get' })).toBe(true);
    expect(matches(e, { scenario: 's', kind: 'request', component: 'kubelet/node-1', verb: 'list' })).toBe(true);
    expect(matches(e, { scenario: 's', kind: 'request', component: 'kubelet/node-1', verb: 'watch' })).toBe(false);
    expect(matches(e, { scenario: 's', kind: 'request', component: 'scheduler', verb: 'get' })).toBe(false);
  });
  it('names every real component as the simulator does, and refuses one it does not know', () => {
    expect(simComponentOf('generic-garbage-collector')).toBe('garbage-collector');
    expect(simComponentOf('node-controller')).toBe('node-lifecycle-controller');
    expect(simComponentOf('kubelet/node-3')).toBe('kubelet/node-3');
    expect(simComponentOf('legacy-service-account-token-cleaner')).toBe('legacy-service-account-token-cleaner');
    expect(() => simComponentOf('cronjob-controller')).toThrow(/has no name in the simulator/);
    // Every name a committed trace holds is known (oracle/traces/proxy/ holds kube-proxy rules, not traces).
    for (const f of readdirSync(TRACES).filter((x) => x.endsWith('.json'))) for (const c of Object.keys((JSON.parse(readFileSync(join(TRACES, f), 'utf8')) as Trace).components)) expect(() => simComponentOf(c), c).not.toThrow();
    expect(Object.values(COMPONENTS)).toContain('garbage-collector');
  });
  it('compares query strings parameter by parameter, with what differs by run made alike', () => {
    expect(queryOf('/api/v1/nodes/node-3?resourceVersion=0', 'get')).toBe('resourceVersion=0');
    expect(queryOf('/api/v1/pods?allowWatchBookmarks=true&resourceVersion=4812&timeout=6m28s&timeoutSeconds=388&watch=true', 'watch'))
      .toBe('allowWatchBookmarks=true&resourceVersion=<rv>&timeout=<random>&timeoutSeconds=<random>&watch=true');
    expect(queryOf('/api/v1/nodes/node-1/status?timeout=10s', 'patch')).toBe('timeout=10s');
    expect(queryOf('/api/v1/namespaces/default/pods', 'list')).toBe('');
    expect(queryOf('/api/v1/events?fieldSelector=involvedObject.uid%3Dx%2CinvolvedObject.name%3Dweb&limit=500', 'list'))
      .toBe(queryOf('/api/v1/events?fieldSelector=involvedObject.name%3Dweb%2CinvolvedObject.uid%3Dx&limit=500', 'list'));
    expect(queryDiffers('fieldManager=kubectl-create&fieldValidation=Strict', '')).toBe('fieldManager,fieldValidation');
    expect(queryDiffers('a=1&b=2', 'b=2&a=1')).toBe('');
    expect(queryDiffers('limit=500', 'limit=50')).toBe('limit');
  });
  it('lets a template hash an old recorder left at a line end stand for any template', () => {
    const t = { scenario: 's', script: '', dropped: {}, components: {}, transitions: [],
      steps: [{ line: 1, command: 'kubectl get rs -o name', t: 0, exitCode: 0, stdout: ['replicaset.apps/web-5d4b8c7f9', 'Since: Thu, 01 Jan 2026 00:01:05 +0000'], stderr: [] }],
      checkpoints: [{ line: 0, t: 1, objects: { 'replicasets/default/web-h1': {} }, events: [] }] } as Trace;
    const c = comparable(t);
    expect(c.steps[0].stdout).toEqual(['replicaset.apps/web-h*', 'Since: <date>']);
    expect(sameLine('replicaset.apps/web-h*', 'replicaset.apps/web-h2')).toBe(true);
    expect(sameLine('replicaset.apps/web-h2', 'replicaset.apps/web-h*')).toBe(true);
    expect(sameLine('replicaset.apps/web-h*', 'replicaset.apps/api-h2')).toBe(false);
    expect(sameLine('web-h1', 'web-h2')).toBe(false);
    expect(lineDurations({ ...t, steps: [{ ...t.steps[0], t: 0 }, { ...t.steps[0], line: 2, t: 0.4 }] })).toEqual([400, 600]);
  });
  it('finds no difference between a simulated run and itself', () => {
    const script = readFileSync(join(import.meta.dirname, '..', '..', 'oracle', 'scenarios', 'scale.sim'), 'utf8');
    const a = comparable(normalise(runInSimulator('scale', script)));
    const r = compareTraces(a, comparable(normalise(runInSimulator('scale', script))));
    expect(dedupe(r.diffs)).toEqual([]);
    expect(r.compared).toBeGreaterThan(100);
  });
  it('plays each line as long as the recording did: a kubectl line and a settle take the real seconds', () => {
    const script = 'kubectl create deployment web --image=nginx:1.27 --replicas=1\nsim settle 5s\nkubectl get pods\n';
    const run = runInSimulator('t', script, 1, [2500, 9000, 100]);
    expect(run.steps.map((s) => s.t)).toEqual([0, 2500, 11500]);
  });
  it('sees the request the garbage collector does not send, the query parameters the informers do not and the leader election, in the recorded control-plane scenario', () => {
    const real = JSON.parse(readFileSync(join(TRACES, 'control-plane.json'), 'utf8')) as Trace;
    const diffs = dedupe(compareScenario(real).diffs);
    expect(diffs).toContainEqual(expect.objectContaining({ kind: 'request', side: 'real-only', component: 'garbage-collector', verb: 'get', resource: 'deployments' }));
    expect(diffs.some((d) => d.kind === 'request' && d.side === 'query' && d.component.startsWith('kubelet/') && d.differs.includes('sendInitialEvents'))).toBe(true);
    // Leader election, recorded on: the scheduler hands its Lease back at the stop, both are taken
    // again after the start, in time on both sides, and each process renews as often.
    expect(real.transitions.filter((x) => x.subject.startsWith('lease/')).map((x) => `${x.subject} ${x.what}`))
      .toEqual(['lease/kube-scheduler released', 'lease/kube-scheduler acquired', 'lease/kube-controller-manager acquired']);
    expect(diffs.filter((d) => (d.kind === 'transition' && d.subject.startsWith('lease/')) || d.kind === 'renewals')).toEqual([]);
    expect(Object.keys(real.renewals ?? {}).sort()).toEqual(['kube-controller-manager', 'scheduler']);
    // kubectl's watches carry the reflector's timeoutSeconds now: no query of kubectl's differs.
    expect(diffs.filter((d) => d.kind === 'request' && d.side === 'query' && d.component === 'kubectl')).toEqual([]);
  });
});
