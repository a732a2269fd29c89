// Chapter "the scheduler": filters (cordon, taints, resources) decide where a pod may go.
import { lines, type Scenario } from './types.ts';

/** node-1 cordoned, node-2 tainted: every pod lands on node-3. */
export const filters: Scenario = {
  chapter: 'scheduler',
  title: 'a cordon and an untolerated taint leave one feasible node',
  steps: [
    'kubectl cordon node-1',
    'kubectl taint nodes node-2 dedicated=batch:NoSchedule',
    'kubectl create deployment web --image=nginx:1.27 --replicas=3',
    'sim advance 30s',
  ],
  expect: [
    [
      'kubectl get nodes',
      lines(
        'NAME     STATUS                     ROLES    AGE   VERSION',
        'node-1   Ready,SchedulingDisabled   <none>   30s   v1.37.2',
        'node-2   Ready                      <none>   30s   v1.37.2',
        'node-3   Ready                      <none>   30s   v1.37.2',
      ),
    ],
    [
      'kubectl get pods -o wide',
      lines(
        'NAME                  READY   STATUS    RESTARTS   AGE   IP           NODE     NOMINATED NODE   READINESS GATES',
        'web-c68c68797-nzjqm   1/1     Running   0          30s   10.244.3.2   node-3   <none>           <none>',
        'web-c68c68797-pjhzg   1/1     Running   0          30s   10.244.3.3   node-3   <none>           <none>',
        'web-c68c68797-vc5xc   1/1     Running   0          30s   10.244.3.4   node-3   <none>           <none>',
      ),
    ],
  ],
};

/** Every worker cordoned: the pod stays Pending and says why. */
export const nowhereToGo: Scenario = {
  chapter: 'scheduler',
  title: 'no feasible node: Pending, with the FailedScheduling reason',
  steps: [
    'kubectl cordon node-1',
    'kubectl cordon node-2',
    'kubectl cordon node-3',
    'kubectl create deployment web --image=nginx:1.27 --replicas=1',
    'sim advance 30s',
  ],
  expect: [
    [
      'kubectl get pods -o wide',
      lines(
        'NAME                  READY   STATUS    RESTARTS   AGE   IP       NODE     NOMINATED NODE   READINESS GATES',
        'web-c68c68797-pjhzg   0/1     Pending   0          30s   <none>   <none>   <none>           <none>',
      ),
    ],
    // The scheduler's Event is events.k8s.io/v1's: its time is eventTime, to the microsecond, a few
    // ms after the pod's whole-second creationTimestamp, so it reads a second younger.
    [
      'kubectl get events --field-selector reason=FailedScheduling',
      lines(
        'LAST SEEN   TYPE      REASON             OBJECT                    MESSAGE',
        '29s         Warning   FailedScheduling   pod/web-c68c68797-pjhzg   0/3 nodes are available: 3 node(s) were unschedulable. preemption: 0/3 nodes are available: 3 Preemption is not helpful for scheduling.',
      ),
    ],
  ],
};
