import type { FilterPlugin } from './framework.ts';
import { SUCCESS, newStatus } from './framework.ts';
import { hostPortConflicts, podHostPorts } from './node-info.ts';

/** ErrReason (nodeports/node_ports.go). */
const ERR_REASON_NODE_PORTS = "node(s) didn't have free ports for the requested pod ports";

/** NodePorts: every hostPort the pod asks for must be free on the node (0.0.0.0 clashes with any IP). */
export const nodePorts: FilterPlugin = {
  name: 'NodePorts',
  filter(pod, nodeInfo) {
    for (const p of podHostPorts(pod)) {
      if (hostPortConflicts(nodeInfo, p.ip, p.protocol, p.port))
        return newStatus('Unschedulable', ERR_REASON_NODE_PORTS);
    }
    return SUCCESS;
  },
};
