// Chapter "rolling updates": a new template makes a new ReplicaSet; undo goes back to the old one.
import { lines, type Scenario } from './types.ts';

/** set image rolls to a new ReplicaSet; undo scales the old one back up as revision 3. */
export const rollAndUndo: Scenario = {
  chapter: 'rolling-updates',
  title: 'set image, then rollout undo',
  steps: [
    'kubectl create deployment web --image=nginx:1.27 --replicas=4',
    'sim advance 30s',
    'kubectl set image deployment/web nginx=nginx:1.28',
    'sim advance 1m',
  ],
  expect: [
    [
      'kubectl get deploy,rs,pods -o wide',
      lines(
        'NAME                  READY   UP-TO-DATE   AVAILABLE   AGE   CONTAINERS   IMAGES       SELECTOR',
        'deployment.apps/web   4/4     4            4           90s   nginx        nginx:1.28   app=web',
        '',
        'NAME                            DESIRED   CURRENT   READY   AGE   CONTAINERS   IMAGES       SELECTOR',
        'replicaset.apps/web-c47498c66   4         4         4       60s   nginx        nginx:1.28   app=web,pod-template-hash=c47498c66',
        'replicaset.apps/web-c68c68797   0         0         0       90s   nginx        nginx:1.27   app=web,pod-template-hash=c68c68797',
        '',
        'NAME                      READY   STATUS    RESTARTS   AGE   IP           NODE     NOMINATED NODE   READINESS GATES',
        'pod/web-c47498c66-2pdpp   1/1     Running   0          60s   10.244.1.3   node-1   <none>           <none>',
        'pod/web-c47498c66-lsm28   1/1     Running   0          53s   10.244.2.4   node-2   <none>           <none>',
        'pod/web-c47498c66-rzs7n   1/1     Running   0          53s   10.244.2.5   node-2   <none>           <none>',
        'pod/web-c47498c66-ss969   1/1     Running   0          60s   10.244.3.3   node-3   <none>           <none>',
      ),
    ],
    [
      'kubectl rollout history deployment/web',
      lines('deployment.apps/web ', 'REVISION  CHANGE-CAUSE', '1         <none>', '2         <none>', ''),
    ],
  ],
};

/** Undo brings back the old ReplicaSet, which becomes revision 3. */
export const undo: Scenario = {
  chapter: 'rolling-updates',
  title: 'rollout undo reuses the old ReplicaSet as revision 3',
  steps: [...rollAndUndo.steps, 'kubectl rollout undo deployment/web', 'sim advance 1m'],
  expect: [
    [
      'kubectl get deploy,rs -o wide',
      lines(
        'NAME                  READY   UP-TO-DATE   AVAILABLE   AGE     CONTAINERS   IMAGES       SELECTOR',
        'deployment.apps/web   4/4     4            4           2m30s   nginx        nginx:1.27   app=web',
        '',
        'NAME                            DESIRED   CURRENT   READY   AGE     CONTAINERS   IMAGES       SELECTOR',
        'replicaset.apps/web-c47498c66   0         0         0       2m      nginx        nginx:1.28   app=web,pod-template-hash=c47498c66',
        'replicaset.apps/web-c68c68797   4         4         4       2m30s   nginx        nginx:1.27   app=web,pod-template-hash=c68c68797',
      ),
    ],
    [
      'kubectl rollout history deployment/web',
      lines('deployment.apps/web ', 'REVISION  CHANGE-CAUSE', '2         <none>', '3         <none>', ''),
    ],
  ],
};

/** A broken image stalls the rollout: old pods keep serving, the new one backs off. */
export const brokenImage: Scenario = {
  chapter: 'rolling-updates',
  title: 'an image that cannot be pulled stalls the rollout without an outage',
  steps: [
    'kubectl create deployment web --image=nginx:1.27 --replicas=4',
    'sim advance 30s',
    'sim image nginx:9.99 missing',
    'kubectl set image deployment/web nginx=nginx:9.99',
    'sim advance 2m',
  ],
  expect: [
    [
      'kubectl get deploy,rs',
      lines(
        'NAME                  READY   UP-TO-DATE   AVAILABLE   AGE',
        'deployment.apps/web   3/4     2            3           2m30s',
        '',
        'NAME                            DESIRED   CURRENT   READY   AGE',
        'replicaset.apps/web-87565f74    2         2         0       2m',
        'replicaset.apps/web-c68c68797   3         3         3       2m30s',
      ),
    ],
  ],
};
