// The kubelet's own HTTPS server (port 10250) as the API server reaches it: `kubectl logs` goes
// apiserver → kubelet → the container's log (container-logs.ts). Only kubectl's part of the API server
// opens a connection, so this file is in kubectl's lazy chunk (src/sim/kubectl-extras.ts wires it).
import type { KubeletConnection } from '../apiserver/config.ts';
import { containerLogs } from './container-logs.ts';
import type { WorldState } from '../world.ts';
import type { KubeletState } from './kubelet-state.ts';

/** The kubelet of `node` in world `w` as the API server's connection finds it (undefined: no such kubelet). */
export function kubeletConnection(w: WorldState, node: string): KubeletConnection | undefined {
  const name = `kubelet/${node}`;
  const st = w.components[name]?.state as KubeletState | undefined;
  if (!st?.cfg) return undefined;
  // A powered-off node answers nothing; a node cut off from the control plane cannot be reached either.
  const reachable = st.up && !w.apiServer.faults.partitioned?.includes(name);
  return {
    ip: st.cfg.internalIP,
    reachable,
    containerLogs: (namespace, pod, container, previous) => containerLogs(st, namespace, pod, container, previous),
  };
}
