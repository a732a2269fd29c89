// The chapter scripts in examples/ run against the assembled cluster: every line succeeds except
// the ones a script fails on purpose, and each story reaches its key moment.
import { describe, expect, test } from 'vitest';
import { createCluster } from '../cluster.ts';
import { runScript } from './script.ts';
import controlPlane from '../../../examples/control-plane.sim?raw';
import reconcileLoop from '../../../examples/reconcile-loop.sim?raw';
import scheduler from '../../../examples/scheduler.sim?raw';
import rollingUpdates from '../../../examples/rolling-updates.sim?raw';
import nodeFailure from '../../../examples/node-failure.sim?raw';
import controlPlaneOutage from '../../../examples/control-plane-outage.sim?raw';
import troubleshooting from '../../../examples/troubleshooting.sim?raw';

const CASES: [string, string, string[], string[]][] = [
  // name, script, lines that must appear on stdout, commands expected to fail
  [
    'control-plane',
    controlPlane,
    ['deployment.apps/web created', 'Kubernetes control plane is running at https://127.0.0.1:6443', 'yes', 'no'],
    [
      'kubectl auth can-i create deployments --as system:kube-scheduler',
      'kubectl create deployment web --image=nginx:1.27 --as system:kube-scheduler',
    ],
  ],
  [
    'reconcile-loop',
    reconcileLoop,
    [
      'deployment.apps/web created',
      'deployment.apps/web unchanged',
      'deployment "web" successfully rolled out',
      'deployment.apps/web scaled',
      'service/web exposed',
    ],
    [],
  ],
  ['scheduler', scheduler, ['node/node-1 cordoned', 'node/node-2 tainted', 'node/node-2 untainted'], []],
  [
    'rolling-updates',
    rollingUpdates,
    [
      'deployment.apps/web image updated',
      'deployment.apps/web rolled back',
      'deployment "web" successfully rolled out',
    ],
    [],
  ],
  ['node-failure', nodeFailure, ['node/node-2 drained', 'node/node-3 tainted', 'node/node-3 untainted'], []],
  [
    'troubleshooting',
    troubleshooting,
    [
      'deployment.apps/worker image updated',
      'deployment "worker" successfully rolled out',
      'deployment.apps/worker condition met',
      'deployment.apps "worker" deleted from default namespace',
    ],
    ['kubectl logs deploy/worker'],
  ],
  [
    'control-plane-outage',
    controlPlaneOutage,
    ['deployment.apps/web scaled'],
    ['kubectl get pods', 'kubectl scale deployment web --replicas=5', 'kubectl scale deployment web --replicas=2'],
  ],
];

describe('examples', () => {
  test.each(CASES)(
    '%s',
    (_name, script, mustPrint, mustFail) => {
      const r = runScript(createCluster({ seed: 1 }), script);
      const out = r.steps.map((s) => s.stdout).join('');
      for (const l of mustPrint) expect(out.split('\n')).toContain(l);
      const failed = r.steps.filter((s) => s.exitCode !== 0);
      expect(failed.map((s) => `${s.command} → ${s.stderr.trim()}`)).toEqual(
        failed.filter((s) => mustFail.includes(s.command)).map((s) => `${s.command} → ${s.stderr.trim()}`),
      );
      for (const c of mustFail) expect(failed.some((s) => s.command === c)).toBe(true);
    },
    60_000,
  );
});
