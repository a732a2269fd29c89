// The memos of iptables-walk.ts: behaviour-side caches that only make it faster. They are never
// simulation state (WorldState does not hold them, snapshot/restore need not see them), and an
// answer read through them is the one iptables-walk.ts computes without them.

import type { TableData } from '../kube-proxy/iptables-rules.ts';
import type { Rule } from './iptables-walk.ts';

/** The memo behind iptables-walk.ts' ruleWords (behaviour-side, never state). */
export const parsed = new WeakMap<TableData, Map<string, Rule[]>>();
