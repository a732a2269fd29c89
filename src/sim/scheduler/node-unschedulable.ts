import type { FilterPlugin } from './framework.ts';
import { SUCCESS, newStatus } from './framework.ts';
import { tolerationsTolerateTaint } from './taint-toleration.ts';

/** ErrReasonUnschedulable (nodeunschedulable/node_unschedulable.go). */
const ERR_REASON_UNSCHEDULABLE = 'node(s) were unschedulable';

/** NodeUnschedulable: a cordoned node takes only pods tolerating node.kubernetes.io/unschedulable:NoSchedule. */
export const nodeUnschedulable: FilterPlugin = {
  name: 'NodeUnschedulable',
  filter(pod, nodeInfo) {
    if (!nodeInfo.node.spec?.unschedulable) return SUCCESS;
    const tolerates = tolerationsTolerateTaint(pod.spec?.tolerations, {
      key: 'node.kubernetes.io/unschedulable',
      effect: 'NoSchedule',
    });
    return tolerates ? SUCCESS : newStatus('UnschedulableAndUnresolvable', ERR_REASON_UNSCHEDULABLE);
  },
};
