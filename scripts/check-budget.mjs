/**
 * Byte budgets of the built site (bytes, not timings, so the check is deterministic):
 * - a page without figures ships no JavaScript but the one inline theme script (≤ 1 KB);
 * - the search page may add its own small module (Pagefind itself loads only on a query);
 * - a page with figures must have a budget in FIGURE_BUDGETS (later issues add them here);
 * - the worker's core chunk, each figure's lazy chunk, kubectl's lazy chunk (the terminal) and the
 *   terminal's UI chunk on the main thread have limits of their own;
 * - CSS ≤ 12 KB gzip and HTML ≤ 30 KB gzip per page.
 */
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';
import { createReport } from './lib/report.mjs';
import { lazyImports, moduleGraph } from './lib/module-graph.mjs';
import { attrValues, basePath, htmlPages, read } from './lib/site.mjs';
import { figureRows } from './lib/figure-registry.mjs';

const KB = 1024;
const THEME_SCRIPT_MAX = 1 * KB;
// 8.5 KB since the text pages stopped importing astro:content (src/components/site-content.ts): the
// figure kit's stylesheet (~4.6 KB) came with it; the largest text page is /for-instructors/, 7,742 B.
const CSS_MAX_GZIP = 8.5 * KB;
// A page with a live figure also links its islands' shared stylesheet, which Astro emits a second
// time beside the page's own (the server-rendered first frame's) CSS: about 3 KB gzip counted twice.
// 18 KB since the stage (session 8): the held regions, the travel layer's and the legend's styles, the
// narration's rest and skipped lines and the failure sentence took the figure pages to 17.0–17.5 KB.
const FIGURE_PAGE_CSS_MAX_GZIP = 18 * KB;
// A page with an inline widget links widgets.css too (about 0.9 KB gzip; only those pages do). 19.25 KB
// since the networking and troubleshooting widgets' tables, which stack a row per block on a phone
// (+114 B on every widget page: /rolling-updates/ 19,353 → 19,467 B). 19.5 KB with the node-lease,
// frozen-endpoints and filter-score widgets' rules beside them (/node-failure/ 19,848 B).
// 19.75 KB since session 12: six more widgets' styles (the cascade's indents, rollout history, the
// toleration countdowns) in the one widgets.css: /node-failure/ 19,983 B. 20 KB since no picture
// scrolls at 1280 px either (a log's latest three, force-delete's one-line head and warning): 20,333 B.
// 20.5 KB since session 21: each widget's picture box as tall as the most it draws, at 1280 and 360 px
// (52 --picture rows), so the caption gets the rest, and the caption's scroll shades: /node-failure/ 20,924 B.
const WIDGET_PAGE_CSS_MAX_GZIP = 20.5 * KB;
// 31 KB since the control-plane chapter explains streaming lists and BOOKMARKs (30,863 B with its figure's stage).
const HTML_MAX_GZIP = 31 * KB;
// The troubleshooting chapter is the longest (22.5 KB gzip of HTML without a figure: its many kubectl
// outputs), and a live figure's first frame, hydration data and story text add about 16 KB.
// An inline widget adds its server-rendered opening frame and its hydration data (about 1.5–2.5 KB gzip).
// /networking/ was at 31,716 B; its two widgets (ready-endpoints, proxy-pick) took it to 36,454 B;
// /troubleshooting/'s two widgets (image-backoff, crash-loop) took it from 39,829 to 44,744 B.
// The chain-stops widget (its opening frame, hydration data and paragraph) took /troubleshooting/ to 48,213 B.
// The dns-lookup widget (its paragraph, opening frame and hydration data) took /networking/ from 36,454 to 38,444 B.
// The conflict widget (its opening frame, hydration data and paragraph) took /control-plane/ from 33,204 to 36,945 B,
// the watch-resume widget to 38,301 B;
// the cascade-delete widget took /reconcile-loop/ from 31,843 to 33,258 B; the level-triggered widget (its paragraph,
// opening frame and hydration data) to 36,460 B.
// Session 13: the write-watch widget moved above the cluster map (the first widget within two screens):
// the same bytes in another order, which gzip packs 458 B worse (/control-plane/ 38,858 B). The
// service-address widget's opening frame and hydration data took /networking/ to 39,666 B.
// ServiceAccounts (issue 30): every story's hydration data carries the kubelets' TokenRequests and the bootstrap's
// eight more objects (/control-plane/ 39,266, /reconcile-loop/ 36,849, /troubleshooting/ 48,605 B).
const HTML_PAGE_MAX_GZIP = {
  '/troubleshooting/': 47.75 * KB,
  '/control-plane/': 38.5 * KB,
  '/reconcile-loop/': 36.125 * KB,
  '/networking/': 39.5 * KB,
  // The node-lease widget's opening frame and hydration data took the node-failure chapter from 30,190 to 33,319 B.
  // The toleration-countdown widget's paragraph, opening frame and hydration data: 33,302 → 34,135 B.
  // The heartbeats widget's opening frame, hydration data and sentence: 34,117 → 35,452 B; the force-delete widget's
  // (eight pods, two nodes' sides): → 38,802 B.
  // ServiceAccounts' TokenRequests and objects in its stories: 39,184 B. force-delete's one-line head: 39,300 B.
  '/node-failure/': 38.5 * KB,
  // The filter-score widget's opening frame and hydration data: 33,659 B.
  // The pending-pod widget (its opening frame, hydration data and paragraph) took it to 36,019 B.
  // The one-at-a-time widget (its paragraph, opening frame with three cycles' scores, hydration data): 38,753 B.
  // The paragraph on preemption and PodDisruptionBudgets (session 17): 39,077 B.
  '/scheduler/': 38.25 * KB,
  // The rollout-undo widget's paragraph, opening frame and hydration data: 30,624 → 33,885 B.
  // The new-replicaset widget's paragraph, opening frame and hydration data: 33,885 → 34,825 B.
  // ServiceAccounts' TokenRequests and objects in its stories: 35,202 B.
  '/rolling-updates/': 34.5 * KB,
  // The kubelet-alone widget's paragraph, opening frame and hydration data: 30,458 → 32,267 B.
  // The restart-leases widget's opening frame and hydration data: 35,144 B.
  // ServiceAccounts' objects and TokenRequests in its stories: 35,341 B.
  '/control-plane-outage/': 34.75 * KB,
};
const SEARCH_JS_MAX_GZIP = 4 * KB;
/** Pages with live figures: URL path → max JavaScript in gzip bytes (islands and their imports). */
// Session 8 put every figure page near or past 35 KB again: the failure sentence, the demo bar's echo,
// the narration's rest, skipped and Advance controls, and the stage (the travel layer itself is a lazy
// chunk, below). Issue 26 is to bring them back under 35 KB.
// Issue 28's inline widgets share the kit with the figures (worker-client, figure-state, keymap: one
// chunk both shells import, about 0.25 KB more on every figure page than when FigureShell held them);
// a widget adds its shell (2.4 KB) and its picture (1.5 KB). The chapters with a widget and their big
// figure are 3.5–4 KB over the 35–37 KB the figures alone keep.
// Session 12 (issue 26, item 3): every row lowered to just above what its page reaches once Svelte's
// runtime, Astro's Svelte renderer and the kit both shells import are one chunk (astro.config.mjs),
// 0.35–0.41 KB less on every figure page (the merged widgets' pages too: /scheduler/ 42,011 → 41,632 B). What a page loads (/rolling-updates/, gzip): Svelte's
// runtime with that kit 17.7 KB, FigureShell and its children 13.0 (FigureShell 3.3, ClusterCanvas 2.5,
// RequestLog 2.0, Toolbar 1.8), the figure's own 2.9, StateDiagram 1.8, WidgetShell 2.2, its picture
// 1.5, Astro's two inline island scripts 2.0. Each file is gzipped apart and names what it imports, so
// where a chunk boundary falls matters: measured, with the runtime and both shells one chunk the
// chapters with a widget are 2.7 KB lighter but a widget's embed loads FigureShell (+12 KB); the
// statechart inside FigureShell's chunk takes 0.55 KB off its five figures and puts 1.2 KB on the
// other three. Neither is taken. Deduplicating the shells' small handlers gains nothing (gzip already does).
// The conflict widget's picture (1,084 B) took /control-plane/ to 40,891 B; the cascade-delete widget's (1,008 B) /reconcile-loop/ to 37,354 B.
// The level-triggered widget's picture (1,536 B) took /reconcile-loop/ to 38,994 B; the watch-resume widget's (1,279 B) /control-plane/ to 42,448 B.
const FIGURE_BUDGETS = {
  '/': 32.5 * KB,
  '/reconcile-loop/': 38.5 * KB,
  // write-watch's "the latest 3 of the N writes" (its picture draws only those at 1280 px): 42,763 B.
  '/control-plane/': 41.875 * KB,
  // The scheduler's table and statechart, every figure's Terminal button and the loader of its lazy UI
  // took it to 36,412 B; no `bind:value`/`bind:checked` in the widgets (a value and its input or change
  // handler instead) keeps Svelte's input and select bindings (about 1 KB) out of the runtime chunk
  // every figure page loads. The demo bar's echo of what ran and the pod card's Ready condition (about
  // 0.55 KB) took the scheduler and the rollout past 35 KB again.
  // Causality (issue 25, item 2) added ~275 B to every figure page: the request log marks the cause of
  // the chosen write and offers a "caused by …" button that chooses it.
  // The node-lease widget on /node-failure/ costs 4,089 B (the kit's WidgetShell chunk 2,213 B, its picture 1,894 B):
  // 37,383 → 41,472 B.
  // The frozen-endpoints widget on /control-plane-outage/ costs 3,474 B (WidgetShell and its picture): 36,715 → 40,189 B.
  // The filter-score widget on /scheduler/ costs 3,447 B: 38,434 → 41,881 B.
  // Merged with the other widgets' kit changes: /scheduler/ 42,011 B.
  // The pending-pod widget's picture (1,124 B) took /scheduler/ to 42,733 B.
  // The kubelet-alone widget's picture on /control-plane-outage/: 39,903 → 41,218 B.
  // The toleration-countdown widget's picture (1,607 B) and web-view.ts (320 B) on /node-failure/: 41,177 → 43,068 B.
  // The rollout-undo widget's picture on /rolling-updates/ costs 1,072 B (the shell is max-surge's): 41,182 → 42,254 B.
  // The restart-leases widget's picture on /control-plane-outage/: 41,218 → 42,316 B.
  // The new-replicaset widget's picture on /rolling-updates/: 42,254 → 43,192 B.
  // The one-at-a-time widget's picture on /scheduler/: 44,105 B.
  // The heartbeats widget's picture on /node-failure/: 43,086 → 44,201 B; the force-delete widget's: → 46,268 B.
  // Chunk names are content hashes: a change in the core alone renames every chunk a page loads, and
  // the names' gzip moves /rolling-updates/ by ~10 B with its code the same (43,256 → 43,266 B): 42.5.
  '/scheduler/': 43.25 * KB,
  '/rolling-updates/': 42.5 * KB,
  '/node-failure/': 45.5 * KB,
  // The outage panel's summary says why a request was refused (no ready endpoint): 42,507 B.
  '/control-plane-outage/': 41.75 * KB,
  // The troubleshooting figure, its terminal open from the start like the control-plane chapter's; the
  // image-backoff and crash-loop widgets (the shell and two pictures) took it from 34,877 to 39,189 B.
  // Session 13: the traffic panel's hop-by-hop path keys its list on the request ({#key}), whose runtime
  // lives in the shared Svelte chunk: about 40 B more on every figure page (/troubleshooting/ 38,952 B).
  // The chain-stops widget's picture (about 1.5 KB) took it to 40,417 B, 40,480 B with the {#key} runtime.
  '/troubleshooting/': 39.75 * KB,
  // The networking chapter's traffic figure: the client's strip, its counts and node-1's rules for web;
  // its two widgets (the shell and two pictures) took it from 34,889 to 39,032 B; the dns-lookup widget's
  // picture (about 1.0 KB) to 40,068 B; the service-address widget's (1.3 KB) to 41,357 B; the traffic
  // panel's hop-by-hop path and marked rules (the path itself computed in the worker) to 41,853 B.
  // Session 14: the rules' two tabs (iptables, nftables), a button per node and the strip's legend: 43,023 B.
  '/networking/': 42.25 * KB,
  // The cluster figure with its terminal open (the registry's terminal variant, not a row of its own):
  // the terminal's UI still loads only when a reader focuses its line.
  '/embed/terminal/': 33 * KB,
};
// One figure alone, for an iframe (src/pages/embed/): the same islands as its chapter's figure, plus
// the embed's own two small inline scripts (the worker shim for an opaque origin, the height message).
// Every registry row (src/components/embeds.ts) has an embed, so a budget: its kind's default, or its
// own number where its measured size needs one.
const EMBED_BUDGET_BY_KIND = {
  // A chapter's figure: the figure pages' 35 KB target.
  figure: 35 * KB,
  // One inline widget alone: its shell, its picture, the kit's shared chunk and Svelte's runtime (23.0–24.1 KB).
  widget: 23.5 * KB,
};
const EMBED_BUDGETS = {
  // Causality's ~270 B (the request log's cause mark and button) took two embeds past theirs: +0.5 KB
  // each (/embed/scheduler/ 38,705 → 38,973 B, /embed/node-failure/ 37,655 → 37,923 B).
  cluster: 33 * KB,
  hub: 37 * KB,
  scheduler: 38 * KB,
  rollout: 37.5 * KB,
  'node-failure': 37 * KB,
  outage: 36.5 * KB,
  troubleshooting: 34.5 * KB,
  traffic: 36 * KB,
  'watch-resume': 24 * KB,
  'level-triggered': 24.5 * KB,
  'max-surge': 25 * KB,
  heartbeats: 24 * KB,
  'force-delete': 24.25 * KB,
  'node-lease': 24 * KB,
  'toleration-countdown': 24 * KB,
  'ready-endpoints': 23.25 * KB,
  'chain-stops': 23.75 * KB,
};
const FIGURE_ROWS = figureRows();
for (const row of FIGURE_ROWS)
  FIGURE_BUDGETS[`/embed/${row.id}/`] = EMBED_BUDGETS[row.id] ?? EMBED_BUDGET_BY_KIND[row.kind];
/** The core's worker chunk, shared by every figure: the target, and the limit past which the check fails. */
const WORKER_TARGET_GZIP = 90 * KB;
// Over the target since the 1.37 work: the API server's decoding and validation (~6 KB), its
// admission plugins and streaming lists, the kubelet's informer and lease back-off, kubectl's watch
// inbox (replays of terminal commands need it). What only kubectl sends left the core for kubectl's
// chunk (apiserver/kubectl-extras.ts: JSON patch ~1.8 KB, dry runs, access reviews, pods/log and the
// kubelet's log handler; 122,975 → 119,749 B). The rest is the simulation every figure runs; by
// esbuild's metafile (minified bytes per folder × the chunk's gzip ratio, about): the API server 22 KB
// (validation 5.8 KB and decoding 2 KB of it, both run on every write, the figures' own included;
// the decoder is a type table already), the controllers 17.5 KB, the kubelet 16 KB, the scheduler
// 15.5 KB, xstate 12.9 KB (fixed: initialTransition/transition pull in what createActor needs),
// node lifecycle 9.5 KB, the view (request-log sentences, frames, statecharts) 5.5 KB, the figures'
// host, actions and server 5 KB, the world, timeline and the rest 12 KB. The limit leaves about 6 KB
// for the features being added to the core today (preemption, QueueingHints, leader-election
// leases, events.k8s.io, rate limits, streaming informers); getting back to the target means moving
// code the figures run, not code only kubectl runs.
// Those features landed and took more than the 6 KB: measured after the merge, 129,729 B (from
// 119,749): DefaultPreemption and the PriorityClass registry ~3.1 KB, QueueingHints ~2.1 KB, leader
// election ~1.6 KB, the events.k8s.io recorder and its conversion ~1.4 KB, client rate limits ~1.2 KB,
// streaming informers and the token volume ~0.7 KB. The limit is raised to 128 KiB to let them in;
// the next candidates for kubectl's chunk are preemption's victim selection and executor (a victim
// exists only when a pod outranks another, which takes a PriorityClass a reader creates with
// kubectl) and the PriorityClass validation.
// Measured by `WORKER_BREAKDOWN=1 npm run build && node scripts/worker-breakdown.mjs` (the build's
// source maps; a module's gzip is its share of minified bytes × its chunk's gzip ratio), 128,782 B:
//   KB gzip  folder                    largest modules (KB gzip)
//     23.7   src/sim/apiserver         validation 6.4, decode 2.0, watch 1.8, defaults 1.1, update 1.1,
//                                      delete 1.0, resources 0.9, events-v1 0.6, priority-class 0.4
//     19.5   src/sim/scheduler         scheduler 3.3, pod-topology-spread 3.2, schedule-fast 2.0,
//                                      schedule-one 2.0, queueing-hints 1.9, scheduling-queue 1.7, preemption 1.2
//     17.2   src/sim/controllers       deployment-util 4.5, deployment 2.8, replicaset 2.8, endpointslice 2.2, gc 1.6
//     15.7   src/sim/kubelet           pod-worker 4.4, kubelet 2.5, pod-status 2.4, container-runtime 1.8, node-status 1.5
//     11.8   xstate                    raise-* 8.2 (createActor's runtime), StateMachine 2.2
//      9.1   src/sim/node-lifecycle    node-lifecycle-controller 2.7, node-health 2.2, zones 1.3
//      6.0   src/sim/view              records 3.7 (the request log's sentences), statechart 1.1, frame 1.0
//      5.1   src/sim/figures           actions 2.1, host 1.7, serve 1.2
//      3.6   src/sim/client-go         informer 1.6, leader-election 1.1
//     12.9   the rest                  world 2.7, time-travel 1.9, machines 2.0, cluster 1.3, events 1.3,
//                                      names 1.1, kubectl's printers and generators the figures use 1.1
// No module is in the worker twice (each source maps to one chunk). The parts every figure may skip:
// preemption's victim selection and executor (a victim needs a pod that outranks another, which takes
// a PriorityClass a reader creates with kubectl) and PriorityClass validation. QueueingHints run
// whenever a pod waits unschedulable (the scheduler figure's story) and events.k8s.io serving on
// every event the scheduler writes (client-go/events.ts), so both stay in the core. Preemption cannot
// simply leave either: DefaultPreemption's PostFilter runs for every unschedulable pod, its "No
// preemption victims found" statuses are part of FailedScheduling's message and it draws from the
// world's rng, so a core without it needs a fast path giving the same message and draws.
// The minifier is not where the bytes are: the built chunks minified again by oxc (toplevel mangling,
// compress targets) come out 0.1% smaller in gzip, and by esbuild 2.6% larger; Vite's defaults stay.
// Lowered to 126 KiB, just above the 128,782 B measured here: the limit only ever comes down to what
// the chunk has reached.
// Raised to 133 KiB in session 8, to what the chunk reached (135,706 B): ParseQuantity as Go has it
// (~0.5 KB), sliced long runs (~0.3), the rest look-ahead and Next's rules (~1.5), words and echo
// (~0.8), and the fidelity round's server-side selector parser, validation, the kubernetes Service's
// recreation and InvalidImageName (~3.0). Issue 26 (a kernel plus lazy parts) is what brings it down.
// 134 KiB in session 9, to what it reached (136,471 B): the oracle round's request fidelity (kubectl's
// query strings the core's describe and writes send, the scheduler's and controllers' watches) and the
// kubelet's apps that exit by themselves (the troubleshooting figure's crash loop and OOM kill). The
// networking code (kube-proxy's rules, the data path, CoreDNS) stays out of this chunk (0.1 KB here).
// 135 KiB with the traffic figure (137,888 B): its chunk imports kube-proxy and net/, which share
// modules with the core (authn, the informer, node-status), and rolldown splits that shared code into
// one more chunk the core loads (node-status-*.js), about 1.4 KB of glue. No networking code is in the
// core (worker-breakdown.mjs): index.ts exports no kube-proxy value statically any more.
// 134 KiB in session 10 (issue 26's first step, a kernel plus parts; 136,931 B from 137,882): two
// parts left the core for chunks a world registers before the first input that can need them
// (World.parts, config.validators; a test per part runs it registered early and at that input and
// compares the hash and the request log). Preemption's victim search, choice and executor
// (scheduler/preemption-evaluator.ts, 1.3 KB gzip in its chunk; preemption.ts in the core 1.2 → 0.8):
// the core answers "No preemption victims" itself when no pod of lower priority is on a node that
// may be helped, after the same rng draw (a differential property test against the evaluator);
// kubectl's install, a link's replay and the CoreDNS add-on bring it (so the traffic figure's chunk
// carries it: 24,530 B). The PriorityClass validation (priority-class-validation.ts, 0.4 KB gzip),
// registered with kubectl's part of the API server: the core stores only the bootstrap's system
// classes without it. What the modules lost in minified bytes (−2.9 KB) gzip turns into ~0.95 KB,
// and rolldown's shared chunk (now scheduler-*.js) moves with every change of the graph.
// Breakdown now (KB gzip): apiserver 26.2 (validation 6.8, decode 2.1, watch 1.8), scheduler 19.3,
// controllers 17.2, kubelet 16.4, xstate 11.9, node lifecycle 9.2, figures 7.7, view 6.1, the rest
// 19.7. Next by the coverage of every story (NODE_V8_COVERAGE over compileFigure): the reference
// scheduling path a cycle takes only with nominated pods (which only preemption makes), the
// PriorityClass admission half and delete refusal, the Recreate strategy (no figure's Deployment).
// The same session then added the inline widgets (FigureDef.opening and demoFor in the host, the
// widgets' catalog rows: ~1.5 KB) and causality (issue 25, item 2: +816 B: the work queue, scheduling
// queue and kubelet remember which watch notification woke each sync, the world notes the requests
// that sync sends, WorldState.causes, and the view says it, "…, because the watch told it …"). The
// limit is set just above the merged result (measured below in the session's closing note); the
// parts above are where it must go next.
// 131.5 KiB in session 11 (134,309 B, from 139,248), with no behaviour changed:
// - the core is one file (astro.config.mjs: a codeSplitting group on rolldown's `$initial` tag puts
//   every module the worker's entry imports statically into the entry's chunk). Rolldown had split it
//   into five (core.worker, cluster, scheduler, store, deployment-util: by which lazy chunks share
//   each module), each gzipped apart, with the import/export glue naming what they share: −3,461 B.
//   The check below keeps it one file.
// - index.ts exports the statecharts' types only: the chart readers (view/statechart.ts and
//   pod-statechart.ts), which only the five figures that draw a chart call, were in the core because
//   index.ts named them (a module the entry's graph names is in the core whole, whoever calls it).
//   −1,478 B here; those figures' chunks carry them now (+1.6–2.1 KB each: hub 4,506 → 6,615 B),
//   so a page with such a figure loads 0.1–0.6 KB more in all and every other page 1.5 KB less.
// Found by bundling the worker's entry with rolldown (the same options) twice: as built, and with its
// dynamic imports external; what a module loses in the second is code in the core that only a lazy
// chunk calls. Beyond the statecharts that is ~2.6 KB minified spread thin (node health for the
// figures' detail 0.55, RBAC rules for access reviews 0.48, the request log's printer 0.47, kubectl's
// durations 0.23) plus 0.84 of export glue. The candidates measured last session, each removed from
// the core to weigh it (bytes of gzip the core would lose; gzip takes far less than their minified
// share because such code repeats what stays): the Recreate strategy −68 B (built as a part with
// kubectl's: the permalink chunk grew 556 B and kubectl's 522, so it was dropped), the scheduler's
// nominated-pods path −167 B and its reference scoring path −278 B, PriorityClass admission and the
// system classes' delete refusal −170 B. Each would cost a lazy chunk more than the core saves, and
// permalink (13 KB), traffic (25 KB) and kubectl carry preemption's part already. What is left is
// the simulation every figure runs: apiserver 26.1 KB (validation 6.7), scheduler 19.0, controllers
// 17.4, kubelet 16.5, xstate 12.0, node lifecycle 9.2, figures 7.3, view 4.6, the rest 22.2.
// Then +0.4 KB (134,678 B): Step forward goes over the informers' start-up lists as one step (host.ts).
// Then +249 B (135,127 B, from 134,878): the hooks of namespace deletion (the /finalize subresource, a
// namespace's spec finalizers in the update path, the controller's start) and of strict field
// validation; their code is in kubectl's chunk.
// 132.5 KiB in session 13: issue 28's last widgets each add one loader to the catalog (about 33 B
// gzip each: a chunk's hashed name does not compress), service-address first (135,193 B).
// 127.5 KiB in session 14: the API server's request checks (decode.ts's typed decoding and
// validation.ts) are a part, loaded with kubectl's chunk, with a link's replay, or with a figure whose
// own actions they can refuse (FigureDef.checks: hub, max-surge); figures/request-checks-part.test.ts
// shows every other figure's presses give the same world with and without them: 128,156 B (135,397 B before).
// 125.5 KiB with the work merged after it: leader election's ?timeout=5s, a Deployment's generation on
// an annotation change, ExternalName Services without an address, a pod's requests defaulted from its
// limits, and a node's power reaching every process on it (World.inject, ComponentDef.nodeOf): 128,375 B.
// 125.25 KiB with the scheduler's reference path out of the worker (issue 29, change 4): the core runs
// schedule-fast.ts alone, nominated pods included, and schedule-one.ts is the tests' (128,062 B, from 128,377).
// 125.75 KiB with issue 30's fixes of three known kubelet bugs (status.resources and allocatedResources
// for pods and containers, PodRequests/PodLimits summed as Go sums quantities, ~0.4 KB) and Go's
// Quantity.String() for the node's and the sums' quantities (~0.3 KB): 128,622 B.
// 128,728 B with PodDisruptionBudgets (issue 30): the policy/v1 resource's entry and a 'start' timer for
// kubectl's controllers; the eviction subresource whole (and World's unused ApiClient.evict) left for kubectl's part.
// 121.5 KiB in session 17 (issue 26, item 2; 124,265 B from 128,705, nothing the figures do changed): xstate's setup()
// swapped for a createMachine-only one (its action creators left, −711 B), selector errors, ValidateListOptions and
// the impersonation filter moved into kubectl's part or the request checks, kubectl-only and figure-only readers
// moved beside their callers, and no /* @__PURE__ */ comments in the built worker.
// 122.5 KiB with ServiceAccounts, kube-root-ca.crt and the kubelet's TokenRequest (issue 30: the bootstrap's 8 objects,
// the TokenRequest handler and the kubelet's token manager) and the scheduler's PDB informer: 125,221 B.
// 122.75 KiB with a restarted kubelet's start as v1.37.2's (its node informer first, registration 0.2 s on,
// fastStatusUpdateOnce's 100 ms tries): 125,485 B.
// 122.625 KiB in session 20 (issue 29): the API server's connection to the kubelets (kubelet/server.ts)
// left the core with kubectl's part, which now wires it (src/sim/kubectl-extras.ts: −114 B), and the
// figure machine asks the core through invoked fromPromise actors (+249 B): 125,510 B.
// 122.75 KiB in session 21: terminal lines queue in the figure machine instead of replacing each other (a
// line sent while another ran lost its output): +105 B, 125,615 B.
const WORKER_MAX_GZIP = 122.75 * KB;
/** A figure's own definition, which the worker loads when a page opens that figure (what it adds to the core's graph). */
// Since session 11 a figure that draws a statechart also loads the chart readers (view/statechart.ts,
// 1.6 KB, and for a pod's chart pod-statechart.ts, 0.5 KB), shared with the other such figures: 6,615 B at most (hub).
// 15.5 KB since session 14: the hub figure carries the request checks part (its 'Invalid manifest' demo): 15,706 B.
// 16.75 KB since session 17: the impersonation filter joined the request checks hub carries (its --as demo), and
// hub draws a node's chart, whose reader (nodeHealthOf) left the core: 17,039 B.
const FIGURE_CHUNK_MAX_GZIP = 16.75 * KB;
/** The traffic figure's chunk carries the networking code too (kube-proxy's rules in both modes, the data path, CoreDNS): 23,063 B measured. */
// 25 KB since session 10: the CoreDNS add-on brings preemption's evaluator (its pods run at
// system-cluster-critical and may preempt), 1.5 KB more than before in this chunk (24,530 B).
// 25.5 KB since the frozen-endpoints widget runs the same kube-proxy and client: the networking code became a
// chunk shared by both, and the seam costs the traffic figure 451 B (25,598 → 26,049 B). The networking
// widgets import the traffic figure's module too (a module namespace object and two exports, no code):
// 26,158 B with both.
// 26.75 KB since session 12: a figure's actions (figure-actions.ts: applying, saying and echoing what a
// reader changes, ~1 KB) left the core (−544 B there) for a chunk every figure shares, which each
// figure's chunk now counts beyond the core (27,124 B here; a figure's own rose 0.9–1 KB, under 12 KB).
// The outage figure's client goes through the same data path since session 12 (issue 27): its chunk
// counts the networking code too (26,863 B); its page already loaded it for the frozen-endpoints widget.
// 27 KB since session 13: the client's last request read hop by hop (request-path.ts, ~0.5 KB), 27,601 B;
// 27.25 KB with the force-delete widget's `delete-pod --force` in the figure actions every figure shares (27,713 B).
// 27.75 KB with CoreDNS answering as the real kubernetes plugin does (issue 27's DNS judge: parse.go, findServices, NODATA, a namespace informer; 28,247 B; chain-stops 32,614 B).
// 29 KB since session 14 (issue 27): the nodes' nftables excerpts for web, the filter table's REJECT
// line, the strip's legend and the nftables sentence, computed here and not on the main thread.
// 29.25 KB with kube-proxy stopping and starting with its node's power (29,797 B).
// 29.75 KB with preemption's evaluator weighing PodDisruptionBudgets (the traffic figure loads it for CoreDNS's priority): 30,225 B.
const TRAFFIC_CHUNK_MAX_GZIP = 29.75 * KB;
/** The networking widgets (ready-endpoints, proxy-pick, dns-lookup, service-address, and chain-stops, whose step 12 reads kube-proxy's rules): the traffic figure's chunk, which they load, and their own ~3.4 KB. */
// + 4.25 KB since session 13: chain-stops, the largest, carries its twelve steps' readers (31,941 B).
const NETWORK_WIDGET_CHUNK_MAX_GZIP = TRAFFIC_CHUNK_MAX_GZIP + 4.25 * KB;
/** The figures whose lazy chunk has a limit of its own; every other figure's is FIGURE_CHUNK_MAX_GZIP. */
const FIGURE_CHUNK_BUDGETS = {
  traffic: TRAFFIC_CHUNK_MAX_GZIP,
  outage: TRAFFIC_CHUNK_MAX_GZIP,
  // The frozen-endpoints widget runs the traffic figure's kube-proxy and client: the same shared networking chunk.
  'frozen-endpoints': TRAFFIC_CHUNK_MAX_GZIP,
  'ready-endpoints': NETWORK_WIDGET_CHUNK_MAX_GZIP,
  'proxy-pick': NETWORK_WIDGET_CHUNK_MAX_GZIP,
  'dns-lookup': NETWORK_WIDGET_CHUNK_MAX_GZIP,
  'service-address': NETWORK_WIDGET_CHUNK_MAX_GZIP,
  'chain-stops': NETWORK_WIDGET_CHUNK_MAX_GZIP,
};
/**
 * The link encoder and decoder (permalink.ts) with kubectl's part of the API server, which a link's
 * replay needs: 13 KB since session 10, when preemption's evaluator and the PriorityClass validation
 * joined that part out of the core (13,209 B, from 11,306).
 */
// 16.5 KB since session 13 (issue 30): a link's replay needs what kubectl's part of the API server
// gained, the namespace registry's Delete and the namespace controller, and the strict field tables
// (16,857 B, from 13,182).
// 16.625 KB with issue 30's kubectl gaps: an eviction's dry run read from its deleteOptions, as a replay of drain --dry-run=server needs (16,937 B).
// 24.75 KB since session 14: a link's replay installs kubectl's part, which brings the request checks
// (typed decoding and validation) that left the core.
// 28.25 KB with PodDisruptionBudgets (issue 30): kubectl's part brings the disruption controller, the eviction API's budget check and ValidatePodDisruptionBudget (28,686 B).
// 30.75 KB since session 17: kubectl's part and the request checks a link's replay installs took what left the core
// (selector errors and the name checks they use, impersonation, ValidateListOptions, access reviews' answer): 31,474 B.
// 31.25 KB with preemption's evaluator weighing PodDisruptionBudgets, which a link's replay loads (31,801 B).
// 29.125 KB with ServiceAccounts (issue 30): kubectl's part brings the serviceaccount controller, the root-CA publisher and the TokenRequest's checks (29,742 B).
// 32.25 KB with all of session 17 merged (33,006 B).
// 32.3125 KB since the memos moved into *-cache.ts files (33,044 B): no code was added; the chunks'
// renamed imports of the core's exports gzip 32 B worse (kubectl-extras' text is 1 B shorter).
// 32.375 KB in session 20 (issue 29): kubectl's part wires the API server's connection to the kubelets,
// which left the core (125 B there) for kubectl's and this chunk (33,099 B).
const PERMALINK_CHUNK_MAX_GZIP = 32.375 * KB;
/**
 * kubectl, the script runner, the terminal's runner and `yaml`: the one chunk the worker loads when a
 * reader first uses a terminal. Raised from 70 KB when the API server's kubectl-only part (about
 * 4 KB: dry runs, access reviews, JSON patch, pods/log) moved here from the core every figure page
 * pays for; the terminal is optional for readers. 78 KB since kubectl 1.37 (create/describe
 * priorityclass, describe's event rules, rollout undo as rollback.go, logs -f): measured 77,852 B.
 */
// 80 KB since session 8: taint/cordon/drain by selector, dry runs, label without GETs, the JSONPath error (80,661 B).
// 81 KB since session 9: kubectl exec's programs (curl, wget, nslookup over the data path), sim traffic
// and sim app, and kubectl's fieldManager/fieldValidation parameters (82,600 B).
// 83 KB since session 10: preemption's evaluator and the PriorityClass validation moved here from the
// core with kubectl's part of the API server (84,572 B, from 82,678); 84 KB with the same session's
// fidelity round (watch timeoutSeconds and re-watch, get NAME -w, -f errors as CheckErr prints them): 85,000 B.
// 83 KB in session 11, when the core became one file (84,929 B: importing from one chunk, not five, takes less glue).
// 87.25 KB since session 13 (issue 30, what the real API server refuses): the namespace controller and
// the namespace registry's Delete (a deleted namespace is emptied, not dropped), strict field validation's
// tables, go-yaml v2's scalar resolution, describe namespace's conditions (89,202 B, from 84,929).
// 90.875 KB since issue 30's kubectl gaps: set env, set resources, run --annotations/--env/--overrides, get -w --output-watch-events and -o json|yaml|name, --request-timeout, drain's server dry run in the eviction's body (92,945 B).
// 98.75 KB since session 14: the request checks (8 KB: typed decoding and validation) left the core for kubectl's part;
// 99 KB with create service externalname (101,147 B).
// 104 KB with PodDisruptionBudgets (issue 30): create/get/describe pdb, drain's retries, and kubectl's part's disruption controller, eviction check and PDB validation (106,263 B).
// 104.5 KB with kubectl explain's entry, its completion and the terminal's wait for its chunk (below): 106,833 B.
// 104.75 KB with preemption's evaluator weighing PodDisruptionBudgets (FilterVictimsWithPDBViolation, two candidate lists): 107,105 B.
// 107.25 KB since session 17: what left the core for kubectl's part (selector errors and apimachinery's name checks,
// the impersonation filter, ValidateListOptions, accessAllowed, formatRecord, ParseDuration, Quantity.Cmp): 109,823 B;
// 107.75 KB with both (110,087 B).
// 106 KB with ServiceAccounts (issue 30): get/describe sa and cm, go-yaml's folding, kubectl's part's two controllers and TokenRequest checks (108,489 B).
// 109.25 KB with all of session 17 merged: the bytes that left the core, ServiceAccounts and PDB-aware preemption (111,803 B).
// 110.75 KB with create configmap, serviceaccount and token (create_configmap.go, create_serviceaccount.go, create_token.go): 113,159 B.
// 110.875 KB in session 20 (issue 29): the kubelet connection kubectl's part now wires, out of the core (113,468 B);
// 110.125 KB once the chunk's entry is figures/terminal.ts, without kubectl/index.ts's CLI-only re-exports (112,681 B).
const KUBECTL_CHUNK_MAX_GZIP = 110.125 * KB;
/**
 * kubectl explain's chunk, which kubectl's loads only for an explain line: the served kinds' OpenAPI
 * v3 schemas as the real API server serves them (200 schemas, their descriptions 330 KB of JSON),
 * the plaintext template and the command: 78,944 B.
 */
// 79.625 KB with ServiceAccount and ConfigMap served (their schemas and the ones they reach: 81,476 B).
const EXPLAIN_CHUNK_MAX_GZIP = 79.625 * KB;
/** The terminal's UI on the main thread (Terminal.svelte), loaded when a reader opens or focuses a terminal. */
const TERMINAL_UI_MAX_GZIP = 4 * KB;
/** The travel layer on the main thread (TravelLayer.svelte and travel.ts), loaded after a figure hydrates. */
const TRAVEL_UI_MAX_GZIP = 3 * KB;

const dist = 'dist';
const base = basePath();
const gz = (buf) => gzipSync(buf, { level: 9 }).length;
/** The registry id of a worker chunk named after a figure's definition (`<id>-figure-<hash>.js`, `<id>-widget-<hash>.js`). */
const figureOfChunk = (name) => FIGURE_ROWS.find((r) => name === `${r.id}-${r.kind}-${name.slice(-11)}`)?.id;
const fileOf = (src) => join(dist, src.startsWith(base + '/') ? src.slice(base.length) : src);

const report = createReport('budget');
// A limit of its own is for a figure the registry has: a row renamed or gone takes its number with it.
const strays = [...Object.keys(EMBED_BUDGETS), ...Object.keys(FIGURE_CHUNK_BUDGETS)].filter(
  (id) => !FIGURE_ROWS.some((r) => r.id === id),
);
report.check('every figure with a budget of its own is in the registry', strays.length === 0, strays.join(', '));
for (const page of htmlPages(dist)) {
  const html = read(page.file);
  const inline = [...html.matchAll(/<script(?![^>]*\ssrc=)([^>]*)>([\s\S]*?)<\/script>/g)].filter(
    (m) => !/type="application\/(ld\+)?json"/.test(m[1]),
  );
  const islands = (html.match(/<astro-island\b/g) ?? []).length;
  const moduleFiles = new Set();
  for (const src of [
    ...attrValues(html, 'script', 'src'),
    ...attrValues(html, 'astro-island', 'component-url'),
    ...attrValues(html, 'astro-island', 'renderer-url'),
  ]) {
    for (const f of moduleGraph(fileOf(src))) moduleFiles.add(f);
  }
  const css = attrValues(html, 'link', 'href').filter((h) => h.endsWith('.css'));
  const cssGzip = css.reduce((n, h) => n + gz(readFileSync(fileOf(h))), 0);
  const htmlGzip = gz(Buffer.from(html));
  const p = page.path;

  const htmlMax = HTML_PAGE_MAX_GZIP[p] ?? HTML_MAX_GZIP;
  report.check(`${p}: HTML ${htmlGzip} B gzip ≤ ${htmlMax}`, htmlGzip <= htmlMax);
  const cssMax = html.includes('data-widget-root=')
    ? WIDGET_PAGE_CSS_MAX_GZIP
    : islands > 0
      ? FIGURE_PAGE_CSS_MAX_GZIP
      : CSS_MAX_GZIP;
  report.check(
    `${p}: CSS ${cssGzip} B gzip ≤ ${cssMax}`,
    cssGzip <= cssMax && css.length > 0,
    `stylesheets: ${css.join(', ')}`,
  );
  const theme = inline.filter((m) => m[2].includes('ds-theme'));
  const otherInline = inline.filter((m) => !m[2].includes('ds-theme'));
  const themeBytes = theme.length === 1 ? Buffer.byteLength(theme[0][2]) : -1;
  report.check(
    `${p}: one inline theme script, ${themeBytes} B ≤ ${THEME_SCRIPT_MAX}`,
    themeBytes >= 0 && themeBytes <= THEME_SCRIPT_MAX,
    `${theme.length} theme scripts`,
  );
  // Module code Astro chose to inline counts like a file, with whatever it imports.
  let inlineGzip = 0;
  for (const m of otherInline) {
    inlineGzip += gz(Buffer.from(m[2]));
    for (const imp of m[2].matchAll(/["'](\/[^"']+\.js)["']/g))
      for (const f of moduleGraph(fileOf(imp[1]))) moduleFiles.add(f);
  }
  const moduleGzip = inlineGzip + [...moduleFiles].reduce((n, f) => n + gz(readFileSync(f)), 0);
  if (islands > 0) {
    const budget = FIGURE_BUDGETS[p];
    report.check(
      `${p}: ${islands} figure(s), JavaScript ${moduleGzip} B gzip within its budget`,
      budget !== undefined && moduleGzip <= budget,
      budget === undefined ? 'no budget declared in FIGURE_BUDGETS' : `budget ${budget}`,
    );
  } else if (p === '/search/') {
    report.check(
      `${p}: search module ${moduleGzip} B gzip ≤ ${SEARCH_JS_MAX_GZIP} (Pagefind loads on a query)`,
      moduleGzip > 0 && moduleGzip <= SEARCH_JS_MAX_GZIP,
    );
  } else {
    report.check(
      `${p}: no JavaScript besides the theme script (${moduleGzip} B)`,
      moduleGzip === 0,
      [...moduleFiles].join(', '),
    );
  }
}
// The worker: one chunk (with what it imports) for every figure of the site.
const astroDir = join(dist, '_astro');
const workers = existsSync(astroDir) ? readdirSync(astroDir).filter((f) => /^core\.worker-.*\.js$/.test(f)) : [];
report.check(`one core worker chunk (${workers.join(', ') || 'none'})`, workers.length === 1);
for (const w of workers) {
  const bytes = [...moduleGraph(join(astroDir, w))].reduce((n, f) => n + gz(readFileSync(f)), 0);
  const note =
    bytes <= WORKER_TARGET_GZIP
      ? `within the ${WORKER_TARGET_GZIP} B target`
      : `over the ${WORKER_TARGET_GZIP} B target by ${bytes - WORKER_TARGET_GZIP} B`;
  console.log(`budget: worker ${w}: ${bytes} B gzip, ${note}`);
  report.check(`worker ${w}: ${bytes} B gzip ≤ ${WORKER_MAX_GZIP} (${note})`, bytes <= WORKER_MAX_GZIP);
  // What the worker loads later by a dynamic import (each figure's definition, the link encoder): what each adds beyond the core.
  const core = moduleGraph(join(astroDir, w));
  // One file: split, each part is gzipped apart and the glue between them names what they share (astro.config.mjs).
  report.check(
    `worker ${w} is the core's one file (it imports no chunk statically)`,
    core.size === 1,
    [...core].join(', '),
  );
  const lazy = [
    ...readFileSync(join(astroDir, w), 'utf8').matchAll(/import\(\s*["'`](\.{1,2}\/[^"'`]+\.js)["'`]\s*\)/g),
  ].map((m) => join(astroDir, m[1]));
  // kubectl's chunk is named after its entry, the figures' terminal (figures/terminal.ts, which brings kubectl).
  const kubectl = [...new Set(lazy)].filter((c) => /^terminal-.*\.js$/.test(c.split('/').pop()));
  report.check(
    `the worker loads kubectl as one lazy chunk (${kubectl.map((c) => c.split('/').pop()).join(', ') || 'none'})`,
    kubectl.length === 1,
  );
  // Each figure of the registry is a lazy chunk of its own (catalog.ts), named after its definition's file.
  const unchunked = FIGURE_ROWS.filter((r) => !lazy.some((c) => figureOfChunk(c.split('/').pop()) === r.id));
  report.check(
    `every figure of the registry (${FIGURE_ROWS.length}) is a lazy chunk of the worker's`,
    unchunked.length === 0,
    unchunked.map((r) => r.id).join(', '),
  );
  for (const chunk of [...new Set(lazy)]) {
    const extra = [...moduleGraph(chunk)].filter((f) => !core.has(f)).reduce((n, f) => n + gz(readFileSync(f)), 0);
    const name = chunk.split('/').pop();
    const figure = figureOfChunk(name);
    const max = kubectl.includes(chunk)
      ? KUBECTL_CHUNK_MAX_GZIP
      : figure
        ? (FIGURE_CHUNK_BUDGETS[figure] ?? FIGURE_CHUNK_MAX_GZIP)
        : /^permalink-.*\.js$/.test(name)
          ? PERMALINK_CHUNK_MAX_GZIP
          : FIGURE_CHUNK_MAX_GZIP;
    report.check(`worker lazy chunk ${chunk.split('/').pop()}: ${extra} B gzip beyond the core ≤ ${max}`, extra <= max);
  }
  // kubectl's own lazy chunk: explain's, beyond the core and kubectl's chunk (which it imports).
  for (const k of kubectl) {
    const loaded = new Set([...core, ...moduleGraph(k)]);
    const explain = lazyImports(k).filter((c) => /^explain-.*\.js$/.test(c.split('/').pop()));
    report.check(
      `kubectl's chunk loads explain's as one lazy chunk (${explain.map((c) => c.split('/').pop()).join(', ') || 'none'})`,
      explain.length === 1,
    );
    for (const chunk of explain) {
      const extra = [...moduleGraph(chunk)].filter((f) => !loaded.has(f)).reduce((n, f) => n + gz(readFileSync(f)), 0);
      report.check(
        `kubectl's lazy chunk ${chunk.split('/').pop()}: ${extra} B gzip beyond the core and kubectl's ≤ ${EXPLAIN_CHUNK_MAX_GZIP}`,
        extra <= EXPLAIN_CHUNK_MAX_GZIP,
      );
    }
  }
}
// The terminal's UI: a chunk of its own on the main thread, outside the pages' budgets until a reader opens a terminal.
const terminalUi = existsSync(astroDir) ? readdirSync(astroDir).filter((f) => /^Terminal\..*\.js$/.test(f)) : [];
report.check(`one terminal UI chunk (${terminalUi.join(', ') || 'none'})`, terminalUi.length === 1);
for (const t of terminalUi) {
  const bytes = gz(readFileSync(join(astroDir, t)));
  report.check(`terminal UI ${t}: ${bytes} B gzip ≤ ${TERMINAL_UI_MAX_GZIP}`, bytes <= TERMINAL_UI_MAX_GZIP);
}
// The travel layer (TravelLayer.svelte, requests moving over the canvas): a chunk of its own, loaded
// once a figure is on the page, since it only draws what it measures in the browser.
const travelUi = existsSync(astroDir) ? readdirSync(astroDir).filter((f) => /^TravelLayer\..*\.js$/.test(f)) : [];
report.check(`one travel layer chunk (${travelUi.join(', ') || 'none'})`, travelUi.length === 1);
for (const t of travelUi) {
  const bytes = gz(readFileSync(join(astroDir, t)));
  report.check(`travel layer ${t}: ${bytes} B gzip ≤ ${TRAVEL_UI_MAX_GZIP}`, bytes <= TRAVEL_UI_MAX_GZIP);
}
report.finish();
