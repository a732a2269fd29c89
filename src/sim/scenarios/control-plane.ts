// Chapter "the control plane": kubectl writes a Deployment; the controllers, the scheduler and the
// kubelets each do their part through the API server, and the objects show the result.
import { lines, type Scenario } from './types.ts';

/** A two-replica Deployment goes from a POST to Running pods on two nodes. */
export const controlPlane: Scenario = {
  chapter: 'control-plane',
  title: 'one kubectl create, every component plays its part',
  steps: ['kubectl create deployment web --image=nginx:1.27 --replicas=2', 'sim advance 30s'],
  expect: [
    [
      'kubectl get deploy,rs,pods -o wide',
      lines(
        'NAME                  READY   UP-TO-DATE   AVAILABLE   AGE   CONTAINERS   IMAGES       SELECTOR',
        'deployment.apps/web   2/2     2            2           30s   nginx        nginx:1.27   app=web',
        '',
        'NAME                            DESIRED   CURRENT   READY   AGE   CONTAINERS   IMAGES       SELECTOR',
        'replicaset.apps/web-c68c68797   2         2         2       30s   nginx        nginx:1.27   app=web,pod-template-hash=c68c68797',
        '',
        'NAME                      READY   STATUS    RESTARTS   AGE   IP           NODE     NOMINATED NODE   READINESS GATES',
        'pod/web-c68c68797-pjhzg   1/1     Running   0          30s   10.244.2.2   node-2   <none>           <none>',
        'pod/web-c68c68797-vc5xc   1/1     Running   0          30s   10.244.3.2   node-3   <none>           <none>',
      ),
    ],
    [
      'kubectl get nodes',
      lines(
        'NAME     STATUS   ROLES    AGE   VERSION',
        'node-1   Ready    <none>   30s   v1.37.2',
        'node-2   Ready    <none>   30s   v1.37.2',
        'node-3   Ready    <none>   30s   v1.37.2',
      ),
    ],
  ],
};

/** The kubeadm world: a tainted control-plane node running the control plane as static pods. */
export const kubeadm: Scenario = {
  chapter: 'control-plane',
  title: 'kubeadm: the control plane runs as static pods on a tainted node',
  options: { kubeadm: true },
  steps: ['kubectl create deployment web --image=nginx:1.27 --replicas=3', 'sim advance 30s'],
  expect: [
    [
      'kubectl get nodes',
      lines(
        'NAME            STATUS   ROLES           AGE   VERSION',
        'control-plane   Ready    control-plane   30s   v1.37.2',
        'node-1          Ready    <none>          30s   v1.37.2',
        'node-2          Ready    <none>          30s   v1.37.2',
        'node-3          Ready    <none>          30s   v1.37.2',
      ),
    ],
    [
      'kubectl get pods -n kube-system -o wide',
      lines(
        'NAME                                    READY   STATUS    RESTARTS   AGE   IP          NODE            NOMINATED NODE   READINESS GATES',
        'etcd-control-plane                      1/1     Running   0          30s   10.0.0.10   control-plane   <none>           <none>',
        'kube-apiserver-control-plane            1/1     Running   0          30s   10.0.0.10   control-plane   <none>           <none>',
        'kube-controller-manager-control-plane   1/1     Running   0          30s   10.0.0.10   control-plane   <none>           <none>',
        'kube-scheduler-control-plane            1/1     Running   0          30s   10.0.0.10   control-plane   <none>           <none>',
      ),
    ],
    [
      'kubectl get pods -o wide',
      lines(
        'NAME                  READY   STATUS    RESTARTS   AGE   IP           NODE     NOMINATED NODE   READINESS GATES',
        'web-c68c68797-nzjqm   1/1     Running   0          30s   10.244.1.2   node-1   <none>           <none>',
        'web-c68c68797-pjhzg   1/1     Running   0          30s   10.244.2.2   node-2   <none>           <none>',
        'web-c68c68797-vc5xc   1/1     Running   0          30s   10.244.3.2   node-3   <none>           <none>',
      ),
    ],
  ],
};

/** `sim settle` should wait until the pods it started are reported Running. */
export const settleWaitsForRunning: Scenario = {
  chapter: 'control-plane',
  title: 'sim settle returns once the started containers are reported',
  steps: ['kubectl create deployment web --image=nginx:1.27 --replicas=1', 'sim settle 30s'],
  expect: [
    [
      'kubectl get pods',
      lines(
        'NAME                  READY   STATUS    RESTARTS   AGE',
        'web-c68c68797-pjhzg   1/1     Running   0          7s',
      ),
    ],
  ],
};

/** Authorisation, asked and enforced: kubectl auth can-i (a SelfSubjectAccessReview), then a refused write. */
export const askTheAuthorizer: Scenario = {
  chapter: 'control-plane',
  title: 'RBAC: the scheduler may bind pods, not create Deployments',
  steps: [],
  expect: [
    ['kubectl auth can-i create deployments', 'yes\n'],
    ['kubectl auth can-i create deployments --as system:kube-scheduler', 'no\n'],
    ['kubectl auth can-i create pods --subresource binding --as system:kube-scheduler', 'yes\n'],
    [
      'kubectl create deployment web --image=nginx:1.27 --as system:kube-scheduler',
      '',
      'error: failed to create deployment: deployments.apps is forbidden: User "system:kube-scheduler" cannot create resource "deployments" in API group "apps" in the namespace "default"\n',
    ],
  ],
};
