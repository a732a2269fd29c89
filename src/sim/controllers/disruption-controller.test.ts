// PodDisruptionBudgets end to end in one simulated cluster: kubectl create/get/describe pdb, the
// disruption controller's status, the eviction API's 429 and decrement, and drain's retries.
import { describe, expect, test } from 'vitest';
import type { PodDisruptionBudget } from 'kubernetes-types/policy/v1';
import { createCluster } from '../cluster.ts';
import { runKubectl } from '../kubectl/kubectl.ts';
import { expectedPodCount, scaledValue, type DisruptionControllerState } from './disruption-controller.ts';
import { setStatusCondition } from '../api/poddisruptionbudget.ts';
import { budgetRefusal } from '../apiserver/eviction.ts';

function cluster(replicas = 3) {
  const c = createCluster({ seed: 3 });
  runKubectl(c, `create deployment web --image=nginx:1.27 --replicas=${replicas}`);
  c.settle();
  return c;
}
const pdb = (c: ReturnType<typeof cluster>, name = 'web') =>
  JSON.parse(runKubectl(c, `get pdb ${name} -o json`).stdout) as PodDisruptionBudget;

describe('kubectl create/get/describe pdb', () => {
  test('create validates as create_pdb.go does, and the API server refuses both bounds', () => {
    const c = cluster();
    expect(runKubectl(c, 'create pdb web --min-available=1').stderr).toBe('error: a selector must be specified\n');
    expect(runKubectl(c, 'create pdb web --selector=app=web').stderr).toBe(
      'error: one of min-available or max-unavailable must be specified\n',
    );
    expect(runKubectl(c, 'create pdb web --selector=app=web --min-available=1 --max-unavailable=1').stderr).toBe(
      'error: min-available and max-unavailable cannot be both specified\n',
    );
    expect(runKubectl(c, 'create pdb web --selector=app=web --min-available=1Gb').stderr).toBe(
      'error: invalid format specified for min-available\n',
    );
    expect(runKubectl(c, 'create pdb web --selector=app!=web --min-available=1').stderr).toBe(
      'error: "!=" is not a valid label selector operator\n',
    );
    const both = runKubectl(
      c,
      'apply -f -',
      'apiVersion: policy/v1\nkind: PodDisruptionBudget\nmetadata:\n  name: x\nspec:\n  minAvailable: 1\n  maxUnavailable: 1\n  selector:\n    matchLabels:\n      app: web\n',
    );
    // The internal spec as json.Marshal renders it, under its Go field names (oracle/traces/pdb-refusals.json).
    expect(both.stderr).toBe(
      'The PodDisruptionBudget "x" is invalid: spec: Invalid value: {"MinAvailable":1,"Selector":{"matchLabels":{"app":"web"}},"MaxUnavailable":1,"UnhealthyPodEvictionPolicy":null}: minAvailable and maxUnavailable cannot be both set\n',
    );
    const over = runKubectl(
      c,
      'apply -f -',
      'apiVersion: policy/v1\nkind: PodDisruptionBudget\nmetadata:\n  name: x\nspec:\n  maxUnavailable: 150%\n  selector: {}\n',
    );
    expect(over.stderr).toContain('spec.maxUnavailable: Invalid value: "150%": must not be greater than 100%');
  });
  test('get pdb prints the columns real kubectl prints; the controller fills the status', () => {
    const c = cluster();
    expect(runKubectl(c, 'create poddisruptionbudget web --selector=app=web --min-available=3')).toEqual({
      stdout: 'poddisruptionbudget.policy/web created\n',
      stderr: '',
      exitCode: 0,
    });
    c.advance(3000);
    expect(runKubectl(c, 'get pdb').stdout).toBe(
      'NAME   MIN AVAILABLE   MAX UNAVAILABLE   ALLOWED DISRUPTIONS   AGE\nweb    3               N/A               0                     3s\n',
    );
    const st = pdb(c).status!;
    expect(st).toMatchObject({
      observedGeneration: 1,
      disruptionsAllowed: 0,
      currentHealthy: 3,
      desiredHealthy: 3,
      expectedPods: 3,
    });
    expect(st.conditions).toEqual([
      expect.objectContaining({
        type: 'DisruptionAllowed',
        status: 'False',
        reason: 'InsufficientPods',
        message: '',
        observedGeneration: 1,
      }),
    ]);
    expect(runKubectl(c, 'describe pdb web').stdout).toBe(
      'Name:           web\nNamespace:      default\nMin available:  3\nSelector:       app=web\nStatus:\n    Allowed disruptions:  0\n    Current:              3\n    Desired:              3\n    Total:                3\nEvents:                   <none>\n',
    );
  });
  test("a budget that selects no pod: allowed 0, and the controller's NoPods event on each sync", () => {
    const c = cluster();
    runKubectl(c, 'create pdb none --selector=app=nothing --max-unavailable=1');
    c.advance(2000);
    expect(pdb(c, 'none').status).toMatchObject({
      expectedPods: 0,
      desiredHealthy: 0,
      currentHealthy: 0,
      disruptionsAllowed: 0,
    });
    expect(runKubectl(c, 'describe pdb none').stdout).toMatch(
      /Events:\n\s+Type\s+Reason\s+Age\s+From\s+Message\n[-\s]+\n\s+Normal\s+NoPods\s+.*controllermanager\s+No matching pods found\n$/,
    );
  });
  test('a changed spec is a new generation: evictions wait (429, retry in 10 s) until the controller has observed it', () => {
    const c = cluster();
    runKubectl(c, 'create pdb web --selector=app=web --max-unavailable=1');
    c.advance(2000);
    expect(pdb(c).status).toMatchObject({ observedGeneration: 1, disruptionsAllowed: 1 });
    runKubectl(c, `patch pdb web --type=merge -p '{"spec":{"maxUnavailable":2}}'`);
    expect(pdb(c).metadata?.generation).toBe(2);
    const pod = runKubectl(c, 'get pods -o name').stdout.trim().split('\n')[0].slice('pod/'.length);
    // The same moment: the controller has not synced the new generation yet.
    const r = c.request({
      verb: 'create',
      resource: 'pods',
      namespace: 'default',
      name: pod,
      subresource: 'eviction',
      body: { apiVersion: 'policy/v1', kind: 'Eviction', metadata: { name: pod, namespace: 'default' } },
    });
    expect(r).toMatchObject({
      ok: false,
      code: 429,
      status: {
        details: {
          retryAfterSeconds: 10,
          causes: [{ message: 'The disruption budget web is still being processed by the server.' }],
        },
      },
    });
    c.advance(1000);
    expect(pdb(c).status).toMatchObject({ observedGeneration: 2, desiredHealthy: 1, disruptionsAllowed: 2 });
  });
  test("a percentage is of the controllers' scale, rounded up", () => {
    const c = cluster(4);
    runKubectl(c, 'create pdb web --selector=app=web --max-unavailable=30%');
    c.advance(2000);
    expect(pdb(c).status).toMatchObject({
      expectedPods: 4,
      desiredHealthy: 2,
      currentHealthy: 4,
      disruptionsAllowed: 2,
    });
    expect(runKubectl(c, 'get pdb web --no-headers').stdout).toMatch(/^web\s+N\/A\s+30%\s+2\s+/);
  });
});

describe('eviction and drain', () => {
  test('a budget with no disruption left: 429 with the DisruptionBudget cause, nothing deleted', () => {
    const c = cluster();
    runKubectl(c, 'create pdb web --selector=app=web --min-available=3');
    c.advance(2000);
    const pod = runKubectl(c, 'get pods -o name').stdout.trim().split('\n')[0].slice('pod/'.length);
    const r = c.request({
      verb: 'create',
      resource: 'pods',
      namespace: 'default',
      name: pod,
      subresource: 'eviction',
      body: { apiVersion: 'policy/v1', kind: 'Eviction', metadata: { name: pod, namespace: 'default' } },
    });
    expect(r.ok).toBe(false);
    if (r.ok) return;
    expect(r.code).toBe(429);
    expect(r.status.message).toBe("Cannot evict pod as it would violate the pod's disruption budget.");
    expect(r.status.details?.causes).toEqual([
      { reason: 'DisruptionBudget', message: 'The disruption budget web needs 3 healthy pods and has 3 currently' },
    ]);
    expect(runKubectl(c, 'get pods --no-headers').stdout.split('\n').filter(Boolean)).toHaveLength(3);
  });
  test('drain is refused, retried every 5 s, and gives up at --timeout as kubectl prints it', () => {
    const c = cluster();
    runKubectl(c, 'create pdb web --selector=app=web --min-available=3');
    c.advance(2000);
    const out = runKubectl(c, 'drain node-2 --ignore-daemonsets --timeout=12s');
    const pod = /evicting pod default\/(\S+)/.exec(out.stdout)![1];
    expect(out.exitCode).toBe(1);
    expect(out.stdout).toBe(`node/node-2 cordoned\n${`evicting pod default/${pod}\n`.repeat(4)}`);
    const refused = `error when evicting pods/"${pod}" -n "default" (will retry after 5s): Cannot evict pod as it would violate the pod's disruption budget.\n`;
    const err = `error when evicting pods/"${pod}" -n "default": global timeout reached: 12s`;
    expect(out.stderr).toBe(
      `${refused.repeat(3)}There are pending pods in node "node-2" when an error occurred: ${err}\npod/${pod}\nerror: unable to drain node "node-2" due to error: ${err}, continuing command...\nThere are pending nodes to be drained:\n node-2\n${err}\n`,
    );
    // Scaled up, the budget allows one: the eviction decrements it and names the pod; the drain succeeds.
    runKubectl(c, 'scale deployment web --replicas=4');
    c.advance(5000);
    expect(pdb(c).status).toMatchObject({ disruptionsAllowed: 1, currentHealthy: 4, expectedPods: 4 });
    const from = c.log.length;
    const again = runKubectl(c, 'drain node-2 --ignore-daemonsets');
    expect(again).toEqual({
      stdout: `node/node-2 already cordoned\nevicting pod default/${pod}\npod/${pod} evicted\nnode/node-2 drained\n`,
      stderr: '',
      exitCode: 0,
    });
    const apiserver = c.log
      .slice(from)
      .filter(
        (x) => x.kind === 'request' && x.component === 'kube-apiserver' && x.path.includes('poddisruptionbudgets'),
      )
      .map((x) => `${x.verb} ${x.path}`);
    expect(apiserver).toEqual([
      'GET /apis/policy/v1/namespaces/default/poddisruptionbudgets',
      'PUT /apis/policy/v1/namespaces/default/poddisruptionbudgets/web/status',
    ]);
    c.advance(10_000);
    const st = pdb(c).status!;
    expect(st).toMatchObject({ disruptionsAllowed: 1, currentHealthy: 4, desiredHealthy: 3, expectedPods: 4 });
    expect(st.disruptedPods).toBeUndefined();
    expect(st.conditions?.[0]).toMatchObject({ status: 'True', reason: 'SufficientPods' });
  });
  test('two budgets over one pod: the 500 the registry answers', () => {
    const c = cluster();
    runKubectl(c, 'create pdb a --selector=app=web --min-available=1');
    runKubectl(c, 'create pdb b --selector=app=web --min-available=1');
    c.advance(2000);
    const out = runKubectl(c, 'drain node-2 --ignore-daemonsets');
    expect(out.exitCode).toBe(1);
    expect(out.stderr).toMatch(
      /\nerror when evicting pods\/"web-\S+" -n "default": This pod has more than one PodDisruptionBudget, which the eviction subresource does not support.\n$/,
    );
  });
});

describe("the controller's life", () => {
  test("not started before the first PDB; started in the controller manager's process by its create; stopped and restarted with that process", () => {
    const c = cluster();
    expect(c.world.state.components['disruption-controller']).toBeUndefined();
    runKubectl(c, 'create pdb web --selector=app=web --min-available=2');
    c.advance(1000);
    expect(c.world.state.components['disruption-controller']).toMatchObject({ process: 'kube-controller-manager' });
    c.controlPlane('stop', 'controller-manager');
    runKubectl(c, 'scale deployment web --replicas=4');
    c.advance(60_000);
    // Its next event finds its process gone: it stops too.
    expect(c.world.state.components['disruption-controller']).toBeUndefined();
    runKubectl(c, 'scale deployment web --replicas=3');
    c.controlPlane('start', 'controller-manager');
    c.advance(30_000);
    // An eviction that reads the budget starts it again (the real one restarts with its process).
    expect(runKubectl(c, 'drain node-1 --ignore-daemonsets').exitCode).toBe(0);
    expect(c.world.state.components['disruption-controller']).toMatchObject({ process: 'kube-controller-manager' });
    c.advance(20_000);
    expect(pdb(c).status).toMatchObject({ currentHealthy: 3, expectedPods: 3, disruptionsAllowed: 1 });
  });
});

describe("the controller's arithmetic", () => {
  test('GetScaledValueFromIntOrPercent rounds up; a string that is no percent is an error', () => {
    expect(scaledValue('30%', 4)).toBe(2);
    expect(scaledValue('50%', 3)).toBe(2);
    expect(scaledValue(2, 10)).toBe(2);
    expect(scaledValue('x', 3)).toEqual({
      error: 'invalid value for IntOrString: invalid type: string is not a percentage',
    });
  });
  test('an integer minAvailable counts the pods; unmanaged pods with a percentage are reported', () => {
    const s = { rsInformer: { items: {} }, dInformer: { items: {} } } as unknown as DisruptionControllerState;
    const pods = [{ metadata: { name: 'a' } }, { metadata: { name: 'b' } }];
    expect(expectedPodCount(s, { spec: { minAvailable: 1 } }, pods)).toEqual({
      expectedCount: 2,
      desiredHealthy: 1,
      unmanagedPods: [],
    });
    expect(expectedPodCount(s, { spec: { minAvailable: '50%' } }, pods)).toEqual({
      expectedCount: 0,
      desiredHealthy: 0,
      unmanagedPods: ['a', 'b'],
    });
  });
  test('SetStatusCondition moves lastTransitionTime only with the status', () => {
    const one = setStatusCondition(
      [],
      { type: 'DisruptionAllowed', status: 'False', reason: 'InsufficientPods', message: '' },
      't1',
    );
    expect(
      setStatusCondition(
        one,
        { type: 'DisruptionAllowed', status: 'False', reason: 'SyncFailed', message: 'x' },
        't2',
      )[0].lastTransitionTime,
    ).toBe('t1');
    expect(
      setStatusCondition(
        one,
        { type: 'DisruptionAllowed', status: 'True', reason: 'SufficientPods', message: '' },
        't2',
      )[0].lastTransitionTime,
    ).toBe('t2');
  });
  test('checkAndDecrement: a status behind its generation is a 429 to retry in 10 s', () => {
    const st = budgetRefusal({
      metadata: { name: 'web', generation: 2 },
      status: { observedGeneration: 1, disruptionsAllowed: 1, currentHealthy: 0, desiredHealthy: 0, expectedPods: 0 },
    })!;
    expect(st.code).toBe(429);
    expect(st.details).toMatchObject({
      retryAfterSeconds: 10,
      causes: [
        { reason: 'DisruptionBudget', message: 'The disruption budget web is still being processed by the server.' },
      ],
    });
    expect(
      budgetRefusal({
        metadata: { name: 'web', generation: 1 },
        status: {
          observedGeneration: 1,
          disruptionsAllowed: -1,
          currentHealthy: 0,
          desiredHealthy: 0,
          expectedPods: 0,
        },
      })!.code,
    ).toBe(403);
  });
});
