// The memos of reader.ts: behaviour-side caches that only make it faster. They are never
// simulation state (WorldState does not hold them, snapshot/restore need not see them), and an
// answer read through them is the one reader.ts computes without them.

import type { IPTablesData } from './iptables-rules.ts';
import type { SyncedRules } from './kube-proxy.ts';
import type { NFTTable } from './nftables-rules.ts';
import type { RulesFormat } from './reader.ts';

/** The memo behind reader.ts' kubeProxyIPTablesOf (behaviour-side, never state). */
export const iptablesBySync = new WeakMap<SyncedRules, IPTablesData>();

/** The memo behind reader.ts' kubeProxyNFTablesOf (behaviour-side, never state). */
export const nftBySync = new WeakMap<SyncedRules, NFTTable>();

/** The memo behind reader.ts' kubeProxyRulesOf (behaviour-side, never state). */
export const textBySync = new WeakMap<SyncedRules, Partial<Record<RulesFormat, string>>>();
