// The objects and requests kubectl's commands send, as pure functions with no kubectl machinery
// around them: kubectl's commands and the figures' buttons both use these, so a button makes exactly
// the request the command would (same object ⇒ same pod-template-hash ⇒ the names the prose quotes).
import type { ApiRequest } from '../api/request.ts';

/** The container name `kubectl create deployment` derives from an image (last path part, no tag or digest). */
export function containerNameFromImage(image: string): string {
  let n = image.split('/').pop() ?? image;
  n = n.split('@')[0].split(':')[0];
  return n.toLowerCase().replace(/[^a-z0-9-]/g, '-');
}

/** The Deployment `kubectl create deployment NAME --image=IMAGE --replicas=N [--port=P]` generates. */
export function deploymentFor(
  name: string,
  image: string,
  replicas: number,
  namespace = 'default',
  port?: number,
): Record<string, unknown> {
  const container: Record<string, unknown> = { name: containerNameFromImage(image), image };
  if (port !== undefined) container.ports = [{ containerPort: port }];
  return {
    apiVersion: 'apps/v1',
    kind: 'Deployment',
    metadata: { name, namespace, labels: { app: name } },
    spec: {
      replicas,
      selector: { matchLabels: { app: name } },
      template: { metadata: { labels: { app: name } }, spec: { containers: [container] } },
    },
  };
}

/** `kubectl scale deployment NAME --replicas=N`: a merge patch of the scale subresource. */
export function scaleRequest(
  resource: 'deployments' | 'replicasets',
  name: string,
  replicas: number,
  namespace = 'default',
): ApiRequest {
  return {
    verb: 'patch',
    resource,
    namespace,
    name,
    subresource: 'scale',
    body: { spec: { replicas } },
    options: { patchType: 'merge' },
  };
}

/** `kubectl set image deployment/NAME CONTAINER=IMAGE`: a strategic-merge patch of the pod template's containers. */
export function setImageRequest(
  name: string,
  containers: { name: string; image: string }[],
  namespace = 'default',
): ApiRequest {
  return {
    verb: 'patch',
    resource: 'deployments',
    namespace,
    name,
    body: { spec: { template: { spec: { containers: containers.map((c) => ({ name: c.name, image: c.image })) } } } },
  };
}

/** `kubectl delete pod NAME` (background propagation, the pod's own grace period). */
export function deletePodRequest(name: string, namespace = 'default'): ApiRequest {
  return { verb: 'delete', resource: 'pods', namespace, name, options: { propagationPolicy: 'Background' } };
}
