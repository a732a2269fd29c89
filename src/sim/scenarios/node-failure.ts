// Chapter "a node dies": the lease stops, the node goes NotReady after the 50 s grace, gets the
// unreachable taints, and after the 300 s toleration its pods are evicted and replaced.
import { lines, type Scenario } from './types.ts';

const start = [
  'kubectl create deployment web --image=nginx:1.27 --replicas=3',
  'sim advance 30s',
  'sim node stop node-1',
];

/** 40 s after the power-off the node still looks Ready; 20 s later it is NotReady. */
export const grace: Scenario = {
  chapter: 'node-failure',
  title: 'the grace period: Ready at +40 s, NotReady at +60 s',
  steps: [...start, 'sim advance 40s'],
  expect: [
    [
      'kubectl get nodes',
      lines(
        'NAME     STATUS   ROLES    AGE   VERSION',
        'node-1   Ready    <none>   70s   v1.37.2',
        'node-2   Ready    <none>   70s   v1.37.2',
        'node-3   Ready    <none>   70s   v1.37.2',
      ),
    ],
  ],
};

/** After 6 minutes: the old pod Terminating on the dead node, its replacement Running elsewhere. */
export const eviction: Scenario = {
  chapter: 'node-failure',
  title: 'after the toleration: Terminating on the dead node, replaced elsewhere',
  steps: [...start, 'sim advance 1m', 'sim advance 5m'],
  expect: [
    [
      'kubectl get nodes',
      lines(
        'NAME     STATUS     ROLES    AGE     VERSION',
        'node-1   NotReady   <none>   6m30s   v1.37.2',
        'node-2   Ready      <none>   6m30s   v1.37.2',
        'node-3   Ready      <none>   6m30s   v1.37.2',
      ),
    ],
    [
      'kubectl get pods -o wide',
      lines(
        'NAME                  READY   STATUS        RESTARTS   AGE     IP           NODE     NOMINATED NODE   READINESS GATES',
        'web-c68c68797-lkdzk   1/1     Running       0          15s     10.244.2.3   node-2   <none>           <none>',
        'web-c68c68797-nzjqm   1/1     Running       0          6m30s   10.244.2.2   node-2   <none>           <none>',
        'web-c68c68797-pjhzg   1/1     Running       0          6m30s   10.244.3.2   node-3   <none>           <none>',
        'web-c68c68797-vc5xc   1/1     Terminating   0          6m30s   10.244.1.2   node-1   <none>           <none>',
      ),
    ],
  ],
};

/** The node comes back: the kubelet confirms the deletion, the old pod is gone, nothing moves back. */
export const nodeReturns: Scenario = {
  chapter: 'node-failure',
  title: 'the node returns without the evicted pod',
  steps: [...start, 'sim advance 6m', 'sim node start node-1', 'sim advance 1m'],
  expect: [
    [
      'kubectl get nodes',
      lines(
        'NAME     STATUS   ROLES    AGE     VERSION',
        'node-1   Ready    <none>   7m30s   v1.37.2',
        'node-2   Ready    <none>   7m30s   v1.37.2',
        'node-3   Ready    <none>   7m30s   v1.37.2',
      ),
    ],
    [
      'kubectl get pods -o wide',
      lines(
        'NAME                  READY   STATUS    RESTARTS   AGE     IP           NODE     NOMINATED NODE   READINESS GATES',
        'web-c68c68797-lkdzk   1/1     Running   0          75s     10.244.2.3   node-2   <none>           <none>',
        'web-c68c68797-nzjqm   1/1     Running   0          7m30s   10.244.2.2   node-2   <none>           <none>',
        'web-c68c68797-pjhzg   1/1     Running   0          7m30s   10.244.3.2   node-3   <none>           <none>',
      ),
    ],
  ],
};

/**
 * A partition healed within the toleration: the node is Ready again once its node informer's watch is
 * back (reflector back-off) and the next status tick compares against it; nothing evicted.
 */
export const partitionHealed: Scenario = {
  chapter: 'node-failure',
  title: 'a partition healed before 300 s: Ready again, no eviction',
  steps: [
    'kubectl create deployment web --image=nginx:1.27 --replicas=3',
    'sim advance 30s',
    'sim node partition node-1',
    'sim advance 2m',
    'sim node heal node-1',
    'sim advance 40s',
  ],
  expect: [
    [
      'kubectl get nodes',
      lines(
        'NAME     STATUS   ROLES    AGE     VERSION',
        'node-1   Ready    <none>   3m10s   v1.37.2',
        'node-2   Ready    <none>   3m10s   v1.37.2',
        'node-3   Ready    <none>   3m10s   v1.37.2',
      ),
    ],
    [
      'kubectl get pods -o wide',
      lines(
        'NAME                  READY   STATUS    RESTARTS   AGE     IP           NODE     NOMINATED NODE   READINESS GATES',
        'web-c68c68797-nzjqm   1/1     Running   0          3m10s   10.244.2.2   node-2   <none>           <none>',
        'web-c68c68797-pjhzg   1/1     Running   0          3m10s   10.244.3.2   node-3   <none>           <none>',
        'web-c68c68797-vc5xc   1/1     Running   0          3m10s   10.244.1.2   node-1   <none>           <none>',
      ),
    ],
  ],
};

/** The node lifecycle controller's events carry the source Kubernetes gives them: "node-controller". */
export const nodeNotReadyEvent: Scenario = {
  chapter: 'node-failure',
  title: 'NodeNotReady events on the node and its pods, from node-controller',
  steps: [...start, 'sim advance 1m'],
  expect: [
    [
      'kubectl get events --field-selector reason=NodeNotReady -o wide',
      lines(
        'LAST SEEN   TYPE      REASON         OBJECT                    SUBOBJECT   SOURCE            MESSAGE                                   FIRST SEEN   COUNT   NAME',
        '15s         Normal    NodeNotReady   node/node-1                           node-controller   Node node-1 status is now: NodeNotReady   15s          1       node-1.188672636b3591e3',
        '15s         Warning   NodeNotReady   pod/web-c68c68797-vc5xc               node-controller   Node is not ready                         15s          1       web-c68c68797-vc5xc.188672636b3591e4',
      ),
    ],
  ],
};

/**
 * The node is not coming back, so its Node object is deleted: the pod garbage collector force-deletes
 * its pods after the 40 s quarantine (no 300 s wait), and the garbage collector takes its Lease.
 */
export const nodeDeleted: Scenario = {
  chapter: 'node-failure',
  title: 'the dead Node deleted: its pods go after the 40 s quarantine, and its Lease with it',
  steps: [...start, 'sim advance 2m', 'kubectl delete node node-1', 'sim advance 90s'],
  expect: [
    [
      'kubectl get nodes',
      lines(
        'NAME     STATUS   ROLES    AGE   VERSION',
        'node-2   Ready    <none>   4m    v1.37.2',
        'node-3   Ready    <none>   4m    v1.37.2',
      ),
    ],
    [
      'kubectl get pods -o wide',
      lines(
        'NAME                  READY   STATUS    RESTARTS   AGE   IP           NODE     NOMINATED NODE   READINESS GATES',
        'web-c68c68797-lkdzk   1/1     Running   0          40s   10.244.2.3   node-2   <none>           <none>',
        'web-c68c68797-nzjqm   1/1     Running   0          4m    10.244.2.2   node-2   <none>           <none>',
        'web-c68c68797-pjhzg   1/1     Running   0          4m    10.244.3.2   node-3   <none>           <none>',
      ),
    ],
    [
      'kubectl get leases -n kube-node-lease',
      lines('NAME     HOLDER   AGE', 'node-2   node-2   4m', 'node-3   node-3   4m'),
    ],
  ],
};

const OUT_OF_SERVICE = 'node.kubernetes.io/out-of-service=nodeshutdown:NoExecute';

/**
 * The node is shut down for good but its Node object kept: an operator taints it out-of-service and
 * the pod garbage collector force-deletes its Terminating pods at its next pass (every 20 s).
 */
export const outOfService: Scenario = {
  chapter: 'node-failure',
  title: 'the out-of-service taint: the Terminating pods are gone within one pod GC pass',
  steps: [...start, 'sim advance 6m', `kubectl taint nodes node-1 ${OUT_OF_SERVICE}`, 'sim advance 20s'],
  expect: [
    [
      'kubectl get pods -o wide',
      lines(
        'NAME                  READY   STATUS    RESTARTS   AGE     IP           NODE     NOMINATED NODE   READINESS GATES',
        'web-c68c68797-lkdzk   1/1     Running   0          35s     10.244.2.3   node-2   <none>           <none>',
        'web-c68c68797-nzjqm   1/1     Running   0          6m50s   10.244.2.2   node-2   <none>           <none>',
        'web-c68c68797-pjhzg   1/1     Running   0          6m50s   10.244.3.2   node-3   <none>           <none>',
      ),
    ],
    // The taint eviction controller marks the pod for deletion again on the new NoExecute taint: the
    // one Event, counted twice (get's LAST SEEN is the last time alone; COUNT and FIRST SEEN are wide).
    [
      'kubectl get events --field-selector reason=TaintManagerEviction -o wide',
      lines(
        'LAST SEEN   TYPE     REASON                 OBJECT                    SUBOBJECT   SOURCE                      MESSAGE                                                FIRST SEEN   COUNT   NAME',
        '20s         Normal   TaintManagerEviction   pod/web-c68c68797-vc5xc               taint-eviction-controller   Marking for deletion Pod default/web-c68c68797-vc5xc   35s          2       web-c68c68797-vc5xc.188672a949c22c80',
      ),
    ],
  ],
};

/** The node returns Ready but keeps the operator's taint, so it gets no pods until the taint is removed. */
export const outOfServiceNodeBack: Scenario = {
  chapter: 'node-failure',
  title: 'back from an out-of-service shutdown: no pods until the taint is removed',
  steps: [
    ...start,
    'sim advance 6m',
    `kubectl taint nodes node-1 ${OUT_OF_SERVICE}`,
    'sim advance 20s',
    'sim node start node-1',
    'sim advance 1m',
    'kubectl scale deployment web --replicas=4',
    'sim advance 30s',
  ],
  expect: [
    [
      'kubectl get nodes',
      lines(
        'NAME     STATUS   ROLES    AGE     VERSION',
        'node-1   Ready    <none>   8m20s   v1.37.2',
        'node-2   Ready    <none>   8m20s   v1.37.2',
        'node-3   Ready    <none>   8m20s   v1.37.2',
      ),
    ],
    ["kubectl get node node-1 -o jsonpath='{.spec.taints[*].key}'", 'node.kubernetes.io/out-of-service'],
    [
      'kubectl get pods -o wide --field-selector spec.nodeName=node-1',
      '',
      'No resources found in default namespace.\n',
    ],
    [`kubectl taint nodes node-1 ${OUT_OF_SERVICE}-`, 'node/node-1 untainted\n'],
  ],
};
