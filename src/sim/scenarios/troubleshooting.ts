// Chapter "troubleshooting": the container-level failures a reader meets first.
import { lines, type Scenario } from './types.ts';

/** An image the registry does not have: ErrImagePull, then ImagePullBackOff. */
export const imagePullBackOff: Scenario = {
  chapter: 'troubleshooting',
  title: 'a missing image: ImagePullBackOff',
  steps: [
    'sim image nginx:9.99 missing',
    'kubectl create deployment web --image=nginx:9.99 --replicas=1',
    'sim advance 1m',
  ],
  expect: [
    [
      'kubectl get pods',
      lines(
        'NAME                 READY   STATUS             RESTARTS   AGE',
        'web-87565f74-pjhzg   0/1     ImagePullBackOff   0          60s',
      ),
    ],
  ],
};

/** The image appears: the next pull attempt succeeds and the pod runs, same name. */
export const imageBack: Scenario = {
  chapter: 'troubleshooting',
  title: 'the image published: the same pod starts at its next attempt',
  steps: [...imagePullBackOff.steps, 'sim image nginx:9.99 available', 'sim advance 5m'],
  expect: [
    [
      'kubectl get pods',
      lines(
        'NAME                 READY   STATUS    RESTARTS   AGE',
        'web-87565f74-pjhzg   1/1     Running   0          6m',
      ),
    ],
  ],
};

/** A container that keeps crashing: restarts with growing back-off, CrashLoopBackOff in between. */
export const crashLoop: Scenario = {
  chapter: 'troubleshooting',
  title: 'crash, crash, crash: CrashLoopBackOff',
  steps: [
    'kubectl create deployment web --image=nginx:1.27 --replicas=1',
    'sim advance 30s',
    // The first restart is immediate; the second crash meets the 10 s back-off.
    'sim crash web-c68c68797-pjhzg',
    'sim advance 5s',
    'sim crash web-c68c68797-pjhzg',
    'sim advance 3s',
  ],
  expect: [
    [
      'kubectl get pods',
      lines(
        'NAME                  READY   STATUS             RESTARTS     AGE',
        'web-c68c68797-pjhzg   0/1     CrashLoopBackOff   1 (3s ago)   38s',
      ),
    ],
  ],
};

/** An OOM kill shows in the last state. */
export const oomKilled: Scenario = {
  chapter: 'troubleshooting',
  title: 'an OOM kill restarts the container',
  steps: [
    'kubectl create deployment web --image=nginx:1.27 --replicas=1',
    'sim advance 30s',
    'sim crash web-c68c68797-pjhzg --oom',
    'sim advance 10s',
  ],
  expect: [
    [
      'kubectl get pods',
      lines(
        'NAME                  READY   STATUS    RESTARTS      AGE',
        'web-c68c68797-pjhzg   1/1     Running   1 (10s ago)   40s',
      ),
    ],
  ],
};
