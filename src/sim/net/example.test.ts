// examples/networking.sim runs with the add-ons its header asks for, and tells its story.
import { describe, expect, it } from 'vitest';
import { createCluster } from '../cluster.ts';
import { addonsFromHeader } from '../kube-proxy/addons.ts';
import { runScript, scriptHeader } from '../kubectl/script.ts';
import networking from '../../../examples/networking.sim?raw';

describe('examples/networking.sim', () => {
  it('runs every line (the last curl fails on purpose) and reaches each beat', () => {
    const r = runScript(createCluster({ seed: 1, addons: addonsFromHeader(scriptHeader(networking)) }), networking);
    const failed = r.steps.filter((s) => s.exitCode !== 0).map((s) => s.command);
    expect(failed).toEqual(['kubectl exec client -- curl -sS http://web']);
    const out = r.steps.map((s) => s.stdout).join('');
    expect(out).toContain('search default.svc.cluster.local svc.cluster.local cluster.local\n');
    expect(out).toMatch(/--probability 0\.3333333333 -j KUBE-SEP-/);
    expect(out).toMatch(/^100 requests from node-2 to default\/web .*: 100 ok, 0 failed$/m);
    expect(out).toMatch(/ node-3 +0 +\d+ timed out$/m);
    expect(out).toMatch(/^90 requests from node-2 to default\/web .*: 90 ok, 0 failed$/m);
    expect(r.steps.find((s) => s.exitCode !== 0)!.stderr).toBe(
      "curl: (7) Failed to connect to web port 80 after 0 ms: Couldn't connect to server\ncommand terminated with exit code 7\n",
    );
  }, 60_000);
});
