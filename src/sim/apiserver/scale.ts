// The scale subresource: an autoscaling/v1 Scale view of a Deployment or ReplicaSet.
import type { Obj } from '../api/request.ts';
import { labelSelectorAsString } from '../api/labels.ts';

export function toScale(resource: string, o: Obj): Obj {
  return {
    kind: 'Scale',
    apiVersion: 'autoscaling/v1',
    metadata: {
      name: o.metadata.name,
      namespace: o.metadata.namespace,
      uid: o.metadata.uid,
      resourceVersion: o.metadata.resourceVersion,
      creationTimestamp: o.metadata.creationTimestamp,
    },
    spec: { replicas: o.spec?.replicas ?? 0 },
    status: { replicas: o.status?.replicas ?? 0, selector: labelSelectorAsString(o.spec?.selector) },
  };
  void resource;
}
