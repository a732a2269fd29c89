// Each inline widget's detail is sent from the worker as JSON (FigureDetail), and its def returns it
// typed (FigureDef<D>, no cast): so each D must itself be a JsonValue. Checked by `npm run check`,
// which type-checks every file; nothing here runs (embeds.test-d.ts's pattern). An interface, a Date
// or a Map in a detail type fails here (an optional field does not: keep a detail's fields set).
import { expectTypeOf } from 'vitest';
import type { FigureDef, JsonValue } from './demo.ts';
import type { cascadeDeleteWidget } from './cascade-delete-widget.ts';
import type { chainStopsWidget } from './chain-stops-widget.ts';
import type { conflictWidget } from './conflict-widget.ts';
import type { crashLoopWidget } from './crash-loop-widget.ts';
import type { dnsLookupWidget } from './dns-lookup-widget.ts';
import type { filterScoreWidget } from './filter-score-widget.ts';
import type { forceDeleteWidget } from './force-delete-widget.ts';
import type { frozenEndpointsWidget } from './frozen-endpoints-widget.ts';
import type { heartbeatsWidget } from './heartbeats-widget.ts';
import type { imageBackoffWidget } from './image-backoff-widget.ts';
import type { kubeletAloneWidget } from './kubelet-alone-widget.ts';
import type { levelTriggeredWidget } from './level-triggered-widget.ts';
import type { newReplicaSetWidget } from './new-replicaset-widget.ts';
import type { nodeLeaseWidget } from './node-lease-widget.ts';
import type { oneAtATimeWidget } from './one-at-a-time-widget.ts';
import type { pendingPodWidget } from './pending-pod-widget.ts';
import type { proxyPickWidget } from './proxy-pick-widget.ts';
import type { readyEndpointsWidget } from './ready-endpoints-widget.ts';
import type { restartLeasesWidget } from './restart-leases-widget.ts';
import type { rolloutUndoWidget } from './rollout-undo-widget.ts';
import type { serviceAddressWidget } from './service-address-widget.ts';
import type { tolerationCountdownWidget } from './toleration-countdown-widget.ts';
import type { watchResumeWidget } from './watch-resume-widget.ts';
import type { writeWatchWidget } from './write-watch-widget.ts';

/** The detail type D of a FigureDef<D>. */
type DetailOf<F> = F extends FigureDef<infer D> ? D : never;

expectTypeOf<DetailOf<typeof cascadeDeleteWidget>>().toExtend<JsonValue>();
expectTypeOf<DetailOf<typeof chainStopsWidget>>().toExtend<JsonValue>();
expectTypeOf<DetailOf<typeof conflictWidget>>().toExtend<JsonValue>();
expectTypeOf<DetailOf<typeof crashLoopWidget>>().toExtend<JsonValue>();
expectTypeOf<DetailOf<typeof dnsLookupWidget>>().toExtend<JsonValue>();
expectTypeOf<DetailOf<typeof filterScoreWidget>>().toExtend<JsonValue>();
expectTypeOf<DetailOf<typeof forceDeleteWidget>>().toExtend<JsonValue>();
expectTypeOf<DetailOf<typeof frozenEndpointsWidget>>().toExtend<JsonValue>();
expectTypeOf<DetailOf<typeof heartbeatsWidget>>().toExtend<JsonValue>();
expectTypeOf<DetailOf<typeof imageBackoffWidget>>().toExtend<JsonValue>();
expectTypeOf<DetailOf<typeof kubeletAloneWidget>>().toExtend<JsonValue>();
expectTypeOf<DetailOf<typeof levelTriggeredWidget>>().toExtend<JsonValue>();
expectTypeOf<DetailOf<typeof newReplicaSetWidget>>().toExtend<JsonValue>();
expectTypeOf<DetailOf<typeof nodeLeaseWidget>>().toExtend<JsonValue>();
expectTypeOf<DetailOf<typeof oneAtATimeWidget>>().toExtend<JsonValue>();
expectTypeOf<DetailOf<typeof pendingPodWidget>>().toExtend<JsonValue>();
expectTypeOf<DetailOf<typeof proxyPickWidget>>().toExtend<JsonValue>();
expectTypeOf<DetailOf<typeof readyEndpointsWidget>>().toExtend<JsonValue>();
expectTypeOf<DetailOf<typeof restartLeasesWidget>>().toExtend<JsonValue>();
expectTypeOf<DetailOf<typeof rolloutUndoWidget>>().toExtend<JsonValue>();
expectTypeOf<DetailOf<typeof serviceAddressWidget>>().toExtend<JsonValue>();
expectTypeOf<DetailOf<typeof tolerationCountdownWidget>>().toExtend<JsonValue>();
expectTypeOf<DetailOf<typeof watchResumeWidget>>().toExtend<JsonValue>();
expectTypeOf<DetailOf<typeof writeWatchWidget>>().toExtend<JsonValue>();
