// Tables ported from kubernetes/kubernetes unit tests (same inputs, same expected numbers):
//   pkg/controller/deployment/util/deployment_util_test.go
//   pkg/controller/deployment/rolling_test.go
//   pkg/controller/deployment/sync_test.go
//   staging/src/k8s.io/apimachinery/pkg/util/intstr/intstr_test.go
// plus fast-check properties of the rolling-update planner.
import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import type { Deployment, ReplicaSet } from 'kubernetes-types/apps/v1';
import type { PodTemplateSpec } from 'kubernetes-types/core/v1';
import {
  applyScale,
  calculateStatus,
  checkPausedConditions,
  cleanupDeployment,
  cleanupUnhealthyReplicas,
  DesiredReplicasAnnotation,
  deploymentComplete,
  deploymentProgressing,
  deploymentTimedOut,
  equalIgnoreHash,
  findNewReplicaSet,
  findOldReplicaSets,
  getActualReplicaCountForReplicaSets,
  getNewReplicaSet,
  getProportion,
  getReplicaCountForReplicaSets,
  getReplicaSetFraction,
  getScaledValueFromIntOrPercent,
  isSaturated,
  lastRevision,
  MaxInt32,
  MaxReplicasAnnotation,
  maxRevision,
  maxSurge,
  maxUnavailable,
  minAvailable,
  newRSNewReplicas,
  reconcileNewReplicaSet,
  reconcileOldReplicaSets,
  replicaSetsBySizeNewerLess,
  replicaSetsBySizeOlderLess,
  requeueStuckDeployment,
  resolveFenceposts,
  RevisionAnnotation,
  RevisionHistoryAnnotation,
  rollback,
  rolloutRecreateStep,
  rolloutRollingStep,
  roundToInt32,
  scale,
  scaleDownOldReplicaSetsForRollingUpdate,
  scalingReplicaSetMessage,
  setNewReplicaSetAnnotations,
  setReplicasAnnotations,
  sortByLess,
  syncRolloutStatus,
  type IntOrString,
  type ScaleAction,
} from './deployment-util.ts';
import { runs } from '../../test/fc.ts';

// A fixed seed: fast-check would otherwise seed from the wall clock, and src/sim stays deterministic.
fc.configureGlobal({ seed: 20260101 });

// --- fixtures shaped like the Go helpers -------------------------------------------------------

// deployment_controller_test.go newDeployment: RollingUpdate, maxSurge/maxUnavailable default 0.
function newDeployment(
  name: string,
  replicas: number,
  revisionHistoryLimit?: number,
  surge?: IntOrString,
  unavailable?: IntOrString,
  selector: Record<string, string> = { foo: 'bar' },
): Deployment {
  return {
    apiVersion: 'apps/v1',
    kind: 'Deployment',
    metadata: { name, namespace: 'default', uid: `uid-${name}`, annotations: {}, generation: 0 },
    spec: {
      replicas,
      revisionHistoryLimit,
      selector: { matchLabels: selector },
      strategy: { type: 'RollingUpdate', rollingUpdate: { maxSurge: surge ?? 0, maxUnavailable: unavailable ?? 0 } },
      template: { metadata: { labels: { ...selector } }, spec: { containers: [{ name: 'foo', image: 'foo/bar' }] } },
    },
  };
}

// deployment_controller_test.go rs(name, replicas, selector, timestamp)
function rs(
  name: string,
  replicas: number,
  timestamp = '2016-05-20T00:00:00Z',
  selector: Record<string, string> = { foo: 'bar' },
): ReplicaSet {
  return {
    apiVersion: 'apps/v1',
    kind: 'ReplicaSet',
    metadata: { name, uid: name, namespace: 'default', creationTimestamp: timestamp },
    spec: {
      replicas,
      selector: { matchLabels: selector },
      template: { metadata: { labels: { ...selector } }, spec: { containers: [{ name: 'foo', image: 'foo/bar' }] } },
    },
    status: { replicas: 0 },
  };
}

function withStatus(r: ReplicaSet, status: Partial<NonNullable<ReplicaSet['status']>>): ReplicaSet {
  return { ...r, status: { replicas: 0, ...r.status, ...status } };
}

// deployment_util_test.go generateDeployment(image)
function generateDeployment(image: string): Deployment {
  return {
    metadata: { name: image, annotations: {} },
    spec: {
      replicas: 1,
      selector: { matchLabels: { name: image } },
      template: {
        metadata: { labels: { name: image } },
        spec: {
          containers: [
            { name: image, image, imagePullPolicy: 'Always', terminationMessagePath: '/dev/termination-log' },
          ],
          dnsPolicy: 'ClusterFirst',
          terminationGracePeriodSeconds: 30,
          restartPolicy: 'Always',
          securityContext: {},
        },
      },
    },
  };
}

let uidSeq = 0;
// deployment_util_test.go generateRS(deployment): the deployment's template, 0 replicas.
function generateRS(d: Deployment, creationTimestamp?: string): ReplicaSet {
  const template = structuredClone(d.spec!.template);
  const name = `replicaset-${++uidSeq}`;
  return {
    metadata: { uid: name, name, labels: template.metadata?.labels, creationTimestamp },
    spec: { replicas: 0, template, selector: { matchLabels: template.metadata?.labels } },
  };
}

// --- intstr -------------------------------------------------------------------------------------

describe('getScaledValueFromIntOrPercent (intstr_test.go TestGetValueFromIntOrPercent)', () => {
  const table: { input: IntOrString; total?: number; roundUp?: boolean; expectErr?: boolean; expectVal?: number }[] = [
    { input: 123, expectVal: 123 },
    { input: '90%', total: 100, roundUp: true, expectVal: 90 },
    { input: '90%', total: 95, roundUp: true, expectVal: 86 },
    { input: '90%', total: 95, roundUp: false, expectVal: 85 },
    { input: '%', expectErr: true },
    { input: '90#', expectErr: true },
    { input: '#%', expectErr: true },
  ];
  it.each(table)(
    '$input of $total (roundUp $roundUp)',
    ({ input, total = 0, roundUp = false, expectErr, expectVal }) => {
      if (expectErr) expect(() => getScaledValueFromIntOrPercent(input, total, roundUp)).toThrow();
      else expect(getScaledValueFromIntOrPercent(input, total, roundUp)).toBe(expectVal);
    },
  );
  it('rejects a bare number string like Kubernetes ("5" is not a percentage)', () => {
    expect(() => getScaledValueFromIntOrPercent('5', 10, true)).toThrow(/not a percentage/);
  });
});

// --- fenceposts --------------------------------------------------------------------------------

describe('resolveFenceposts (deployment_util_test.go TestResolveFenceposts)', () => {
  const table = [
    { maxSurge: '0%', maxUnavailable: '0%', desired: 0, surge: 0, unavailable: 1, err: false },
    { maxSurge: '39%', maxUnavailable: '39%', desired: 10, surge: 4, unavailable: 3, err: false },
    { maxSurge: 'oops', maxUnavailable: '39%', desired: 10, surge: 0, unavailable: 0, err: true },
    { maxSurge: '55%', maxUnavailable: 'urg', desired: 10, surge: 0, unavailable: 0, err: true },
  ];
  it.each(table)('maxSurge=$maxSurge maxUnavailable=$maxUnavailable desired=$desired', (t) => {
    if (t.err) expect(() => resolveFenceposts(t.maxSurge, t.maxUnavailable, t.desired)).toThrow();
    else
      expect(resolveFenceposts(t.maxSurge, t.maxUnavailable, t.desired)).toEqual({
        surge: t.surge,
        unavailable: t.unavailable,
      });
  });

  // The default 25%/25% for small Deployments (surge rounds up, unavailable down).
  it.each([
    { desired: 1, surge: 1, unavailable: 0 },
    { desired: 3, surge: 1, unavailable: 0 },
    { desired: 4, surge: 1, unavailable: 1 },
    { desired: 5, surge: 2, unavailable: 1 },
    { desired: 10, surge: 3, unavailable: 2 },
  ])('25%/25% with $desired replicas -> surge $surge, unavailable $unavailable', ({ desired, surge, unavailable }) => {
    expect(resolveFenceposts('25%', '25%', desired)).toEqual({ surge, unavailable });
  });

  it('never resolves both fenceposts to 0 (property)', () => {
    const intOrPct = fc.oneof(
      fc.integer({ min: 0, max: 50 }),
      fc.integer({ min: 0, max: 100 }).map((n) => `${n}%`),
    );
    fc.assert(
      fc.property(intOrPct, intOrPct, fc.integer({ min: 0, max: 1000 }), (s, u, desired) => {
        const r = resolveFenceposts(s, u, desired);
        return !(r.surge === 0 && r.unavailable === 0);
      }),
    );
  });
});

describe('maxUnavailable (deployment_util_test.go TestMaxUnavailable)', () => {
  const d = (replicas: number, mu: IntOrString) => newDeployment('foo', replicas, undefined, 1, mu);
  const table: { name: string; deployment: Deployment; expected: number }[] = [
    { name: 'maxUnavailable less than replicas', deployment: d(10, 5), expected: 5 },
    { name: 'maxUnavailable equal replicas', deployment: d(10, 10), expected: 10 },
    { name: 'maxUnavailable greater than replicas', deployment: d(5, 10), expected: 5 },
    { name: 'maxUnavailable with replicas is 0', deployment: d(0, 10), expected: 0 },
    {
      name: 'maxUnavailable with Recreate deployment strategy',
      deployment: { spec: { selector: {}, template: {}, strategy: { type: 'Recreate' } } },
      expected: 0,
    },
    { name: 'maxUnavailable less than replicas with percents', deployment: d(10, '50%'), expected: 5 },
    { name: 'maxUnavailable equal replicas with percents', deployment: d(10, '100%'), expected: 10 },
    { name: 'maxUnavailable greater than replicas with percents', deployment: d(5, '100%'), expected: 5 },
  ];
  it.each(table)('$name', ({ deployment, expected }) => expect(maxUnavailable(deployment)).toBe(expected));

  it('maxSurge is 0 and minAvailable 0 for Recreate', () => {
    const r: Deployment = { spec: { replicas: 3, selector: {}, template: {}, strategy: { type: 'Recreate' } } };
    expect(maxSurge(r)).toBe(0);
    expect(minAvailable(r)).toBe(0);
    expect(minAvailable(newDeployment('x', 10, undefined, 3, 2))).toBe(8);
  });
});

// --- counts, templates -------------------------------------------------------------------------

describe('replica counts (TestGetReplicaCountForReplicaSets)', () => {
  const rs1 = withStatus(
    { ...generateRS(generateDeployment('foo')), spec: { ...generateRS(generateDeployment('foo')).spec!, replicas: 1 } },
    { replicas: 2 },
  );
  const rs2 = withStatus(
    { ...generateRS(generateDeployment('bar')), spec: { ...generateRS(generateDeployment('bar')).spec!, replicas: 2 } },
    { replicas: 3 },
  );
  it.each([
    { name: '1:2 Replicas', sets: [rs1], count: 1, actual: 2 },
    { name: '3:5 Replicas', sets: [rs1, rs2], count: 3, actual: 5 },
  ])('$name', ({ sets, count, actual }) => {
    expect(getReplicaCountForReplicaSets(sets)).toBe(count);
    expect(getActualReplicaCountForReplicaSets(sets)).toBe(actual);
  });
});

describe('equalIgnoreHash (deployment_util_test.go TestEqualIgnoreHash)', () => {
  const H = 'pod-template-hash';
  const gen = (
    name: string,
    nodeName: string,
    annotations: Record<string, string>,
    labels: Record<string, string>,
  ): PodTemplateSpec => ({
    metadata: { name, annotations, labels },
    spec: { nodeName, containers: [] },
  });
  const table = [
    {
      name: 'Same spec, same labels',
      a: gen('foo', 'foo-node', {}, { [H]: 'value-1', something: 'else' }),
      b: gen('foo', 'foo-node', {}, { [H]: 'value-1', something: 'else' }),
      expected: true,
    },
    {
      name: 'Same spec, only pod-template-hash label value is different',
      a: gen('foo', 'foo-node', {}, { [H]: 'value-1', something: 'else' }),
      b: gen('foo', 'foo-node', {}, { [H]: 'value-2', something: 'else' }),
      expected: true,
    },
    {
      name: "Same spec, the former doesn't have pod-template-hash label",
      a: gen('foo', 'foo-node', {}, { something: 'else' }),
      b: gen('foo', 'foo-node', {}, { [H]: 'value-2', something: 'else' }),
      expected: true,
    },
    {
      name: 'Same spec, the label is different, and the pod-template-hash label value is the same',
      a: gen('foo', 'foo-node', {}, { [H]: 'value-1' }),
      b: gen('foo', 'foo-node', {}, { [H]: 'value-1', something: 'else' }),
      expected: false,
    },
    {
      name: 'Different spec, same labels',
      a: gen('foo', 'foo-node', { former: 'value' }, { [H]: 'value-1', something: 'else' }),
      b: gen('foo', 'foo-node', { latter: 'value' }, { [H]: 'value-1', something: 'else' }),
      expected: false,
    },
    {
      name: 'Different spec, different pod-template-hash label value',
      a: gen('foo-1', 'foo-node', {}, { [H]: 'value-1', something: 'else' }),
      b: gen('foo-2', 'foo-node', {}, { [H]: 'value-2', something: 'else' }),
      expected: false,
    },
    {
      name: "Different spec, the former doesn't have pod-template-hash label",
      a: gen('foo-1', 'foo-node-1', {}, { something: 'else' }),
      b: gen('foo-2', 'foo-node-2', {}, { [H]: 'value-2', something: 'else' }),
      expected: false,
    },
    {
      name: 'Different spec, different labels',
      a: gen('foo', 'foo-node-1', {}, { something: 'else' }),
      b: gen('foo', 'foo-node-2', {}, { nothing: 'else' }),
      expected: false,
    },
  ];
  it.each(table)('$name (both orders, inputs untouched)', ({ a, b, expected }) => {
    const before = structuredClone([a, b]);
    expect(equalIgnoreHash(a, b)).toBe(expected);
    expect(equalIgnoreHash(b, a)).toBe(expected);
    expect([a, b]).toEqual(before);
  });
});

describe('findNewReplicaSet / findOldReplicaSets (TestFindNewReplicaSet, TestFindOldReplicaSets)', () => {
  const now = '2016-01-01T00:01:00Z';
  const later = '2016-01-01T00:02:00Z';
  const before = '2016-01-01T00:00:00Z';
  const deployment = generateDeployment('nginx');
  const mk = (ts: string, hash: string, replicas: number) => {
    const r = generateRS(deployment, ts);
    r.metadata!.labels = { ...r.metadata!.labels, 'pod-template-hash': hash };
    r.spec!.replicas = replicas;
    return r;
  };
  const newRS = mk(later, 'hash', 1);
  const newRSDup = mk(now, 'different-hash', 0);
  const oldDeployment = generateDeployment('nginx');
  oldDeployment.spec!.template.spec!.containers[0].name = 'nginx-old-1';
  const oldRS = generateRS(oldDeployment, before);

  it('Get new ReplicaSet with the same template as Deployment spec but different pod-template-hash value', () =>
    expect(findNewReplicaSet(deployment, [newRS, oldRS])).toBe(newRS));
  it('Get the oldest new ReplicaSet when there are more than one ReplicaSet with the same template', () =>
    expect(findNewReplicaSet(deployment, [newRS, oldRS, newRSDup])).toBe(newRSDup));
  it('Get nil new ReplicaSet', () => expect(findNewReplicaSet(deployment, [oldRS])).toBeNull());

  it.each([
    { name: 'Get old ReplicaSets', list: [newRS, oldRS], expected: [oldRS], required: [] },
    { name: 'Get old ReplicaSets with no new ReplicaSet', list: [oldRS], expected: [oldRS], required: [] },
    {
      name: 'Get old ReplicaSets with two new ReplicaSets, only the oldest new ReplicaSet is seen as new ReplicaSet',
      list: [oldRS, newRS, newRSDup],
      expected: [oldRS, newRS],
      required: [newRS],
    },
    { name: 'Get empty old ReplicaSets', list: [newRS], expected: [], required: [] },
  ])('$name', ({ list, expected, required }) => {
    const r = findOldReplicaSets(deployment, list);
    expect(new Set(r.allOldRSs)).toEqual(new Set(expected));
    expect(r.requiredRSs).toEqual(required);
  });
});

// --- NewRSNewReplicas, status predicates --------------------------------------------------------

describe('newRSNewReplicas (deployment_util_test.go TestNewRSNewReplicas)', () => {
  const table = [
    {
      name: 'can not scale up - to newRSReplicas',
      type: 'RollingUpdate',
      depReplicas: 1,
      newRSReplicas: 5,
      maxSurge: 1,
      expected: 5,
    },
    {
      name: 'scale up - to depReplicas',
      type: 'RollingUpdate',
      depReplicas: 6,
      newRSReplicas: 2,
      maxSurge: 10,
      expected: 6,
    },
    { name: 'recreate - to depReplicas', type: 'Recreate', depReplicas: 3, newRSReplicas: 1, maxSurge: 1, expected: 3 },
  ];
  it.each(table)('$name', (t) => {
    const d = generateDeployment('nginx');
    d.spec!.replicas = t.depReplicas;
    d.spec!.strategy = { type: t.type, rollingUpdate: { maxUnavailable: 1, maxSurge: t.maxSurge } };
    const newRC = { ...generateRS(d), spec: { ...generateRS(d).spec!, replicas: t.newRSReplicas } };
    const rs5 = { ...generateRS(d), spec: { ...generateRS(d).spec!, replicas: 5 } };
    expect(newRSNewReplicas(d, [rs5], newRC)).toBe(t.expected);
  });
});

describe('deploymentComplete (TestDeploymentComplete)', () => {
  const d = (
    desired: number,
    current: number,
    updated: number,
    available: number,
    mu: number,
    ms: number,
  ): Deployment => ({
    ...newDeployment('foo', desired, undefined, ms, mu),
    status: { replicas: current, updatedReplicas: updated, availableReplicas: available },
  });
  it.each([
    { name: 'not complete: min but not all pods become available', d: d(5, 5, 5, 4, 1, 0), expected: false },
    { name: 'not complete: min availability is not honored', d: d(5, 5, 5, 3, 1, 0), expected: false },
    { name: 'complete', d: d(5, 5, 5, 5, 0, 0), expected: true },
    { name: 'not complete: all pods are available but not updated', d: d(5, 5, 4, 5, 0, 0), expected: false },
    { name: 'not complete: still running old pods', d: d(1, 2, 1, 1, 0, 1), expected: false },
    { name: 'not complete: one replica deployment never comes up', d: d(1, 1, 1, 0, 1, 1), expected: false },
  ])('$name', ({ d, expected }) => expect(deploymentComplete(d, d.status!)).toBe(expected));

  it('is not complete before the controller observed the generation', () => {
    const dd = { ...d(5, 5, 5, 5, 0, 0), metadata: { generation: 2 } };
    expect(deploymentComplete(dd, { ...dd.status, observedGeneration: 1 })).toBe(false);
    expect(deploymentComplete(dd, { ...dd.status, observedGeneration: 2 })).toBe(true);
  });
});

describe('deploymentProgressing (TestDeploymentProgressing)', () => {
  const st = (replicas: number, updatedReplicas: number, readyReplicas: number, availableReplicas: number) => ({
    replicas,
    updatedReplicas,
    readyReplicas,
    availableReplicas,
  });
  it.each([
    { name: 'progressing: updated pods', old: st(10, 4, 4, 4), now: st(10, 6, 4, 4), expected: true },
    { name: 'not progressing', old: st(10, 4, 4, 4), now: st(10, 4, 4, 4), expected: false },
    { name: 'progressing: old pods removed', old: st(10, 4, 6, 6), now: st(8, 4, 6, 6), expected: true },
    { name: 'not progressing: less new pods', old: st(10, 7, 3, 3), now: st(10, 6, 3, 3), expected: false },
    { name: 'progressing: less overall but more new pods', old: st(10, 4, 7, 7), now: st(8, 8, 5, 5), expected: true },
    { name: 'progressing: more ready pods', old: st(10, 10, 9, 8), now: st(10, 10, 10, 8), expected: true },
    { name: 'progressing: more available pods', old: st(10, 10, 10, 9), now: st(10, 10, 10, 10), expected: true },
  ])('$name', ({ old, now, expected }) => expect(deploymentProgressing({ status: old }, now)).toBe(expected));
});

describe('deploymentTimedOut (TestDeploymentTimedOut)', () => {
  const t = (min: number, sec: number) =>
    `2016-01-01T00:${String(min).padStart(2, '0')}:${String(sec).padStart(2, '0')}Z`;
  const d = (reason: string, pds: number | undefined, from: string): Deployment => ({
    spec: { selector: {}, template: {}, progressDeadlineSeconds: pds },
    status: { conditions: [{ type: 'Progressing', status: 'True', reason, lastUpdateTime: from }] },
  });
  it.each([
    {
      name: 'no progressDeadlineSeconds specified - no timeout',
      d: d('', undefined, t(1, 9)),
      now: t(1, 20),
      expected: false,
    },
    {
      name: 'progressDeadlineSeconds: 10s, now - started => 00:01:20 - 00:01:09 => 11s',
      d: d('', 10, t(1, 9)),
      now: t(1, 20),
      expected: true,
    },
    {
      name: 'progressDeadlineSeconds: 10s, now - started => 00:01:20 - 00:01:11 => 9s',
      d: d('', 10, t(1, 11)),
      now: t(1, 20),
      expected: false,
    },
    {
      name: 'previous status was a complete deployment',
      d: d('NewReplicaSetAvailable', undefined, '0001-01-01T00:00:00Z'),
      now: t(1, 20),
      expected: false,
    },
  ])('$name', ({ d, now, expected }) => expect(deploymentTimedOut(d, d.status!, now)).toBe(expected));

  it('MaxInt32 means no deadline; an existing timeout stays timed out', () => {
    expect(deploymentTimedOut(d('', MaxInt32, t(0, 0)), d('', MaxInt32, t(0, 0)).status!, t(59, 0))).toBe(false);
    const timed = d('ProgressDeadlineExceeded', 600, t(1, 0));
    expect(deploymentTimedOut(timed, timed.status!, t(1, 1))).toBe(true);
  });
});

// --- annotations ---------------------------------------------------------------------------------

describe('annotations (TestAnnotationUtils)', () => {
  const d = generateDeployment('nginx');
  d.metadata!.annotations = { [RevisionAnnotation]: '1' };
  let r = generateRS(d);
  it('SetNewReplicaSetAnnotations raises the revision 1..20 (numerically: "10" beats "9")', () => {
    for (let i = 0; i < 20; i++) {
      const next = String(i + 1);
      r = setNewReplicaSetAnnotations(d, r, next, true).rs;
      expect(r.metadata!.annotations![RevisionAnnotation]).toBe(next);
    }
  });
  it('SetReplicasAnnotations', () => {
    const { rs: out, updated } = setReplicasAnnotations(r, 10, 11);
    expect(updated).toBe(true);
    expect(out.metadata!.annotations![DesiredReplicasAnnotation]).toBe('10');
    expect(out.metadata!.annotations![MaxReplicasAnnotation]).toBe('11');
  });
  it('IsSaturated', () => {
    const sat: ReplicaSet = {
      ...r,
      metadata: { ...r.metadata, annotations: { ...r.metadata!.annotations, [DesiredReplicasAnnotation]: '1' } },
      spec: { ...r.spec!, replicas: 1 },
      status: { replicas: 1, availableReplicas: 1 },
    };
    expect(isSaturated(d, sat)).toBe(true);
    expect(isSaturated(d, { ...sat, status: { replicas: 1, availableReplicas: 0 } })).toBe(false);
  });

  it('copies change-cause and user annotations but not the controller ones; stamps replicas on create', () => {
    const dep = newDeployment('web', 4, undefined, 1, 1);
    dep.metadata!.annotations = {
      'kubernetes.io/change-cause': 'kubectl set image deployment/web nginx=nginx:1.27',
      [RevisionAnnotation]: '7',
      'kubectl.kubernetes.io/last-applied-configuration': '{}',
      team: 'a',
    };
    const { rs: out } = setNewReplicaSetAnnotations(dep, rs('web-abc', 0), '3', false);
    expect(out.metadata!.annotations).toEqual({
      'kubernetes.io/change-cause': 'kubectl set image deployment/web nginx=nginx:1.27',
      team: 'a',
      [RevisionAnnotation]: '3',
      [DesiredReplicasAnnotation]: '4',
      [MaxReplicasAnnotation]: '5',
    });
  });

  it('appends revision-history when an old RS is re-used, dropping the oldest past the length limit', () => {
    const dep = newDeployment('web', 1);
    let old: ReplicaSet = {
      ...rs('web-1', 0),
      metadata: { ...rs('web-1', 0).metadata, annotations: { [RevisionAnnotation]: '1' } },
    };
    old = setNewReplicaSetAnnotations(dep, old, '3', true).rs;
    expect(old.metadata!.annotations![RevisionHistoryAnnotation]).toBe('1');
    old = setNewReplicaSetAnnotations(dep, old, '5', true).rs;
    expect(old.metadata!.annotations![RevisionHistoryAnnotation]).toBe('1,3');
    old = setNewReplicaSetAnnotations(dep, old, '7', true, 4).rs;
    expect(old.metadata!.annotations![RevisionHistoryAnnotation]).toBe('3,5');
    expect(old.metadata!.annotations![RevisionAnnotation]).toBe('7');
    // A lower "new" revision never lowers the RS's revision.
    expect(setNewReplicaSetAnnotations(dep, old, '6', true).rs.metadata!.annotations![RevisionAnnotation]).toBe('7');
  });

  it('maxRevision / lastRevision', () => {
    const rev = (n: string) => ({
      ...rs(`r${n}`, 0),
      metadata: { name: `r${n}`, annotations: { [RevisionAnnotation]: n } },
    });
    const list = [rev('3'), rev('10'), rev('x'), rev('9')];
    expect(maxRevision(list)).toBe(10);
    expect(lastRevision(list)).toBe(9);
  });
});

// --- rolling.go ---------------------------------------------------------------------------------

describe('reconcileNewReplicaSet (rolling_test.go TestDeploymentController_reconcileNewReplicaSet)', () => {
  it.each([
    { deploymentReplicas: 10, maxSurge: 0, oldReplicas: 10, newReplicas: 0, scaleExpected: false },
    {
      deploymentReplicas: 10,
      maxSurge: 2,
      oldReplicas: 10,
      newReplicas: 0,
      scaleExpected: true,
      expectedNewReplicas: 2,
    },
    {
      deploymentReplicas: 10,
      maxSurge: 2,
      oldReplicas: 5,
      newReplicas: 0,
      scaleExpected: true,
      expectedNewReplicas: 7,
    },
    { deploymentReplicas: 10, maxSurge: 2, oldReplicas: 10, newReplicas: 2, scaleExpected: false },
    {
      deploymentReplicas: 10,
      maxSurge: 2,
      oldReplicas: 2,
      newReplicas: 11,
      scaleExpected: true,
      expectedNewReplicas: 10,
    },
  ])('d=$deploymentReplicas surge=$maxSurge old=$oldReplicas new=$newReplicas', (t) => {
    const newRS = rs('foo-v2', t.newReplicas);
    const oldRS = rs('foo-v2', t.oldReplicas);
    const d = newDeployment('foo', t.deploymentReplicas, undefined, t.maxSurge, 0);
    const actions = reconcileNewReplicaSet([newRS, oldRS], newRS, d);
    if (!t.scaleExpected) expect(actions).toEqual([]);
    else expect(actions).toEqual([{ rs: 'foo-v2', from: t.newReplicas, to: t.expectedNewReplicas }]);
  });
});

describe('reconcileOldReplicaSets (rolling_test.go TestDeploymentController_reconcileOldReplicaSets)', () => {
  it.each([
    {
      deploymentReplicas: 10,
      maxUnavailable: 0,
      oldReplicas: 10,
      newReplicas: 0,
      readyPodsFromOldRS: 10,
      readyPodsFromNewRS: 0,
      scaleExpected: true,
      expectedOldReplicas: 9,
    },
    {
      deploymentReplicas: 10,
      maxUnavailable: 2,
      oldReplicas: 10,
      newReplicas: 0,
      readyPodsFromOldRS: 10,
      readyPodsFromNewRS: 0,
      scaleExpected: true,
      expectedOldReplicas: 8,
    },
    // expect unhealthy replicas from old replica sets been cleaned up
    {
      deploymentReplicas: 10,
      maxUnavailable: 2,
      oldReplicas: 10,
      newReplicas: 0,
      readyPodsFromOldRS: 8,
      readyPodsFromNewRS: 0,
      scaleExpected: true,
      expectedOldReplicas: 8,
    },
    // expect 1 unhealthy replica from old replica sets been cleaned up, and 1 ready pod been scaled down
    {
      deploymentReplicas: 10,
      maxUnavailable: 2,
      oldReplicas: 10,
      newReplicas: 0,
      readyPodsFromOldRS: 9,
      readyPodsFromNewRS: 0,
      scaleExpected: true,
      expectedOldReplicas: 8,
    },
    // the unavailable pods from the newRS would not make us scale down old RSs in a further step
    {
      deploymentReplicas: 10,
      maxUnavailable: 2,
      oldReplicas: 8,
      newReplicas: 2,
      readyPodsFromOldRS: 8,
      readyPodsFromNewRS: 0,
      scaleExpected: false,
    },
  ])(
    'd=$deploymentReplicas maxUnavailable=$maxUnavailable old=$oldReplicas/$readyPodsFromOldRS new=$newReplicas/$readyPodsFromNewRS',
    (t) => {
      const newRS = withStatus(rs('foo-new', t.newReplicas, undefined, { foo: 'new' }), {
        availableReplicas: t.readyPodsFromNewRS,
      });
      const oldRS = withStatus(rs('foo-old', t.oldReplicas, undefined, { foo: 'old' }), {
        availableReplicas: t.readyPodsFromOldRS,
      });
      const d = newDeployment('foo', t.deploymentReplicas, undefined, 0, t.maxUnavailable, { foo: 'new' });
      const r = reconcileOldReplicaSets([oldRS, newRS], [oldRS], newRS, d);
      expect(r.scaled).toBe(t.scaleExpected);
      if (t.scaleExpected) expect(r.actions.at(-1)!.to).toBe(t.expectedOldReplicas);
    },
  );

  it('case 3 cleans up 2 unhealthy pods; case 4 cleans up 1 and scales down 1 (two writes)', () => {
    const d = newDeployment('foo', 10, undefined, 0, 2, { foo: 'new' });
    const newRS = rs('foo-new', 0, undefined, { foo: 'new' });
    const old8 = withStatus(rs('foo-old', 10), { availableReplicas: 8 });
    expect(reconcileOldReplicaSets([old8, newRS], [old8], newRS, d).actions).toEqual([
      { rs: 'foo-old', from: 10, to: 8 },
    ]);
    const old9 = withStatus(rs('foo-old', 10), { availableReplicas: 9 });
    expect(reconcileOldReplicaSets([old9, newRS], [old9], newRS, d).actions).toEqual([
      { rs: 'foo-old', from: 10, to: 9 },
      { rs: 'foo-old', from: 9, to: 8 },
    ]);
  });
});

describe('cleanupUnhealthyReplicas (rolling_test.go TestDeploymentController_cleanupUnhealthyReplicas)', () => {
  it('stops like Go when status lags (available > spec): error, no scale, earlier writes kept', () => {
    const d = newDeployment('foo', 10, undefined, 2, 2);
    const unhealthy = withStatus(rs('a', 5, '2016-05-20T00:00:00Z'), { availableReplicas: 4 });
    const lagging = withStatus(rs('b', 1, '2016-05-20T01:00:00Z'), { availableReplicas: 3 });
    const r = cleanupUnhealthyReplicas([lagging, unhealthy], d, 5);
    expect(r.actions).toEqual([{ rs: 'a', from: 5, to: 4 }]);
    expect(r.error).toMatch(/invalid request to scale down default\/b 1 -> 3/);
    const newRS = rs('new', 0);
    const d4 = newDeployment('foo', 4, undefined, 2, 2); // maxScaledDown = 6 - 2 - 0 = 4
    expect(reconcileOldReplicaSets([lagging, unhealthy, newRS], [lagging, unhealthy], newRS, d4)).toMatchObject({
      scaled: false,
      actions: [{ rs: 'a', from: 5, to: 4 }],
    });
  });

  it.each([
    { oldReplicas: 10, readyPods: 8, unHealthyPods: 2, maxCleanupCount: 1, cleanupCountExpected: 1 },
    { oldReplicas: 10, readyPods: 8, unHealthyPods: 2, maxCleanupCount: 3, cleanupCountExpected: 2 },
    { oldReplicas: 10, readyPods: 8, unHealthyPods: 2, maxCleanupCount: 0, cleanupCountExpected: 0 },
    { oldReplicas: 10, readyPods: 10, unHealthyPods: 0, maxCleanupCount: 3, cleanupCountExpected: 0 },
  ])('old=$oldReplicas ready=$readyPods max=$maxCleanupCount', (t) => {
    const oldRS = withStatus(rs('foo-v2', t.oldReplicas), { availableReplicas: t.readyPods });
    const d = newDeployment('foo', 10, undefined, 2, 2);
    expect(cleanupUnhealthyReplicas([oldRS], d, t.maxCleanupCount).cleanupCount).toBe(t.cleanupCountExpected);
  });
});

describe('scaleDownOldReplicaSetsForRollingUpdate (rolling_test.go)', () => {
  it.each([
    {
      deploymentReplicas: 10,
      maxUnavailable: 0,
      readyPods: 10,
      oldReplicas: 10,
      scaleExpected: true,
      expectedOldReplicas: 9,
    },
    {
      deploymentReplicas: 10,
      maxUnavailable: 2,
      readyPods: 10,
      oldReplicas: 10,
      scaleExpected: true,
      expectedOldReplicas: 8,
    },
    { deploymentReplicas: 10, maxUnavailable: 2, readyPods: 8, oldReplicas: 10, scaleExpected: false },
    { deploymentReplicas: 10, maxUnavailable: 2, readyPods: 10, oldReplicas: 0, scaleExpected: false },
    { deploymentReplicas: 10, maxUnavailable: 2, readyPods: 1, oldReplicas: 10, scaleExpected: false },
  ])('d=$deploymentReplicas maxUnavailable=$maxUnavailable ready=$readyPods old=$oldReplicas', (t) => {
    const oldRS = withStatus(rs('foo-v2', t.oldReplicas), { availableReplicas: t.readyPods });
    const d = newDeployment('foo', t.deploymentReplicas, undefined, 0, t.maxUnavailable);
    const r = scaleDownOldReplicaSetsForRollingUpdate([oldRS], [oldRS], d);
    if (!t.scaleExpected) expect(r.scaledDownCount).toBe(0);
    else expect(r.actions).toEqual([{ rs: 'foo-v2', from: t.oldReplicas, to: t.expectedOldReplicas }]);
  });
});

// --- sync.go: proportional scaling -------------------------------------------------------------

describe('scale (sync_test.go TestScale)', () => {
  const newTs = '2016-05-20T02:00:00Z';
  const oldTs = '2016-05-20T01:00:00Z';
  const olderTs = '2016-05-20T00:00:00Z';
  const updatedTemplate = (replicas: number) => {
    const d = newDeployment('foo', replicas);
    d.spec!.template.metadata!.labels!.another = 'label';
    return d;
  };
  const sat = withStatus(rs('foo-v2', 2, newTs), { replicas: 2, availableReplicas: 0 });
  const table: {
    name: string;
    deployment: Deployment;
    oldDeployment: Deployment;
    newRS: ReplicaSet | null;
    oldRSs: ReplicaSet[];
    expectedNew: number | null;
    expectedOld: number[];
    desiredReplicasAnnotations?: Record<string, number>;
  }[] = [
    {
      name: 'normal scaling event: 10 -> 12',
      deployment: newDeployment('foo', 12),
      oldDeployment: newDeployment('foo', 10),
      newRS: rs('foo-v1', 10, newTs),
      oldRSs: [],
      expectedNew: 12,
      expectedOld: [],
    },
    {
      name: 'normal scaling event: 10 -> 5',
      deployment: newDeployment('foo', 5),
      oldDeployment: newDeployment('foo', 10),
      newRS: rs('foo-v1', 10, newTs),
      oldRSs: [],
      expectedNew: 5,
      expectedOld: [],
    },
    {
      name: 'proportional scaling: 5 -> 10',
      deployment: newDeployment('foo', 10),
      oldDeployment: newDeployment('foo', 5),
      newRS: rs('foo-v2', 2, newTs),
      oldRSs: [rs('foo-v1', 3, oldTs)],
      expectedNew: 4,
      expectedOld: [6],
    },
    {
      name: 'proportional scaling: 5 -> 3',
      deployment: newDeployment('foo', 3),
      oldDeployment: newDeployment('foo', 5),
      newRS: rs('foo-v2', 2, newTs),
      oldRSs: [rs('foo-v1', 3, oldTs)],
      expectedNew: 1,
      expectedOld: [2],
    },
    {
      name: 'proportional scaling: 9 -> 4',
      deployment: newDeployment('foo', 4),
      oldDeployment: newDeployment('foo', 9),
      newRS: rs('foo-v2', 8, newTs),
      oldRSs: [rs('foo-v1', 1, oldTs)],
      expectedNew: 4,
      expectedOld: [0],
    },
    {
      name: 'proportional scaling: 7 -> 10',
      deployment: newDeployment('foo', 10),
      oldDeployment: newDeployment('foo', 7),
      newRS: rs('foo-v3', 2, newTs),
      oldRSs: [rs('foo-v2', 3, oldTs), rs('foo-v1', 2, olderTs)],
      expectedNew: 3,
      expectedOld: [4, 3],
    },
    {
      name: 'proportional scaling: 13 -> 8',
      deployment: newDeployment('foo', 8),
      oldDeployment: newDeployment('foo', 13),
      newRS: rs('foo-v3', 2, newTs),
      oldRSs: [rs('foo-v2', 8, oldTs), rs('foo-v1', 3, olderTs)],
      expectedNew: 1,
      expectedOld: [5, 2],
    },
    {
      name: 'leftover distribution: 3 -> 4',
      deployment: newDeployment('foo', 4),
      oldDeployment: newDeployment('foo', 3),
      newRS: rs('foo-v3', 1, newTs),
      oldRSs: [rs('foo-v2', 1, oldTs), rs('foo-v1', 1, olderTs)],
      expectedNew: 2,
      expectedOld: [1, 1],
    },
    {
      name: 'leftover distribution: 3 -> 2',
      deployment: newDeployment('foo', 2),
      oldDeployment: newDeployment('foo', 3),
      newRS: rs('foo-v3', 1, newTs),
      oldRSs: [rs('foo-v2', 1, oldTs), rs('foo-v1', 1, olderTs)],
      expectedNew: 1,
      expectedOld: [1, 0],
    },
    {
      name: 'proportional scaling (no new rs): 4 -> 5',
      deployment: newDeployment('foo', 5),
      oldDeployment: newDeployment('foo', 4),
      newRS: null,
      oldRSs: [rs('foo-v2', 2, oldTs), rs('foo-v1', 2, olderTs)],
      expectedNew: null,
      expectedOld: [3, 2],
    },
    {
      name: 'proportional scaling: 6 -> 0',
      deployment: newDeployment('foo', 0),
      oldDeployment: newDeployment('foo', 6),
      newRS: rs('foo-v3', 3, newTs),
      oldRSs: [rs('foo-v2', 2, oldTs), rs('foo-v1', 1, olderTs)],
      expectedNew: 0,
      expectedOld: [0, 0],
    },
    {
      name: 'proportional scaling: 0 -> 6',
      deployment: newDeployment('foo', 6),
      oldDeployment: newDeployment('foo', 6),
      newRS: rs('foo-v3', 0, newTs),
      oldRSs: [rs('foo-v2', 0, oldTs), rs('foo-v1', 0, olderTs)],
      expectedNew: 6,
      expectedOld: [0, 0],
    },
    {
      name: 'failed rs update',
      deployment: newDeployment('foo', 5),
      oldDeployment: newDeployment('foo', 5),
      newRS: rs('foo-v3', 2, newTs),
      oldRSs: [rs('foo-v2', 1, oldTs), rs('foo-v1', 1, olderTs)],
      expectedNew: 2,
      expectedOld: [2, 1],
      desiredReplicasAnnotations: { 'foo-v2': 3 },
    },
    {
      name: 'deployment with surge pods',
      deployment: newDeployment('foo', 20, undefined, 2),
      oldDeployment: newDeployment('foo', 10, undefined, 2),
      newRS: rs('foo-v2', 6, newTs),
      oldRSs: [rs('foo-v1', 6, oldTs)],
      expectedNew: 11,
      expectedOld: [11],
    },
    {
      name: 'change both surge and size',
      deployment: newDeployment('foo', 50, undefined, 6),
      oldDeployment: newDeployment('foo', 10, undefined, 3),
      newRS: rs('foo-v2', 5, newTs),
      oldRSs: [rs('foo-v1', 8, oldTs)],
      expectedNew: 22,
      expectedOld: [34],
    },
    {
      name: 'change both size and template',
      deployment: updatedTemplate(14),
      oldDeployment: newDeployment('foo', 10),
      newRS: null,
      oldRSs: [rs('foo-v2', 7, newTs), rs('foo-v1', 3, oldTs)],
      expectedNew: null,
      expectedOld: [10, 4],
    },
    {
      name: 'saturated but broken new replica set does not affect old pods',
      deployment: newDeployment('foo', 2, undefined, 1, 1),
      oldDeployment: newDeployment('foo', 2, undefined, 1, 1),
      newRS: sat,
      oldRSs: [rs('foo-v1', 1, oldTs)],
      expectedNew: 2,
      expectedOld: [1],
    },
  ];
  it.each(table)('$name', (t) => {
    // As the Go test does: annotate every RS as last sized by oldDeployment.
    const annotate = (r: ReplicaSet) => {
      const desired = t.desiredReplicasAnnotations?.[r.metadata!.name!] ?? t.oldDeployment.spec!.replicas!;
      return setReplicasAnnotations(r, desired, desired + maxSurge(t.oldDeployment)).rs;
    };
    const newRS = t.newRS ? annotate(t.newRS) : null;
    const oldRSs = t.oldRSs.map(annotate);
    const actions = scale(t.deployment, newRS, oldRSs);
    const size = (r: ReplicaSet) => actions.filter((a) => a.rs === r.metadata!.name).at(-1)?.to ?? r.spec!.replicas!;
    if (newRS && t.expectedNew !== null) expect(size(newRS)).toBe(t.expectedNew);
    expect(oldRSs.map(size)).toEqual(t.expectedOld);
  });

  it('fractions behind "deployment with surge pods" and "change both surge and size"', () => {
    const a = setReplicasAnnotations(rs('a', 6), 10, 12).rs;
    expect(getReplicaSetFraction(a, newDeployment('foo', 20, undefined, 2))).toBe(5); // round(6*22/12) - 6
    const b = setReplicasAnnotations(rs('b', 8), 10, 13).rs;
    expect(getReplicaSetFraction(b, newDeployment('foo', 50, undefined, 6))).toBe(26); // round(8*56/13) - 8
    expect(getReplicaSetFraction(b, newDeployment('foo', 0))).toBe(-8);
    // getProportion clamps to what is left to add (up) or remove (down).
    expect(getProportion(b, newDeployment('foo', 50, undefined, 6), 43, 30)).toBe(13);
    expect(getProportion(b, newDeployment('foo', 1), -3, -1)).toBe(-2);
    expect(roundToInt32(2.5)).toBe(3);
    expect(roundToInt32(-2.5)).toBe(-3);
  });

  it('orders scale-ups newer-first and scale-downs older-first on ties', () => {
    const older = rs('older', 3, oldTs);
    const newer = rs('newer', 3, newTs);
    const big = rs('big', 5, olderTs);
    expect(sortByLess([older, newer, big], replicaSetsBySizeNewerLess).map((r) => r.metadata!.name)).toEqual([
      'big',
      'newer',
      'older',
    ]);
    expect(sortByLess([newer, older, big], replicaSetsBySizeOlderLess).map((r) => r.metadata!.name)).toEqual([
      'big',
      'older',
      'newer',
    ]);
  });
});

describe('cleanupDeployment (sync_test.go TestDeploymentController_cleanupDeployment[Order])', () => {
  const newRSWithStatus = (name: string, specReplicas: number, statusReplicas: number) =>
    withStatus(rs(name, specReplicas), { replicas: statusReplicas });
  const alreadyDeleted = {
    ...newRSWithStatus('foo-1', 0, 0),
    metadata: { ...newRSWithStatus('foo-1', 0, 0).metadata, deletionTimestamp: '2016-05-20T00:00:00Z' },
  };
  it.each([
    {
      oldRSs: [newRSWithStatus('foo-1', 0, 0), newRSWithStatus('foo-2', 0, 0), newRSWithStatus('foo-3', 0, 0)],
      limit: 1,
      expectedDeletions: 2,
    },
    // Only delete the replica set with Spec.Replicas = Status.Replicas = 0.
    {
      oldRSs: [
        newRSWithStatus('foo-1', 0, 0),
        newRSWithStatus('foo-2', 0, 1),
        newRSWithStatus('foo-3', 1, 0),
        newRSWithStatus('foo-4', 1, 1),
      ],
      limit: 0,
      expectedDeletions: 1,
    },
    { oldRSs: [newRSWithStatus('foo-1', 0, 0), newRSWithStatus('foo-2', 0, 0)], limit: 0, expectedDeletions: 2 },
    { oldRSs: [newRSWithStatus('foo-1', 1, 1), newRSWithStatus('foo-2', 1, 1)], limit: 0, expectedDeletions: 0 },
    { oldRSs: [alreadyDeleted], limit: 0, expectedDeletions: 0 },
    // with unlimited revisionHistoryLimit
    {
      oldRSs: [newRSWithStatus('foo-1', 0, 0), newRSWithStatus('foo-2', 0, 0), newRSWithStatus('foo-3', 0, 0)],
      limit: MaxInt32,
      expectedDeletions: 0,
    },
  ])('limit $limit -> $expectedDeletions deletions', ({ oldRSs, limit, expectedDeletions }) => {
    expect(cleanupDeployment(oldRSs, newDeployment('foo', 1, limit))).toHaveLength(expectedDeletions);
  });

  const now = Date.parse('2016-05-20T00:00:00Z');
  const at = (min: number) => new Date(now + min * 60_000).toISOString();
  const withRev = (name: string, replicas: number, ts: string, revision: string): ReplicaSet => {
    const r = rs(name, replicas, ts);
    if (revision !== '') r.metadata!.annotations = { [RevisionAnnotation]: revision };
    return withStatus(r, { replicas });
  };
  it.each([
    {
      name: 'revision order: rs1 < rs2, delete rs1',
      oldRSs: [withRev('foo-1', 0, at(-1), '1'), withRev('foo-2', 0, at(0), '2')],
      limit: 1,
      expected: ['foo-1'],
    },
    {
      name: 'revision order: rs2 < rs1, delete rs2',
      oldRSs: [withRev('foo-1', 0, at(-1), '2'), withRev('foo-2', 0, at(0), '1')],
      limit: 1,
      expected: ['foo-2'],
    },
    {
      name: "rs1 has revision but rs2 doesn't have revision, delete rs2",
      oldRSs: [withRev('foo-1', 0, at(-1), '1'), withRev('foo-2', 0, at(0), '')],
      limit: 1,
      expected: ['foo-2'],
    },
    {
      name: "rs1 doesn't have revision while rs2 has revision, delete rs1",
      oldRSs: [withRev('foo-1', 0, at(-1), ''), withRev('foo-2', 0, at(0), '2')],
      limit: 1,
      expected: ['foo-1'],
    },
    {
      name: 'revision order: rs1 < rs2 < r3, but rs1 has replicas, delete rs2',
      oldRSs: [withRev('foo-1', 1, at(-1), '1'), withRev('foo-2', 0, at(0), '2'), withRev('foo-3', 0, at(1), '3')],
      limit: 1,
      expected: ['foo-2'],
    },
    {
      name: "revision order: rs1 < rs2 < r3, both rs1 && rs2 have replicas, don't delete",
      oldRSs: [withRev('foo-1', 1, at(-1), '1'), withRev('foo-2', 1, at(0), '2'), withRev('foo-3', 0, at(1), '3')],
      limit: 1,
      expected: [],
    },
    {
      name: 'revision order: rs2 < rs4 < rs1 < rs3, delete rs2 && rs4',
      oldRSs: [
        withRev('foo-1', 0, at(-1), '3'),
        withRev('foo-2', 0, at(0), '1'),
        withRev('foo-3', 0, at(1), '4'),
        withRev('foo-4', 0, at(2), '2'),
      ],
      limit: 2,
      expected: ['foo-2', 'foo-4'],
    },
  ])('$name', ({ oldRSs, limit, expected }) => {
    expect(cleanupDeployment(oldRSs, newDeployment('foo', 1, limit))).toEqual(expected);
  });
});

// --- status, conditions, messages ----------------------------------------------------------------

describe('status and conditions (progress.go / sync.go messages)', () => {
  const now = '2026-01-01T00:10:00Z';
  const d = (): Deployment => ({ ...newDeployment('web', 3, 10, 1, 0), metadata: { name: 'web', generation: 2 } });
  d().spec!.progressDeadlineSeconds = 600;
  const withDeadline = (x: Deployment): Deployment => ({ ...x, spec: { ...x.spec!, progressDeadlineSeconds: 600 } });

  it('calculateStatus counts and Available=True "Deployment has minimum availability."', () => {
    const newRS = withStatus(rs('web-7c5ddbdf54', 3), { replicas: 3, readyReplicas: 3, availableReplicas: 3 });
    const old = withStatus(rs('web-5d8f9b4c6b', 0), { replicas: 1, readyReplicas: 1, availableReplicas: 1 });
    const s = calculateStatus([old, newRS], newRS, d(), now);
    expect(s).toMatchObject({
      observedGeneration: 2,
      replicas: 4,
      updatedReplicas: 3,
      readyReplicas: 4,
      availableReplicas: 4,
    });
    expect(s).not.toHaveProperty('unavailableReplicas'); // 0: omitempty, as the Go struct serialises it
    expect(s.conditions).toEqual([
      {
        type: 'Available',
        status: 'True',
        reason: 'MinimumReplicasAvailable',
        message: 'Deployment has minimum availability.',
        lastUpdateTime: now,
        lastTransitionTime: now,
      },
    ]);
  });

  it('Available=False "Deployment does not have minimum availability." when below minAvailable', () => {
    const newRS = withStatus(rs('web-7c5ddbdf54', 3), { replicas: 3, availableReplicas: 2 });
    const s = calculateStatus([newRS], newRS, d(), now);
    expect(s.unavailableReplicas).toBe(1);
    expect(s.conditions![0]).toMatchObject({
      status: 'False',
      reason: 'MinimumReplicasUnavailable',
      message: 'Deployment does not have minimum availability.',
    });
  });

  it('Progressing: ReplicaSetUpdated -> NewReplicaSetAvailable, with the exact messages', () => {
    const dep = withDeadline(d());
    const newRS = withStatus(rs('web-7c5ddbdf54', 3), { replicas: 2, readyReplicas: 1, availableReplicas: 1 });
    const s1 = syncRolloutStatus([newRS], newRS, dep, now);
    expect(s1.conditions!.find((c) => c.type === 'Progressing')).toMatchObject({
      status: 'True',
      reason: 'ReplicaSetUpdated',
      message: 'ReplicaSet "web-7c5ddbdf54" is progressing.',
    });
    const done = withStatus(rs('web-7c5ddbdf54', 3), { replicas: 3, readyReplicas: 3, availableReplicas: 3 });
    const s2 = syncRolloutStatus([done], done, { ...dep, status: s1 }, '2026-01-01T00:11:00Z');
    expect(s2.conditions!.find((c) => c.type === 'Progressing')).toMatchObject({
      status: 'True',
      reason: 'NewReplicaSetAvailable',
      message: 'ReplicaSet "web-7c5ddbdf54" has successfully progressed.',
    });
  });

  it('Progressing=False ProgressDeadlineExceeded after 600 s without progress; requeue at deadline + 1 s', () => {
    const newRS = withStatus(rs('web-7c5ddbdf54', 3), { replicas: 3, readyReplicas: 0, availableReplicas: 0 });
    const dep = withDeadline({
      ...d(),
      status: {
        observedGeneration: 2,
        replicas: 3,
        updatedReplicas: 3,
        conditions: [
          {
            type: 'Progressing',
            status: 'True',
            reason: 'NewReplicaSetCreated',
            message: 'Created new replica set "web-7c5ddbdf54"',
            lastUpdateTime: '2026-01-01T00:00:00Z',
            lastTransitionTime: '2026-01-01T00:00:00Z',
          },
        ],
      },
    });
    const notYet = syncRolloutStatus([newRS], newRS, dep, '2026-01-01T00:10:00Z');
    expect(notYet.conditions!.find((c) => c.type === 'Progressing')!.reason).toBe('NewReplicaSetCreated');
    expect(requeueStuckDeployment(dep, notYet, '2026-01-01T00:03:00Z')).toBe(7 * 60_000 + 1000);
    const late = syncRolloutStatus([newRS], newRS, dep, '2026-01-01T00:10:01Z');
    expect(late.conditions!.find((c) => c.type === 'Progressing')).toMatchObject({
      status: 'False',
      reason: 'ProgressDeadlineExceeded',
      message: 'ReplicaSet "web-7c5ddbdf54" has timed out progressing.',
    });
  });

  it('Paused/Resumed conditions', () => {
    const paused = withDeadline({ ...d(), spec: { ...d().spec!, paused: true } });
    const s = checkPausedConditions(paused, now)!;
    expect(s.conditions![0]).toMatchObject({
      type: 'Progressing',
      status: 'Unknown',
      reason: 'DeploymentPaused',
      message: 'Deployment is paused',
    });
    const resumed = withDeadline({ ...d(), status: s });
    expect(checkPausedConditions(resumed, now)!.conditions![0]).toMatchObject({
      status: 'Unknown',
      reason: 'DeploymentResumed',
      message: 'Deployment is resumed',
    });
  });

  it('getNewReplicaSet creates web-<hash> with revision max+1, NewReplicaSetCreated and the scale event', () => {
    const dep = withDeadline(newDeployment('web', 3, 10, '25%', '25%'));
    const old = {
      ...rs('web-5d8f9b4c6b', 3),
      metadata: { ...rs('web-5d8f9b4c6b', 3).metadata, annotations: { [RevisionAnnotation]: '1' } },
    };
    old.spec!.template!.spec!.containers[0].image = 'nginx:1.26';
    const plan = getNewReplicaSet(dep, [old], [old], '7c5ddbdf54', now);
    expect(plan.kind).toBe('create');
    if (plan.kind !== 'create') return;
    expect(plan.rs.metadata!.name).toBe('web-7c5ddbdf54');
    expect(plan.rs.spec!.replicas).toBe(1); // 3 + surge 1 - 3 existing
    expect(plan.rs.spec!.template!.metadata!.labels!['pod-template-hash']).toBe('7c5ddbdf54');
    expect(plan.rs.spec!.selector.matchLabels!['pod-template-hash']).toBe('7c5ddbdf54');
    expect(plan.rs.metadata!.annotations).toMatchObject({
      [RevisionAnnotation]: '2',
      [DesiredReplicasAnnotation]: '3',
      [MaxReplicasAnnotation]: '4',
    });
    expect(plan.condition).toMatchObject({
      reason: 'NewReplicaSetCreated',
      message: 'Created new replica set "web-7c5ddbdf54"',
    });
    expect(plan.event).toBe('Scaled up replica set web-7c5ddbdf54 from 0 to 1');
  });

  it('getNewReplicaSet finds an existing RS: FoundNewReplicaSet when no Progressing condition yet', () => {
    const dep = withDeadline(newDeployment('web', 3));
    const existing = setNewReplicaSetAnnotations(dep, rs('web-7c5ddbdf54', 3), '1', false).rs;
    existing.spec!.minReadySeconds = 0;
    const plan = getNewReplicaSet(dep, [existing], [], 'ignored', now);
    expect(plan).toMatchObject({
      kind: 'found',
      condition: { reason: 'FoundNewReplicaSet', message: 'Found new replica set "web-7c5ddbdf54"' },
    });
  });

  it('ScalingReplicaSet messages', () => {
    expect(scalingReplicaSetMessage({ rs: 'web-7c5ddbdf54', from: 0, to: 3 })).toBe(
      'Scaled up replica set web-7c5ddbdf54 from 0 to 3',
    );
    expect(scalingReplicaSetMessage({ rs: 'web-5d8f9b4c6b', from: 3, to: 2 })).toBe(
      'Scaled down replica set web-5d8f9b4c6b from 3 to 2',
    );
  });
});

// --- rollback (kubectl rollout undo) --------------------------------------------------------------

describe('rollback', () => {
  const dep = newDeployment('web', 3);
  const withRev = (name: string, image: string, rev: string, extra: Record<string, string> = {}) => {
    const r = rs(name, 0);
    r.spec!.template!.spec!.containers[0].image = image;
    r.spec!.template!.metadata!.labels!['pod-template-hash'] = name.slice(4);
    r.metadata!.annotations = { [RevisionAnnotation]: rev, ...extra };
    return r;
  };
  const current = { ...dep, spec: { ...dep.spec!, template: structuredClone(dep.spec!.template) } };
  current.spec.template.spec!.containers[0].image = 'nginx:1.27';
  const r1 = withRev('web-aaaa', 'nginx:1.25', '1', { 'kubernetes.io/change-cause': 'first' });
  const r2 = withRev('web-bbbb', 'nginx:1.26', '2');
  const r3 = withRev('web-cccc', 'nginx:1.27', '3');

  it('undo with no revision goes to the previous one, copying template (minus hash) and change-cause', () => {
    const res = rollback(current, [r1, r2, r3], 1);
    expect(res.kind).toBe('rolledBack');
    if (res.kind !== 'rolledBack') return;
    expect(res.message).toBe('deployment.apps/web rolled back');
    expect(res.deployment.spec!.template.spec!.containers[0].image).toBe('nginx:1.25');
    expect(res.deployment.spec!.template.metadata!.labels).not.toHaveProperty('pod-template-hash');
    expect(res.deployment.metadata!.annotations!['kubernetes.io/change-cause']).toBe('first');
    const prev = rollback(current, [r1, r2, r3]);
    expect(prev.kind === 'rolledBack' && prev.deployment.spec!.template.spec!.containers[0].image).toBe('nginx:1.26');
  });
  it('skipped rollback when the template already matches', () => {
    expect(rollback(current, [r1, r2, r3], 3)).toEqual({
      kind: 'skipped',
      message: 'deployment.apps/web skipped rollback (current template already matches revision 3)',
    });
  });
  it('unable to find specified revision', () => {
    expect(rollback(current, [r1, r2, r3], 9)).toEqual({
      kind: 'error',
      message: 'unable to find specified revision 9 in history',
    });
  });
  it('refuses a paused deployment', () => {
    expect(rollback({ ...current, spec: { ...current.spec, paused: true } }, [r1], 1)).toEqual({
      kind: 'error',
      message:
        "you cannot rollback a paused deployment; resume it first with 'kubectl rollout resume deployment/web' and try again",
    });
  });
  it('a bare undo that already matches reports the requested revision, 0, as kubectl does', () => {
    const atPrev = {
      ...current,
      spec: {
        ...current.spec,
        template: { ...structuredClone(r2.spec!.template!), metadata: { labels: { foo: 'bar' } } },
      },
    };
    expect(rollback(atPrev, [r1, r2, r3])).toEqual({
      kind: 'skipped',
      message: 'deployment.apps/web skipped rollback (current template already matches revision 0)',
    });
  });
});

// --- Recreate -------------------------------------------------------------------------------------

describe('rolloutRecreateStep', () => {
  const d: Deployment = {
    ...newDeployment('web', 3),
    spec: { ...newDeployment('web', 3).spec!, strategy: { type: 'Recreate' } },
  };
  it('scales old RSs to 0, waits for old pods, creates, then scales the new RS to spec', () => {
    const old = withStatus(rs('web-old', 3), { replicas: 3 });
    expect(rolloutRecreateStep(d, null, [old], {})).toEqual({
      phase: 'scaleDownOld',
      actions: [{ rs: 'web-old', from: 3, to: 0 }],
    });
    const draining = withStatus(rs('web-old', 0), { replicas: 1 });
    expect(rolloutRecreateStep(d, null, [draining], {}).phase).toBe('waitForOldPods');
    const gone = withStatus(rs('web-old', 0), { replicas: 0 });
    expect(rolloutRecreateStep(d, null, [gone], { 'web-old': [{ status: { phase: 'Running' } }] }).phase).toBe(
      'waitForOldPods',
    );
    expect(rolloutRecreateStep(d, null, [gone], { 'web-old': [{ status: { phase: 'Succeeded' } }] }).phase).toBe(
      'createNewRS',
    );
    expect(rolloutRecreateStep(d, rs('web-new', 0), [gone], {})).toEqual({
      phase: 'scaleUpNew',
      actions: [{ rs: 'web-new', from: 0, to: 3 }],
    });
  });
});

// --- properties of the rolling planner ------------------------------------------------------------

describe('rolling update planned step by step (property)', () => {
  const fencepost = fc.oneof(fc.integer({ min: 0, max: 4 }), fc.constantFrom('0%', '10%', '25%', '50%', '100%'));

  it('never exceeds replicas+maxSurge in spec, never drops below minAvailable, and completes', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 1, max: 12 }),
        fencepost,
        fencepost,
        fc.integer({ min: 0, max: 12 }),
        fc.integer({ min: 0, max: 12 }),
        fc.integer({ min: 0, max: 12 }),
        fc.array(fc.integer({ min: 0, max: 3 }), { minLength: 60, maxLength: 60 }),
        (replicas, surge, unavail, n0, o0, a0, readiness) => {
          const d = newDeployment('web', replicas, 10, surge, unavail);
          const maxTotal = replicas + maxSurge(d);
          const minAvail = minAvailable(d);
          // A valid starting state: within the surge bound and the availability bound.
          const n = Math.min(n0, replicas);
          const o = Math.min(o0, maxTotal - n);
          const a = Math.min(a0, n);
          fc.pre(o + a >= minAvail);
          let newRS = withStatus(rs('web-new', n, '2026-01-01T00:01:00Z'), { replicas: n, availableReplicas: a });
          let oldRS = withStatus(rs('web-old', o, '2026-01-01T00:00:00Z', { foo: 'old' }), {
            replicas: o,
            availableReplicas: o,
          });
          const apply = (r: ReplicaSet, actions: ScaleAction[]) => {
            const mine = actions.filter((x) => x.rs === r.metadata!.name);
            return mine.length ? applyScale(r, mine.at(-1)!.to, d) : r;
          };
          for (let step = 0; step < 200; step++) {
            const i = Math.min(step, readiness.length - 1);
            const plan = rolloutRollingStep(d, newRS, [oldRS]);
            newRS = apply(newRS, plan.actions);
            oldRS = apply(oldRS, plan.actions);
            // Pods follow spec: removed pods were available (old pods are all healthy here),
            // new pods become available a few at a time (all of them once readiness runs out).
            const newAvail = Math.min(
              specOf(newRS),
              (newRS.status!.availableReplicas ?? 0) + (step >= readiness.length ? specOf(newRS) : readiness[i]),
            );
            newRS = withStatus(newRS, { replicas: specOf(newRS), availableReplicas: newAvail });
            oldRS = withStatus(oldRS, { replicas: specOf(oldRS), availableReplicas: specOf(oldRS) });
            expect(specOf(newRS) + specOf(oldRS)).toBeLessThanOrEqual(Math.max(maxTotal, n + o));
            expect(newAvail + specOf(oldRS)).toBeGreaterThanOrEqual(minAvail);
            if (specOf(newRS) === replicas && specOf(oldRS) === 0 && newAvail === replicas) return true;
          }
          throw new Error(`rollout did not complete: new ${specOf(newRS)} old ${specOf(oldRS)}`);
        },
      ),
      { numRuns: runs(0.3) },
    );
  });

  it('proportional scale never leaves more than replicas+maxSurge in spec, nor a negative RS', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 0, max: 30 }),
        fc.integer({ min: 1, max: 30 }),
        fencepost,
        fc.array(fc.integer({ min: 0, max: 10 }), { minLength: 2, maxLength: 4 }),
        (to, from, surge, sizes) => {
          const old = newDeployment('foo', from, undefined, surge, 1);
          const d = newDeployment('foo', to, undefined, surge, 1);
          // States the controller can reach: the RSs were sized within the old max-replicas.
          // (With inconsistent annotations Kubernetes' fractions can grow RSs on a scale-down.)
          fc.pre(sizes.reduce((a, b) => a + b, 0) <= from + maxSurge(old));
          const all = sizes.map(
            (s, i) =>
              setReplicasAnnotations(rs(`foo-v${i}`, s, `2026-01-01T00:0${i}:00Z`), from, from + maxSurge(old)).rs,
          );
          const [newRS, ...oldRSs] = [...all].reverse();
          const actions = scale(d, newRS, oldRSs);
          const after = all.map((r) => actions.filter((a) => a.rs === r.metadata!.name).at(-1)?.to ?? specOf(r));
          expect(after.every((x) => x >= 0)).toBe(true);
          const before = all.reduce((s, r) => s + specOf(r), 0);
          expect(after.reduce((s, x) => s + x, 0)).toBeLessThanOrEqual(Math.max(before, to + maxSurge(d)));
        },
      ),
    );
  });
});

function specOf(r: ReplicaSet): number {
  return r.spec?.replicas ?? 1;
}

describe('purity', () => {
  // Stored objects are frozen in dev/test (src/sim/ARCHITECTURE.md): planners must never write to them.
  const deepFreeze = <T>(o: T): T => {
    if (o && typeof o === 'object') {
      Object.values(o as object).forEach(deepFreeze);
      Object.freeze(o);
    }
    return o;
  };
  it('planners leave frozen inputs untouched', () => {
    const d = deepFreeze({
      ...newDeployment('web', 10, 1, 3, 2),
      status: {
        replicas: 10,
        conditions: [
          { type: 'Progressing', status: 'True', reason: 'ReplicaSetUpdated', lastUpdateTime: '2026-01-01T00:00:00Z' },
        ],
      },
    });
    const newRS = deepFreeze(
      setReplicasAnnotations(
        withStatus(rs('web-new', 3, '2026-01-01T00:01:00Z'), { replicas: 3, availableReplicas: 1 }),
        8,
        11,
      ).rs,
    );
    const old1 = deepFreeze(
      setReplicasAnnotations(withStatus(rs('web-old', 7), { replicas: 7, availableReplicas: 6 }), 8, 11).rs,
    );
    const old0 = deepFreeze({
      ...rs('web-older', 0, '2015-01-01T00:00:00Z'),
      metadata: { name: 'web-older', annotations: { [RevisionAnnotation]: '1' } },
    });
    const now = '2026-01-01T00:05:00Z';
    expect(() => {
      scale(d, newRS, [old1, old0]);
      rolloutRollingStep(d, newRS, [old1, old0]);
      reconcileOldReplicaSets([old1, old0, newRS], [old1, old0], newRS, d);
      syncRolloutStatus([old1, old0, newRS], newRS, d, now);
      getNewReplicaSet(d, [old1, old0], [old1, old0], 'abcde', now);
      setNewReplicaSetAnnotations(d, old0, '9', true);
      rollback(d, [old1, old0, newRS], 1);
      cleanupDeployment([old1, old0], d);
      rolloutRecreateStep(d, newRS, [old1, old0], {});
    }).not.toThrow();
  });
});
