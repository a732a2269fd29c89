import { describe, expect, it } from 'vitest';
import { complete, KUBECTL_COMMANDS, RESOURCE_TYPES } from './complete.ts';
import { resolveKind } from './resources.ts';
import { runKubectl } from './index.ts';
import { TestCluster } from '../testing/test-cluster.ts';

const NAMES: Record<string, string[]> = {
  pods: ['web-7d4b9-abcde', 'web-7d4b9-fghij', 'api-1'],
  deployments: ['web', 'api'],
  nodes: ['node-1', 'node-2', 'node-3'],
  namespaces: ['default', 'kube-system'],
};
const names = (resource: string): string[] => NAMES[resource] ?? [];
const tab = (line: string) => complete(line, names);

describe('terminal completion', () => {
  it("completes the first word, kubectl's commands and subcommands", () => {
    expect(tab('kub').completed).toBe('kubectl ');
    expect(tab('kubectl ge').completed).toBe('kubectl get ');
    expect(tab('kubectl ').candidates).toContain('rollout');
    expect(tab('kubectl rollout u').completed).toBe('kubectl rollout undo ');
    expect(tab('kubectl cre').completed).toBe('kubectl create ');
    expect(tab('kubectl create d').completed).toBe('kubectl create deployment ');
  });

  it('completes resource types and the names of objects in the cluster', () => {
    expect(tab('kubectl get dep').completed).toBe('kubectl get deployments ');
    expect(tab('kubectl get pods we').completed).toBe('kubectl get pods web-7d4b9-');
    expect(tab('kubectl get pods web-7d4b9-').candidates).toEqual(['web-7d4b9-abcde', 'web-7d4b9-fghij']);
    expect(tab('kubectl describe deploy a').completed).toBe('kubectl describe deploy api ');
    expect(tab('kubectl rollout status deployment/w').completed).toBe('kubectl rollout status deployment/web ');
    expect(tab('kubectl get deploy/').candidates).toEqual(['deploy/api', 'deploy/web']);
    expect(tab('kubectl cordon node-').candidates).toEqual(['node-1', 'node-2', 'node-3']);
    expect(tab('kubectl logs a').completed).toBe('kubectl logs api-1 ');
    expect(tab('kubectl -n kube').completed).toBe('kubectl -n kube-system ');
  });

  it("completes flags, with = for those that take a value, and -o's formats", () => {
    expect(tab('kubectl get pods --show-l').completed).toBe('kubectl get pods --show-labels ');
    expect(tab('kubectl get pods --all-n').completed).toBe('kubectl get pods --all-namespaces ');
    expect(tab('kubectl scale deployment web --rep').completed).toBe('kubectl scale deployment web --replicas=');
    expect(tab('kubectl get pods -o ya').completed).toBe('kubectl get pods -o yaml ');
    expect(tab('kubectl get pods --').candidates).toContain('--namespace=');
    // describe's --show-events is a bool; logs -f waits up to --pod-running-timeout (1.36+).
    expect(tab('kubectl describe pods --show-e').completed).toBe('kubectl describe pods --show-events ');
    expect(tab('kubectl logs -f web --pod-r').completed).toBe('kubectl logs -f web --pod-running-timeout=');
  });

  it('completes sim lines: commands, their words, node and pod names', () => {
    expect(tab('sim se').completed).toBe('sim settle ');
    expect(tab('sim node st').candidates).toEqual(['start', 'stop']);
    expect(tab('sim node stop node-3').completed).toBe('sim node stop node-3 ');
    expect(tab('sim control-plane stop sch').completed).toBe('sim control-plane stop scheduler ');
    expect(tab('sim crash api').completed).toBe('sim crash api-1 ');
  });

  it('offers nothing for words it cannot know, and never throws', () => {
    expect(tab('rm -r').candidates).toEqual([]);
    expect(tab('kubectl frobnicate x').candidates).toEqual([]);
    expect(tab('kubectl create deployment ').candidates).toEqual([]);
    for (const l of ['', ' ', '\u0000', 'kubectl "', 'kubectl get pods -n', 'sim node stop ' + 'x'.repeat(5000)])
      expect(() => tab(l)).not.toThrow();
  });

  it('knows the resource types and the commands kubectl runs here', () => {
    for (const [r, aliases] of Object.entries(RESOURCE_TYPES))
      for (const a of [r, ...aliases]) expect(resolveKind(a)?.resource, a).toBe(r);
    const c = new TestCluster();
    for (const cmd of Object.keys(KUBECTL_COMMANDS))
      expect(runKubectl(c, `${cmd} --help`).stderr, cmd).not.toContain(`unknown command "${cmd}" for "kubectl"`);
  });

  it('offers only flags kubectl accepts on each command', () => {
    const c = new TestCluster();
    const walk = (path: string, spec: (typeof KUBECTL_COMMANDS)[string]): void => {
      for (const f of spec.flags ?? []) {
        const err = runKubectl(c, `${path} ${f.startsWith('--') ? `${f}=1` : `${f} 1`}`).stderr;
        expect(err, `${path} ${f}`).not.toMatch(/unknown (shorthand )?flag/);
      }
      for (const [sub, s] of Object.entries(spec.sub ?? {})) walk(`${path} ${sub}`, s);
    };
    for (const [cmd, spec] of Object.entries(KUBECTL_COMMANDS)) walk(cmd, spec);
  });
});
