import { describe, expect, it } from 'vitest';
import { History, LINE_MAX, STDIN_MAX, changesCluster, printable, tooLong, wantsStdin } from './terminal-line.ts';

describe('the terminal line on the page', () => {
  it("keeps the page's limits and the worker's the same", async () => {
    const { TERMINAL_LIMITS } = await import('../../sim/figures/terminal.ts');
    expect(LINE_MAX).toBe(TERMINAL_LIMITS.maxLine);
    expect(STDIN_MAX).toBe(TERMINAL_LIMITS.maxStdin);
    expect(tooLong('x'.repeat(LINE_MAX + 1))).toMatch(/at most 4096/);
    expect(tooLong('kubectl apply -f -', 'y'.repeat(STDIN_MAX + 1))).toMatch(/at most 262144/);
    expect(tooLong('kubectl get pods')).toBeNull();
  });

  it('knows the lines that read a manifest on stdin', () => {
    for (const l of [
      'kubectl apply -f -',
      'kubectl apply -n demo -f -',
      ' kubectl create -f - ',
      'kubectl apply --filename=-',
      'kubectl apply -f=-',
    ])
      expect(wantsStdin(l), l).toBe(true);
    for (const l of ['kubectl apply -f web.yaml', 'kubectl get pods', 'sim apply -f -', 'kubectl apply -f'])
      expect(wantsStdin(l), l).toBe(false);
  });

  it('draws control characters as U+FFFD and keeps newlines and tabs', () => {
    expect(printable('a\u0000b\u001b[31mc\td\n')).toBe('a\ufffdb\ufffd[31mc\td\n');
  });

  it('walks the history like a shell: up to older lines, down to the draft', () => {
    const h = new History();
    h.push('kubectl get pods');
    h.push('kubectl get pods');
    h.push('sim settle');
    h.push('  ');
    expect(h.up('draft')).toBe('sim settle');
    expect(h.up('sim settle')).toBe('kubectl get pods');
    expect(h.up('kubectl get pods')).toBeNull();
    expect(h.down()).toBe('sim settle');
    expect(h.down()).toBe('draft');
    expect(h.down()).toBeNull();
  });

  it('tells a line that changed the cluster (so a paused clock is worth saying) from one that only read or moved the clock', () => {
    for (const l of [
      'kubectl scale deployment web --replicas=5',
      'kubectl -n default delete pod web-1',
      'kubectl set image deployment/web nginx=nginx:1.28',
      'kubectl rollout undo deployment/web',
      'kubectl apply -f -',
      'sim node stop node-2',
      'sim control-plane stop',
    ])
      expect(changesCluster(l, 0), l).toBe(true);
    for (const l of [
      'kubectl get pods',
      'kubectl describe pod web-1',
      'kubectl rollout status deployment/web',
      'kubectl scale deployment web --replicas=5 --dry-run=server',
      'kubectl -n delete get pods',
      'sim settle',
      'sim advance 30s',
      'sim time',
      'help',
    ])
      expect(changesCluster(l, 0), l).toBe(false);
    expect(changesCluster('kubectl scale deployment nope --replicas=5', 1)).toBe(false);
  });
});
