// The scale subresource: an autoscaling/v1 Scale view of a Deployment or ReplicaSet.
import type { Unstructured } from '../api/unstructured.ts';
import type { KObject } from '../api/request.ts';
import type { LabelSelector } from 'kubernetes-types/meta/v1';
import { labelSelectorAsString } from '../api/labels.ts';

export function toScale(resource: string, o: KObject): Unstructured {
  // A Deployment's or a ReplicaSet's: the two share these fields.
  const spec = o.spec as { replicas?: number; selector?: LabelSelector } | undefined;
  const status = o.status as { replicas?: number } | undefined;
  return {
    kind: 'Scale',
    apiVersion: 'autoscaling/v1',
    metadata: {
      name: o.metadata!.name,
      namespace: o.metadata!.namespace,
      uid: o.metadata!.uid,
      resourceVersion: o.metadata!.resourceVersion,
      creationTimestamp: o.metadata!.creationTimestamp,
    },
    spec: { replicas: spec?.replicas ?? 0 },
    status: { replicas: status?.replicas ?? 0, selector: labelSelectorAsString(spec?.selector) },
  };
  void resource;
}
