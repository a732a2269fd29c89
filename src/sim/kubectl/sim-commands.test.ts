import { describe, expect, test } from 'vitest';
import { fixtureCluster } from '../testing/kubectl-fixture.ts';
import { formatSimTime, runSimCommand } from './sim-commands.ts';
import { appHealth } from '../app-health.ts';

describe('sim commands', () => {
  test('time and advance', () => {
    const c = fixtureCluster();
    expect(runSimCommand(c, 'sim time').stdout).toBe('t=10m0.000s\n');
    runSimCommand(c, 'sim advance 1m30.25s');
    expect(runSimCommand(c, 'sim time').stdout).toBe('t=11m30.250s\n');
    expect(formatSimTime(90_250)).toBe('1m30.250s');
    expect(formatSimTime(3_725_000)).toBe('1h2m5.000s');
  });
  test('faults reach the cluster', () => {
    const c = fixtureCluster();
    for (const l of [
      'sim node stop node-2',
      'sim node partition node-3',
      'sim control-plane stop scheduler',
      'sim apiserver latency 200ms',
      'sim etcd full',
      'sim crash web-x --oom',
      'sim image nginx:1.28 missing',
      'sim control-plane start',
      'sim app web-x crashes --log "bad config"',
      'sim app default/web-x leaks',
      'sim app web-x healthy -n prod',
    ]) {
      expect(runSimCommand(c, l)).toEqual({ stdout: '', stderr: '', exitCode: 0 });
    }
    expect(c.calls).toEqual([
      { method: 'node', args: ['node-2', 'stop'] },
      { method: 'node', args: ['node-3', 'partition'] },
      { method: 'controlPlane', args: ['stop', 'scheduler'] },
      { method: 'apiserverLatency', args: [200] },
      { method: 'etcd', args: ['full'] },
      { method: 'crash', args: ['default', 'web-x', { oom: true }] },
      { method: 'image', args: ['nginx:1.28', 'missing'] },
      { method: 'controlPlane', args: ['start'] },
      { method: 'app', args: ['default', 'web-x', appHealth('crashes', 'bad config')] },
      { method: 'app', args: ['default', 'web-x', appHealth('leaks')] },
      { method: 'app', args: ['prod', 'web-x', appHealth('healthy')] },
    ]);
  });
  test('bad input is a clear error', () => {
    const c = fixtureCluster();
    expect(runSimCommand(c, 'sim advance soon')).toEqual({
      stdout: '',
      stderr: 'error: invalid duration "soon" (use 500ms, 30s, 5m, 1h2m)\n',
      exitCode: 1,
    });
    expect(runSimCommand(c, 'sim node reboot node-1').stderr).toBe(
      'error: usage: sim node stop|start|partition|heal <node>\n',
    );
    expect(runSimCommand(c, 'sim control-plane stop kubelet').stderr).toBe(
      'error: unknown control-plane component "kubelet" (apiserver, etcd, scheduler, controller-manager)\n',
    );
    expect(runSimCommand(c, 'sim crash missing').stderr).toBe(
      'error: pod "missing" has no running container to crash in namespace "default"\n',
    );
    expect(runSimCommand(c, 'sim crash web-x --log').stderr).toBe(
      'error: --log needs the text the app writes as it crashes\n',
    );
    expect(runSimCommand(c, 'sim app web-x sleeps').stderr).toBe(
      'error: usage: sim app <pod> crashes|leaks|unready|healthy [--log <text>] [-n <namespace>]\n',
    );
    expect(runSimCommand(c, 'sim app web-x unready --log hi').stderr).toBe(
      'error: --log is the last words of an app that crashes\n',
    );
    expect(runSimCommand(c, 'sim app missing unready').stderr).toBe(
      'error: pod "missing" runs on no node in namespace "default"\n',
    );
  });
  test('log', () => {
    const c = fixtureCluster();
    const out = runSimCommand(c, 'sim log --since 20').stdout.trim().split('\n');
    expect(out[0]).toMatch(/^\d+\.\d{3}s  kubectl  (POST|PUT) \/\S+  20\d  rv=21$/);
    const json = runSimCommand(c, 'sim log -o json')
      .stdout.trim()
      .split('\n')
      .map((l) => JSON.parse(l));
    expect(json.some((r) => r.component === 'kubectl')).toBe(true);
  });
});
