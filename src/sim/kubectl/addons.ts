// A script's `# addons:` header made into cluster add-ons, for the CLI. The add-ons' code is a chunk
// of its own, imported only when a script asks for one: kubectl's chunk (the figures' terminal)
// carries none of it.
import type { ClusterAddon } from '../cluster-types.ts';
import type { ScriptHeader } from './script.ts';

/** The add-ons a script header names (kube-proxy, kube-proxy=nftables); rejects a name it does not know. */
export async function addonsFromHeader(header: ScriptHeader): Promise<ClusterAddon[]> {
  if (!header.addons.length) return [];
  const { addonsFromHeader: make } = await import('../kube-proxy/addons.ts');
  return make(header);
}
