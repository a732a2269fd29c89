// One place for the kubernetes-types imports the scheduler uses.
export type {
  Binding,
  Node,
  NodeSelectorRequirement,
  NodeSelectorTerm,
  Pod,
  Service,
  Taint,
  Toleration,
  TopologySpreadConstraint,
} from 'kubernetes-types/core/v1';
export type { ReplicaSet, StatefulSet } from 'kubernetes-types/apps/v1';
export type { LabelSelector } from 'kubernetes-types/meta/v1';
