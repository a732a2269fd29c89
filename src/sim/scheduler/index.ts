// Public surface of the scheduler's pure algorithms.
export * from './framework.ts';
export * from './node-info.ts';
export * from './node-unschedulable.ts';
export * from './node-name.ts';
export * from './node-ports.ts';
export * from './taint-toleration.ts';
export * from './node-affinity.ts';
export * from './node-resources.ts';
export * from './pod-topology-spread.ts';
export * from './profile.ts';
export * from './scheduling-queue.ts';
export * from './queueing-hints.ts';
export * from './preemption.ts';
