// Chapter "a control-plane outage": with the API server down kubectl is refused but the pods run on;
// each control-plane part, stopped alone, has its own signature.
import { lines, type Scenario } from './types.ts';

const web3 = ['kubectl create deployment web --image=nginx:1.27 --replicas=3', 'sim advance 30s'];

/** A 3-minute outage with a node dying in it: on restart the node gets a fresh grace period. */
export const fullOutage: Scenario = {
  chapter: 'control-plane-outage',
  title: 'control plane down 3 min while node-1 dies: refused, then a fresh grace period',
  steps: [
    ...web3,
    'sim control-plane stop',
    'kubectl get pods',
    'sim node stop node-1',
    'sim advance 3m',
    'sim control-plane start',
    'sim advance 30s',
  ],
  failing: ['kubectl get pods'],
  expect: [
    // node-1 has been off for 3.5 minutes, but the restarted controller gives every node 50 s from now.
    [
      'kubectl get nodes',
      lines(
        'NAME     STATUS   ROLES    AGE   VERSION',
        'node-1   Ready    <none>   4m    v1.37.2',
        'node-2   Ready    <none>   4m    v1.37.2',
        'node-3   Ready    <none>   4m    v1.37.2',
      ),
    ],
    [
      'kubectl get pods -o wide',
      lines(
        'NAME                  READY   STATUS    RESTARTS   AGE   IP           NODE     NOMINATED NODE   READINESS GATES',
        'web-c68c68797-nzjqm   1/1     Running   0          4m    10.244.2.2   node-2   <none>           <none>',
        'web-c68c68797-pjhzg   1/1     Running   0          4m    10.244.3.2   node-3   <none>           <none>',
        'web-c68c68797-vc5xc   1/1     Running   0          4m    10.244.1.2   node-1   <none>           <none>',
      ),
    ],
  ],
};

/** The scheduler alone stopped: new pods Pending with no node; the running ones untouched. */
export const schedulerDown: Scenario = {
  chapter: 'control-plane-outage',
  title: 'scheduler stopped: new pods stay Pending',
  steps: [...web3, 'sim control-plane stop scheduler', 'kubectl scale deployment web --replicas=5', 'sim advance 30s'],
  expect: [
    [
      'kubectl get pods -o wide',
      lines(
        'NAME                  READY   STATUS    RESTARTS   AGE   IP           NODE     NOMINATED NODE   READINESS GATES',
        'web-c68c68797-lkdzk   0/1     Pending   0          30s   <none>       <none>   <none>           <none>',
        'web-c68c68797-nzjqm   1/1     Running   0          60s   10.244.2.2   node-2   <none>           <none>',
        'web-c68c68797-pjhzg   1/1     Running   0          60s   10.244.3.2   node-3   <none>           <none>',
        'web-c68c68797-ss969   0/1     Pending   0          30s   <none>       <none>   <none>           <none>',
        'web-c68c68797-vc5xc   1/1     Running   0          60s   10.244.1.2   node-1   <none>           <none>',
      ),
    ],
  ],
};

/** The scheduler back: the Pending pods are bound and start. */
export const schedulerBack: Scenario = {
  chapter: 'control-plane-outage',
  title: 'scheduler started again: the Pending pods are scheduled',
  steps: [...schedulerDown.steps, 'sim control-plane start scheduler', 'sim advance 30s'],
  expect: [
    [
      'kubectl get deploy web',
      lines('NAME   READY   UP-TO-DATE   AVAILABLE   AGE', 'web    5/5     5            5           90s'),
    ],
  ],
};

/** The controller-manager alone stopped: scale is accepted but nothing happens; started, it converges. */
export const controllerManagerDown: Scenario = {
  chapter: 'control-plane-outage',
  title: 'controller-manager stopped: the spec changes, nothing follows until it is back',
  steps: [
    ...web3,
    'sim control-plane stop controller-manager',
    'kubectl scale deployment web --replicas=1',
    'sim advance 30s',
  ],
  expect: [
    [
      'kubectl get deploy,rs',
      lines(
        'NAME                  READY   UP-TO-DATE   AVAILABLE   AGE',
        'deployment.apps/web   3/1     3            3           60s',
        '',
        'NAME                            DESIRED   CURRENT   READY   AGE',
        'replicaset.apps/web-c68c68797   3         3         3       60s',
      ),
    ],
  ],
};

/** etcd out of space: the write is refused, reads still answer. */
export const etcdFull: Scenario = {
  chapter: 'control-plane-outage',
  title: 'etcd full: writes refused, reads work',
  steps: [...web3, 'sim etcd full', 'kubectl scale deployment web --replicas=5'],
  failing: ['kubectl scale deployment web --replicas=5'],
  expect: [
    [
      'kubectl get deploy web',
      lines('NAME   READY   UP-TO-DATE   AVAILABLE   AGE', 'web    3/3     3            3           30s'),
    ],
  ],
};
