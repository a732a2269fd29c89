// Every scenario, by chapter, for the runner and for anything that wants to replay a story.
import { askTheAuthorizer, controlPlane, kubeadm, settleWaitsForRunning } from './control-plane.ts';
import { controllerManagerDown, etcdFull, fullOutage, schedulerBack, schedulerDown } from './control-plane-outage.ts';
import {
  eviction,
  grace,
  nodeDeleted,
  nodeNotReadyEvent,
  nodeReturns,
  outOfService,
  outOfServiceNodeBack,
  partitionHealed,
} from './node-failure.ts';
import { scaleToZero, selfHealing } from './reconcile-loop.ts';
import { brokenImage, rollAndUndo, undo } from './rolling-updates.ts';
import { filters, nowhereToGo } from './scheduler.ts';
import { crashLoop, imageBack, imagePullBackOff, oomKilled } from './troubleshooting.ts';
import type { Scenario } from './types.ts';

export type { Scenario } from './types.ts';

/** All scenarios, in chapter order. */
export const SCENARIOS: Scenario[] = [
  controlPlane,
  kubeadm,
  settleWaitsForRunning,
  askTheAuthorizer,
  selfHealing,
  scaleToZero,
  filters,
  nowhereToGo,
  rollAndUndo,
  undo,
  brokenImage,
  grace,
  eviction,
  nodeReturns,
  partitionHealed,
  nodeNotReadyEvent,
  nodeDeleted,
  outOfService,
  outOfServiceNodeBack,
  fullOutage,
  schedulerDown,
  schedulerBack,
  controllerManagerDown,
  etcdFull,
  imagePullBackOff,
  imageBack,
  crashLoop,
  oomKilled,
];
