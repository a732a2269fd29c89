// Every figure the site has, by id, loaded at once: for tests. The build and the benchmarks load them
// through catalog.ts (loadAllFigures), and the worker one at a time as pages open them.
import { cascadeDeleteWidget } from './cascade-delete-widget.ts';
import { chainStopsWidget } from './chain-stops-widget.ts';
import { clusterFigure } from './cluster-figure.ts';
import { conflictWidget } from './conflict-widget.ts';
import { crashLoopWidget } from './crash-loop-widget.ts';
import { dnsLookupWidget } from './dns-lookup-widget.ts';
import { restartLeasesWidget } from './restart-leases-widget.ts';
import { serviceAddressWidget } from './service-address-widget.ts';
import type { FigureDef } from './demo.ts';
import { filterScoreWidget } from './filter-score-widget.ts';
import { frozenEndpointsWidget } from './frozen-endpoints-widget.ts';
import { hubFigure } from './hub-figure.ts';
import { imageBackoffWidget } from './image-backoff-widget.ts';
import { kubeletAloneWidget } from './kubelet-alone-widget.ts';
import { levelTriggeredWidget } from './level-triggered-widget.ts';
import { maxSurgeWidget } from './max-surge-widget.ts';
import { newReplicaSetWidget } from './new-replicaset-widget.ts';
import { forceDeleteWidget } from './force-delete-widget.ts';
import { heartbeatsWidget } from './heartbeats-widget.ts';
import { nodeLeaseWidget } from './node-lease-widget.ts';
import { nodeFailureFigure } from './node-failure-figure.ts';
import { oneAtATimeWidget } from './one-at-a-time-widget.ts';
import { outageFigure } from './outage-figure.ts';
import { pendingPodWidget } from './pending-pod-widget.ts';
import { proxyPickWidget } from './proxy-pick-widget.ts';
import { readyEndpointsWidget } from './ready-endpoints-widget.ts';
import { replacePodWidget } from './replace-pod-widget.ts';
import { rolloutFigure } from './rollout-figure.ts';
import { rolloutUndoWidget } from './rollout-undo-widget.ts';
import { schedulerFigure } from './scheduler-figure.ts';
import { tolerationCountdownWidget } from './toleration-countdown-widget.ts';
import { trafficFigure } from './traffic-figure.ts';
import { troubleshootingFigure } from './troubleshooting-figure.ts';
import { watchResumeWidget } from './watch-resume-widget.ts';
import { writeWatchWidget } from './write-watch-widget.ts';

/** Every figure the site has, by id. */
export const FIGURES: Record<string, FigureDef> = {
  cluster: clusterFigure, hub: hubFigure, scheduler: schedulerFigure, rollout: rolloutFigure, 'node-failure': nodeFailureFigure, outage: outageFigure,
  troubleshooting: troubleshootingFigure, traffic: trafficFigure,
  'write-watch': writeWatchWidget, conflict: conflictWidget, 'watch-resume': watchResumeWidget, 'replace-pod': replacePodWidget, 'cascade-delete': cascadeDeleteWidget, 'level-triggered': levelTriggeredWidget, 'max-surge': maxSurgeWidget, 'rollout-undo': rolloutUndoWidget, 'new-replicaset': newReplicaSetWidget,
  heartbeats: heartbeatsWidget, 'force-delete': forceDeleteWidget, 'node-lease': nodeLeaseWidget, 'toleration-countdown': tolerationCountdownWidget, 'frozen-endpoints': frozenEndpointsWidget, 'kubelet-alone': kubeletAloneWidget, 'filter-score': filterScoreWidget, 'pending-pod': pendingPodWidget, 'one-at-a-time': oneAtATimeWidget,
  'ready-endpoints': readyEndpointsWidget, 'proxy-pick': proxyPickWidget, 'dns-lookup': dnsLookupWidget, 'restart-leases': restartLeasesWidget, 'service-address': serviceAddressWidget, 'image-backoff': imageBackoffWidget, 'crash-loop': crashLoopWidget, 'chain-stops': chainStopsWidget,
};
