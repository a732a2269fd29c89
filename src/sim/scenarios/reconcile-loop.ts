// Chapter "the reconcile loop": desired state goes in, controllers pull the actual state towards it.
import { lines, type Scenario } from './types.ts';

/** A deleted pod is replaced (new name, new IP), and a scale adds pods where there is room. */
export const selfHealing: Scenario = {
  chapter: 'reconcile-loop',
  title: 'delete a pod and scale: the ReplicaSet controller closes the gap',
  steps: [
    'kubectl create deployment web --image=nginx:1.27 --replicas=3',
    'sim advance 30s',
    // The pod on node-1 (web-c68c68797-7gn7h, 10.244.1.2) goes; its replacement gets a new name and IP.
    'kubectl delete pod -l app=web --field-selector=spec.nodeName=node-1 --wait=false',
    'kubectl scale deployment web --replicas=5',
    'sim advance 30s',
  ],
  expect: [
    [
      'kubectl get deploy,rs,pods -o wide',
      lines(
        'NAME                  READY   UP-TO-DATE   AVAILABLE   AGE   CONTAINERS   IMAGES       SELECTOR',
        'deployment.apps/web   5/5     5            5           60s   nginx        nginx:1.27   app=web',
        '',
        'NAME                            DESIRED   CURRENT   READY   AGE   CONTAINERS   IMAGES       SELECTOR',
        'replicaset.apps/web-c68c68797   5         5         5       60s   nginx        nginx:1.27   app=web,pod-template-hash=c68c68797',
        '',
        'NAME                      READY   STATUS    RESTARTS   AGE   IP           NODE     NOMINATED NODE   READINESS GATES',
        'pod/web-c68c68797-2pdpp   1/1     Running   0          30s   10.244.2.3   node-2   <none>           <none>',
        'pod/web-c68c68797-lkdzk   1/1     Running   0          30s   10.244.1.3   node-1   <none>           <none>',
        'pod/web-c68c68797-nzjqm   1/1     Running   0          60s   10.244.2.2   node-2   <none>           <none>',
        'pod/web-c68c68797-pjhzg   1/1     Running   0          60s   10.244.3.2   node-3   <none>           <none>',
        'pod/web-c68c68797-ss969   1/1     Running   0          30s   10.244.3.3   node-3   <none>           <none>',
      ),
    ],
  ],
};

/** Scale to zero and back: the ReplicaSet stays, the pods go and come back with new names. */
export const scaleToZero: Scenario = {
  chapter: 'reconcile-loop',
  title: 'scale to zero keeps the ReplicaSet; scaling up again makes new pods',
  steps: [
    'kubectl create deployment web --image=nginx:1.27 --replicas=2',
    'sim advance 30s',
    'kubectl scale deployment web --replicas=0',
    'sim advance 30s',
  ],
  expect: [
    [
      'kubectl get deploy,rs',
      lines(
        'NAME                  READY   UP-TO-DATE   AVAILABLE   AGE',
        'deployment.apps/web   0/0     0            0           60s',
        '',
        'NAME                            DESIRED   CURRENT   READY   AGE',
        'replicaset.apps/web-c68c68797   0         0         0       60s',
      ),
    ],
    ['kubectl get pods', '', 'No resources found in default namespace.\n'],
  ],
};
