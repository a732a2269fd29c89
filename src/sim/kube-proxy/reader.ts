// What a node's kube-proxy last wrote, read from the world's state (the view's way in: no request,
// no change). The rules are computed again from the objects of its last sync, as it computed them.
import type { WorldState } from '../world.ts';
import {
  iptablesRestoreText,
  iptablesSaveNat,
  syncProxyRules,
  type IPTablesData,
  type ProxierConfig,
} from './iptables-rules.ts';
import type { KubeProxyState } from './kube-proxy.ts';
import { nftablesTransaction, nftListTable, syncNFTablesRules, type NFTTable } from './nftables-rules.ts';
import { iptablesBySync, nftBySync, textBySync } from './reader-cache.ts';

/** How the rules are printed: `iptables-save -t nat`, the whole iptables-restore input, or `nft list table ip kube-proxy` / its transaction. */
export type RulesFormat = 'iptables-save' | 'iptables-restore' | 'nft-list' | 'nft-transaction';

/** A node's kube-proxy state, or undefined when the cluster runs none there. */
export function kubeProxyStateOf(w: Pick<WorldState, 'components'>, node: string): KubeProxyState | undefined {
  const e = w.components[`kube-proxy/${node}`];
  return e?.type === 'kube-proxy' ? (e.state as KubeProxyState) : undefined;
}

/** The settings of a real node's proxier (iptables 1.8 has --random-fully; nfacct counters exist). */
function proxierConfig(s: KubeProxyState): ProxierConfig {
  return {
    nodeName: s.params.node,
    nodeIP: s.params.nodeIP,
    clusterCIDR: s.params.clusterCIDR,
    localhostNodePorts: true,
    nfacct: true,
    randomFully: true,
  };
}

/**
 * The iptables rules (both tables) of a node's last sync, computed once per sync: what the data
 * path walks. Undefined before the first sync or where kube-proxy does not run.
 */
export function kubeProxyIPTablesOf(w: Pick<WorldState, 'components'>, node: string): IPTablesData | undefined {
  const s = kubeProxyStateOf(w, node);
  if (!s?.synced) return undefined;
  let data = iptablesBySync.get(s.synced);
  if (!data)
    iptablesBySync.set(s.synced, (data = syncProxyRules(s.synced.services, s.synced.slices, proxierConfig(s))));
  return data;
}

/** The nftables table of a node's last sync, computed once per sync (what the data path walks in nftables mode). */
export function kubeProxyNFTablesOf(w: Pick<WorldState, 'components'>, node: string): NFTTable | undefined {
  const s = kubeProxyStateOf(w, node);
  if (!s?.synced) return undefined;
  let t = nftBySync.get(s.synced);
  if (!t) nftBySync.set(s.synced, (t = nftConfigTable(s)));
  return t;
}

function nftConfigTable(s: KubeProxyState): NFTTable {
  // The service range of kubeadm's default --service-cidr; NodePorts on the node's own IP only, as
  // --nodeport-addresses defaults to "primary" in nftables mode (cmd/kube-proxy/app/options.go).
  const nodePortIPs = s.params.nodeIP ? [s.params.nodeIP] : undefined;
  return syncNFTablesRules(s.synced!.services, s.synced!.slices, {
    nodeName: s.params.node,
    nodeIP: s.params.nodeIP,
    clusterCIDR: s.params.clusterCIDR,
    serviceCIDRs: '10.96.0.0/12',
    nodePortIPs,
  });
}

/**
 * The rules a node's kube-proxy last synced, printed as `format` (by default as its own mode's
 * listing); undefined when it has not synced yet or does not run there.
 */
export function kubeProxyRulesOf(w: WorldState, node: string, format?: RulesFormat): string | undefined {
  const s = kubeProxyStateOf(w, node);
  if (!s?.synced) return undefined;
  const f = format ?? (s.params.mode === 'nftables' ? 'nft-list' : 'iptables-save');
  // Printed once per sync and format, from the sync's memoised rules: a figure's view reads each
  // node's rules several times a step.
  let texts = textBySync.get(s.synced);
  if (!texts) textBySync.set(s.synced, (texts = {}));
  return (texts[f] ??= print(w, node, f));
}

function print(w: WorldState, node: string, f: RulesFormat): string {
  if (f === 'iptables-save' || f === 'iptables-restore') {
    const data = kubeProxyIPTablesOf(w, node)!;
    return f === 'iptables-save' ? iptablesSaveNat(data) : iptablesRestoreText(data);
  }
  const table = kubeProxyNFTablesOf(w, node)!;
  return f === 'nft-list' ? nftListTable(table) : nftablesTransaction(table).join('\n') + '\n';
}
