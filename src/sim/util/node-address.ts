// Which machine a node is: its name, its index and its InternalIP, as the kubelet registers them and
// kube-proxy on the same machine knows them (its --hostname-override and node IP).

/** A node's name, index and InternalIP from its kubelet's instance (`kubelet/node-N`) and params: node-N is 10.0.0.1N. */
export function nodeAddress(
  instance: string,
  p: { node?: string; index?: number; internalIP?: string } = {},
): { node: string; index: number; internalIP: string } {
  const node = p.node ?? instance.replace(/^kubelet\//, '');
  const index = p.index ?? Number(/(\d+)$/.exec(node)?.[1] ?? 1);
  return { node, index, internalIP: p.internalIP ?? `10.0.0.1${index}` };
}
