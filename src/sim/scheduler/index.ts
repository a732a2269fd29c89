// Public surface of the scheduler's pure algorithms.
export * from './framework';
export * from './quantity';
export * from './label-selector';
export * from './node-info';
export * from './node-unschedulable';
export * from './node-name';
export * from './node-ports';
export * from './taint-toleration';
export * from './node-affinity';
export * from './node-resources';
export * from './pod-topology-spread';
export * from './schedule-one';
export * from './scheduling-queue';
