import type { FilterPlugin } from './framework.ts';
import { SUCCESS, newStatus } from './framework.ts';

/** ErrReason (nodename/node_name.go). */
const ERR_REASON_NODE_NAME = "node(s) didn't match the requested node name";

/** NodeName: a pod that names a node fits only that node. */
export const nodeName: FilterPlugin = {
  name: 'NodeName',
  filter(pod, nodeInfo) {
    const want = pod.spec?.nodeName;
    if (!want || want === nodeInfo.name) return SUCCESS;
    return newStatus('UnschedulableAndUnresolvable', ERR_REASON_NODE_NAME);
  },
};
