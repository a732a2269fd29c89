// The add-ons a script's `# addons:` header can name, made into their cluster add-ons. Imported by
// the CLI (scripts/sim.ts) and tests, never by the worker.
import type { ClusterAddon } from '../cluster-types.ts';
import type { ScriptHeader } from '../kubectl/script.ts';
import { corednsAddon } from '../net/index.ts';
import { kubeProxyAddon } from './kube-proxy.ts';

/** `kube-proxy` (iptables mode), `kube-proxy=iptables`, `kube-proxy=nftables` or `coredns`; anything else throws. */
export function addonsFromHeader(header: ScriptHeader): ClusterAddon[] {
  return header.addons.map((a) => {
    const [name, mode] = a.split('=', 2);
    if (name === 'kube-proxy' && (mode === undefined || mode === 'iptables' || mode === 'nftables'))
      return kubeProxyAddon({ mode: mode ?? 'iptables' });
    if (name === 'coredns' && mode === undefined) return corednsAddon();
    throw new Error(`unknown addon "${a}" (known: kube-proxy, kube-proxy=iptables, kube-proxy=nftables, coredns)`);
  });
}
