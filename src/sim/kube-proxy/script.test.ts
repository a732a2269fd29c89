// The script runner with kube-proxy on: a script's `# addons:` header, `kubectl expose` and `sim rules`.
import { describe, expect, it } from 'vitest';
import { createCluster } from '../cluster.ts';
import { runScript, scriptHeader } from '../kubectl/script.ts';
import { runSimCommand } from '../kubectl/sim-commands.ts';
import { addonsFromHeader } from './addons.ts';

const SCRIPT = `# Chapter: the life of a request.
# addons: kube-proxy
kubectl create deployment web --image=nginx:1.27 --replicas=3
kubectl expose deployment web --port 80
sim settle
sim rules node-1
`;

function run(text: string) {
  const cluster = createCluster({ seed: 1, addons: addonsFromHeader(scriptHeader(text)) });
  return { cluster, ...runScript(cluster, text) };
}

describe('scriptHeader', () => {
  it('reads addons from the comments before the first command only', () => {
    expect(scriptHeader('# intro\n# addons: kube-proxy, other\n\nkubectl get pods\n# addons: late\n').addons).toEqual([
      'kube-proxy',
      'other',
    ]);
    expect(scriptHeader('kubectl get pods\n').addons).toEqual([]);
  });
});

describe('addonsFromHeader', () => {
  it('turns kube-proxy on in iptables mode, or nftables when asked, and refuses what it does not know', () => {
    expect(addonsFromHeader({ addons: [] })).toEqual([]);
    expect(addonsFromHeader({ addons: ['kube-proxy'] }).map((a) => a.name)).toEqual(['kube-proxy']);
    const c = createCluster({ seed: 1, nodes: 1 });
    expect(addonsFromHeader({ addons: ['kube-proxy=nftables'] })[0].instances(c.world.state)).toEqual([
      [
        'kube-proxy/node-1',
        'kube-proxy',
        { params: { node: 'node-1', mode: 'nftables', nodeIP: '10.0.0.11', clusterCIDR: '10.244.0.0/16' } },
      ],
      ['pod-network', 'pod-network', { params: { seed: 1 } }],
    ]);
    expect(() => addonsFromHeader({ addons: ['kube-dns'] })).toThrow('unknown addon "kube-dns"');
    expect(addonsFromHeader({ addons: ['coredns'] }).map((a) => a.name)).toEqual(['coredns']);
  });
});

describe('sim rules', () => {
  it("prints the node's nat table after a Deployment of 3 is exposed", () => {
    const { steps, exitCode, cluster } = run(SCRIPT);
    expect(exitCode).toBe(0);
    const out = steps.at(-1)!.stdout;
    const svc =
      /-A KUBE-SERVICES -m comment --comment "default\/web cluster IP" -m tcp -p tcp -d (10\.\d+\.\d+\.\d+) --dport 80 -j (KUBE-SVC-\w{16})/.exec(
        out,
      );
    expect(svc).not.toBeNull();
    const [, clusterIP, chain] = svc!;
    const got = cluster.request({ verb: 'get', resource: 'services', namespace: 'default', name: 'web' }) as {
      object: { spec: { clusterIP: string } };
    };
    expect(clusterIP).toBe(got.object.spec.clusterIP);
    // The Service chain: masquerade from outside the pod network, then 1/3, 1/2 and the rest.
    const svcRules = out.split('\n').filter((l) => l.startsWith(`-A ${chain} `));
    expect(svcRules[0]).toBe(
      `-A ${chain} -m comment --comment "default/web cluster IP" -m tcp -p tcp -d ${clusterIP} --dport 80 ! -s 10.244.0.0/16 -j KUBE-MARK-MASQ`,
    );
    expect(svcRules.slice(1).map((l) => /--probability (\S+)/.exec(l)?.[1] ?? '-')).toEqual([
      '0.3333333333',
      '0.5000000000',
      '-',
    ]);
    // One KUBE-SEP chain per pod, each DNATing to a pod IP on port 80.
    const dnat = out.split('\n').filter((l) => l.includes('--comment default/web ') && l.includes('DNAT'));
    expect(dnat).toHaveLength(3);
    for (const l of dnat)
      expect(l).toMatch(
        /^-A KUBE-SEP-\w{16} -m comment --comment default\/web -m tcp -p tcp -j DNAT --to-destination 10\.244\.\d+\.\d+:80$/,
      );
    expect(out.startsWith('*nat\n:PREROUTING ACCEPT [0:0]\n')).toBe(true);
    expect(out.endsWith('COMMIT\n')).toBe(true);
  });

  it('prints the nftables listing with --nftables', () => {
    const { cluster } = run(SCRIPT);
    const r = runSimCommand(cluster, 'sim rules node-2 --nftables');
    expect(r.exitCode).toBe(0);
    expect(r.stdout).toMatch(/chain service-\w{8}-default\/web\/tcp\/ \{/);
  });

  it('says why when there are no rules to print', () => {
    const plain = createCluster({ seed: 1 });
    expect(runSimCommand(plain, 'sim rules node-1').stderr).toBe(
      'error: kube-proxy does not run on node "node-1" (a script turns it on with the header line "# addons: kube-proxy")\n',
    );
    const { cluster } = run(SCRIPT);
    expect(runSimCommand(cluster, 'sim rules node-9').stderr).toBe('error: node "node-9" not found\n');
    expect(runSimCommand(cluster, 'sim rules').stderr).toBe('error: usage: sim rules <node> [--iptables|--nftables]\n');
    expect(runSimCommand(cluster, 'sim rules node-1 --ipvs').stderr).toBe('error: unknown flag: --ipvs\n');
  });
});
