// Pod IPs the way the host-local IPAM plugin hands them out from the node's podCIDR:
// the next free address after the last one reserved, wrapping round, so a released IP is not
// handed out again straight away. Src: containernetworking/plugins host-local (RangeIter).
import { newDict } from '../util/dict.ts';
import { ipStrings, prefixes } from './pod-ip-cache.ts';

/** IPAM state of one node (plain data): its /24, which IPs are held by which sandbox, the last one reserved. */
export interface PodIPAllocator {
  podCIDR: string;
  /** ip → sandbox id holding it */
  allocated: Record<string, string>;
  /** host part of the last IP reserved (host-local's last_reserved_ip) */
  lastReserved: number;
}

/** podCIDR the default cluster gives node-N (kubeadm --pod-network-cidr 10.244.0.0/16, one /24 per node). */
export function podCIDRForNode(nodeIndex: number): string {
  return `10.244.${nodeIndex}.0/24`;
}

/** A fresh allocator for a /24 podCIDR. */
export function newPodIPAllocator(podCIDR: string): PodIPAllocator {
  if (!/^\d+\.\d+\.\d+\.0\/24$/.test(podCIDR)) throw new Error(`only /24 podCIDRs are modelled: ${podCIDR}`);
  // .1 is the bridge gateway, so the range starts at .2 and the first pod gets .2.
  return { podCIDR, allocated: newDict(), lastReserved: 1 };
}

const FIRST_HOST = 2; // .0 network, .1 gateway
const LAST_HOST = 254; // .255 broadcast

function prefix(podCIDR: string): string {
  let p = prefixes.get(podCIDR);
  if (p === undefined) {
    p = podCIDR.split('/')[0].split('.').slice(0, 3).join('.');
    if (prefixes.size >= 65536) prefixes.clear();
    prefixes.set(podCIDR, p);
  }
  return p;
}

function ipOf(net: string, host: number): string {
  let hosts = ipStrings.get(net);
  if (!hosts) {
    hosts = [];
    if (ipStrings.size >= 65536) ipStrings.clear();
    ipStrings.set(net, hosts);
  }
  return (hosts[host] ??= `${net}.${host}`);
}

/** Reserve the next free IP for a sandbox, or report the range is exhausted (as CNI ADD would fail). */
export function allocatePodIP(
  a: PodIPAllocator,
  sandboxId: string,
): { allocator: PodIPAllocator; ip: string } | { allocator: PodIPAllocator; error: string } {
  const size = LAST_HOST - FIRST_HOST + 1;
  const net = prefix(a.podCIDR);
  for (let step = 1; step <= size; step++) {
    const host = FIRST_HOST + ((((a.lastReserved - FIRST_HOST + step) % size) + size) % size);
    const ip = ipOf(net, host);
    if (a.allocated[ip] === undefined) {
      // `allocated` is updated in place (the runtime keeps only the returned allocator): copying every
      // held IP per new pod added up on full nodes.
      a.allocated[ip] = sandboxId;
      return { allocator: { ...a, lastReserved: host }, ip };
    }
  }
  return {
    allocator: a,
    error: `failed to allocate for range 0: no IP addresses available in range set: ${prefix(a.podCIDR)}.1-${prefix(a.podCIDR)}.254`,
  };
}

/** Release a sandbox's IP (CNI DEL on RemovePodSandbox/StopPodSandbox). */
export function releasePodIP(a: PodIPAllocator, sandboxId: string): PodIPAllocator {
  const allocated = newDict<string>();
  for (const ip in a.allocated) if (a.allocated[ip] !== sandboxId) allocated[ip] = a.allocated[ip];
  return { ...a, allocated };
}
