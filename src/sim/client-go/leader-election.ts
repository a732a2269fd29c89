// client-go's leader election (tools/leaderelection, resourcelock/leaselock.go) as kube-scheduler and
// kube-controller-manager run it: a Lease in kube-system held by `<hostname>_<uuid>`, acquired by
// GET (and POST when missing), renewed with a PUT every retryPeriod from the Lease kept in memory,
// and lost when renewDeadline passes without one; the process then exits and its static pod's
// kubelet starts it again, a new candidate that must wait out the old holder's leaseDuration.
// The component is the process: it starts its loops (the scheduler, the controllers) once it
// leads, and stops them when it exits.
import type { Lease } from 'kubernetes-types/coordination/v1';
import type { ApiResult, RequestOptions } from '../api/request.ts';
import { recordEventOnce } from './record.ts';
import { fnv1a32, microTime, newUID } from '../util/names.ts';
import { parseTime } from '../util/time.ts';
import { createRng } from '../rng.ts';
import type { AddComponentOptions, ClientCtx, ComponentDef, Ctx } from '../world.ts';

/** LeaderElectionConfiguration defaults (component-base RecommendedDefaultLeaderElectionConfiguration). */
export const LEASE_DURATION_MS = 15_000;
/** renewDeadline: how long the leader keeps trying to renew before it gives up leading. */
export const RENEW_DEADLINE_MS = 10_000;
/** retryPeriod: between two renewals, and between two tries to acquire. */
export const RETRY_PERIOD_MS = 2_000;
/** leaderelection.JitterFactor: acquire retries wait retryPeriod × (1 + rand × 1.2). */
export const JITTER_FACTOR = 1.2;
/** The namespace of both locks (SchedulerDefaultLockObjectNamespace, the controller manager's). */
const LOCK_NAMESPACE = 'kube-system';
/**
 * From the exit to the new process's first request: the kubelet's PLEG relist (1 s) sees the
 * container gone and restarts it (a first restart has no CrashLoopBackOff).
 */
export const RESTART_DELAY_MS = 1_000;

/**
 * resourcelock.NewFromKubeconfig gives the lock's own client a timeout of renewDeadline / 2, which
 * client-go's REST client sends as `?timeout=5s` on every Lease request.
 */
const LOCK_CLIENT: RequestOptions = { timeout: `${RENEW_DEADLINE_MS / 2 / 1000}s` };

/** What the process is told at start. */
export interface LeaderElectorParams {
  /** The Lease's name: kube-scheduler or kube-controller-manager. */
  lease: string;
  /** os.Hostname() of the control-plane node the static pod runs on. */
  hostname: string;
  /** The loops it starts once it leads (OnStartedLeading): [instance, type, options]. */
  run: [string, string, AddComponentOptions][];
  /** ReleaseOnCancel: on a graceful stop the scheduler hands the Lease back; the controller manager does not (its gate is off). */
  releaseOnCancel: boolean;
  /** The events' source component (LeaderElection events, core/v1). */
  eventSource: string;
}

/** LeaderElectionRecord: the Lease spec as the elector reads and writes it (times in simulated ms). */
interface LeaderElectionRecord {
  holderIdentity: string;
  leaseDurationSeconds: number;
  acquireTime: number;
  renewTime: number;
  leaderTransitions: number;
}

/** One process's elector, as plain data. */
interface LeaderElectorState {
  /** `<hostname>_<uuid>`: new with every process. */
  identity: string;
  /** Restarts so far (each one a new process, a new identity); timers of an earlier one are ignored. */
  gen: number;
  /** LeaseLock.lease: the Lease as last read or written, sent back on the next PUT. */
  lease?: Lease;
  /** observedRecord and observedTime: what the elector last saw or wrote, and when. */
  observed?: LeaderElectionRecord;
  observedAt: number;
  /** observedRawRecord: the record as last read (a GET), to tell a change from the same record again. */
  observedRaw?: string;
  /** When the current renew poll began (renewDeadline counts from it); undefined while acquiring. */
  renewSince?: number;
  /** Whether its loops run (OnStartedLeading has been called). */
  started: boolean;
  /** The name sequence of its LeaderElection events. */
  events: { seq: number };
}

type Timer = { type: 'le-acquire' | 'le-renew' | 'le-renew-retry' | 'le-restart'; gen: number };
/** renewDeadline passed without a renewal: leadership is lost. */
type LeaseLost = { type: 'le-lost'; gen: number };

/** uuid.NewUUID() (v4), from a generator seeded by the process's name, generation and start time: no draw from the world's rng, so no generated name moves. */
function uuidOf(name: string, gen: number, now: number): string {
  return newUID(createRng(fnv1a32(`${name}:${gen}:${now}`)));
}

/** wait.Jitter(retryPeriod, 1.2), drawn from a hash of the process and the time (as the kubelet's jitter is). */
function acquireRetryDelay(s: LeaderElectorState, now: number): number {
  return RETRY_PERIOD_MS + (fnv1a32(`${s.identity}:${now}`) % (Math.floor(RETRY_PERIOD_MS * JITTER_FACTOR) + 1));
}

/** A new process's elector. */
export function newLeaderElector(hostname: string, name: string, gen: number, now: number): LeaderElectorState {
  return { identity: `${hostname}_${uuidOf(name, gen, now)}`, gen, observedAt: 0, started: false, events: { seq: 0 } };
}

/** LeaseSpecToLeaderElectionRecord. */
export function recordOfLease(lease: Lease): LeaderElectionRecord {
  const s = lease.spec ?? {};
  return {
    holderIdentity: s.holderIdentity ?? '',
    leaseDurationSeconds: s.leaseDurationSeconds ?? 0,
    acquireTime: s.acquireTime ? parseTime(s.acquireTime, true)! : 0,
    renewTime: s.renewTime ? parseTime(s.renewTime, true)! : 0,
    leaderTransitions: s.leaseTransitions ?? 0,
  };
}

/** LeaderElectionRecordToLeaseSpec: the times as MicroTime. */
export function leaseSpecOf(r: LeaderElectionRecord): NonNullable<Lease['spec']> {
  return {
    holderIdentity: r.holderIdentity,
    leaseDurationSeconds: r.leaseDurationSeconds,
    acquireTime: microTime(r.acquireTime),
    renewTime: microTime(r.renewTime),
    leaseTransitions: r.leaderTransitions,
  };
}

/** IsLeader: the record last observed names this process. */
function isLeader(s: LeaderElectorState): boolean {
  return s.observed?.holderIdentity === s.identity;
}

/** isLeaseValid: observedTime + leaseDuration is still ahead (the holder's clock is never trusted, only when we saw it). */
export function isLeaseValid(s: LeaderElectorState, now: number): boolean {
  return s.observedAt + (s.observed?.leaseDurationSeconds ?? 0) * 1000 > now;
}

function setObserved(s: LeaderElectorState, r: LeaderElectionRecord, now: number): void {
  s.observed = r;
  s.observedAt = now;
}

type LCtx = Ctx<LeaderElectorState>;

/** LeaseLock.Update: the Lease in memory with a new spec, PUT. */
function updateLease(ctx: ClientCtx, s: LeaderElectorState, r: LeaderElectionRecord): boolean {
  if (!s.lease) return false;
  const md = s.lease.metadata ?? {};
  const res = ctx.api.request({
    verb: 'update',
    resource: 'leases',
    namespace: md.namespace,
    name: md.name,
    body: { ...s.lease, spec: leaseSpecOf(r) },
    options: LOCK_CLIENT,
  }) as ApiResult<Lease>;
  if (!res.ok) return false;
  s.lease = res.object;
  return true;
}

/** LeaseLock.Get, through the lock's client. */
function getLease(ctx: ClientCtx, lease: string): ApiResult<Lease> {
  return ctx.api.request({
    verb: 'get',
    resource: 'leases',
    namespace: LOCK_NAMESPACE,
    name: lease,
    options: LOCK_CLIENT,
  }) as ApiResult<Lease>;
}

/**
 * tryAcquireOrRenew: the leader's fast path is one PUT from memory; otherwise GET (POST when there
 * is none), leave a Lease someone else holds alone until it has gone unrenewed for its duration,
 * then take it (leaseTransitions + 1).
 */
function tryAcquireOrRenew(ctx: ClientCtx, s: LeaderElectorState, lease: string): boolean {
  const now = ctx.now;
  const rec: LeaderElectionRecord = {
    holderIdentity: s.identity,
    leaseDurationSeconds: LEASE_DURATION_MS / 1000,
    renewTime: now,
    acquireTime: now,
    leaderTransitions: 0,
  };
  if (isLeader(s) && isLeaseValid(s, now)) {
    rec.acquireTime = s.observed!.acquireTime;
    rec.leaderTransitions = s.observed!.leaderTransitions;
    if (updateLease(ctx, s, rec)) {
      setObserved(s, rec, now);
      return true;
    }
  }
  const got = getLease(ctx, lease);
  if (!got.ok) {
    if (got.code !== 404) return false;
    const created = ctx.api.create(
      'leases',
      {
        apiVersion: 'coordination.k8s.io/v1',
        kind: 'Lease',
        metadata: { name: lease, namespace: LOCK_NAMESPACE },
        spec: leaseSpecOf(rec),
      },
      LOCK_NAMESPACE,
      LOCK_CLIENT,
    );
    if (!created.ok) return false;
    s.lease = created.object;
    setObserved(s, rec, now);
    return true;
  }
  s.lease = got.object;
  const old = recordOfLease(got.object);
  const raw = JSON.stringify(old);
  if (raw !== s.observedRaw) {
    setObserved(s, old, now);
    s.observedRaw = raw;
  }
  if (old.holderIdentity && isLeaseValid(s, now) && !isLeader(s)) return false;
  if (isLeader(s)) {
    rec.acquireTime = old.acquireTime;
    rec.leaderTransitions = old.leaderTransitions;
  } else rec.leaderTransitions = old.leaderTransitions + 1;
  if (!updateLease(ctx, s, rec)) return false;
  setObserved(s, rec, now);
  return true;
}

/** tryRelease (ReleaseOnCancel): GET, then hand the Lease back: no holder, a 1 s duration. */
function tryRelease(ctx: ClientCtx, s: LeaderElectorState, lease: string): boolean {
  const got = getLease(ctx, lease);
  if (!got.ok) return false;
  s.lease = got.object;
  if (!isLeader(s)) return true;
  const now = ctx.now;
  const rec: LeaderElectionRecord = {
    holderIdentity: '',
    leaseDurationSeconds: 1,
    renewTime: now,
    acquireTime: now,
    leaderTransitions: recordOfLease(got.object).leaderTransitions,
  };
  if (!updateLease(ctx, s, rec)) return false;
  setObserved(s, rec, now);
  return true;
}

function params(ctx: LCtx): LeaderElectorParams {
  return ctx.params as LeaderElectorParams;
}

function later(ctx: LCtx, ms: number, type: Timer['type'], recurring = false): void {
  ctx.schedule(ms, { type, gen: ctx.state.gen } satisfies Timer, { recurring });
}

/** LeaseLock.RecordEvent: a core/v1 Event about the Lease, `<identity> <what>`. */
function recordLeaderEvent(ctx: LCtx, what: string): void {
  const s = ctx.state;
  const p = params(ctx);
  const md = s.lease?.metadata ?? { name: p.lease, namespace: LOCK_NAMESPACE };
  recordEventOnce(
    ctx,
    s.events,
    {
      apiVersion: 'coordination.k8s.io/v1',
      kind: 'Lease',
      metadata: { name: md.name, namespace: md.namespace, uid: md.uid, resourceVersion: md.resourceVersion },
    },
    'Normal',
    'LeaderElection',
    `${s.identity} ${what}`,
    undefined,
    p.eventSource,
  );
}

/** acquire: one try; on success the loops start and renewing begins at once, else a jittered retry. */
function acquire(ctx: LCtx): void {
  const p = params(ctx);
  if (!tryAcquireOrRenew(ctx, ctx.state, p.lease)) {
    later(ctx, acquireRetryDelay(ctx.state, ctx.now), 'le-acquire');
    return;
  }
  recordLeaderEvent(ctx, 'became leader');
  ctx.state.started = true;
  for (const [name, type, opts] of p.run) ctx.start(name, type, opts);
  renew(ctx, true);
}

/**
 * renew: a PollUntilContextTimeout(retryPeriod, renewDeadline) of tryAcquireOrRenew, started again
 * retryPeriod after each success; when the deadline passes without one, leadership is lost.
 */
function renew(ctx: LCtx, fresh: boolean): void {
  const s = ctx.state;
  if (fresh) s.renewSince = ctx.now;
  // The renewals are the process's heartbeat: recurring, so a settled cluster is one that only renews.
  if (tryAcquireOrRenew(ctx, s, params(ctx).lease)) {
    later(ctx, RETRY_PERIOD_MS, 'le-renew', true);
    return;
  }
  const deadline = s.renewSince! + RENEW_DEADLINE_MS;
  if (ctx.now + RETRY_PERIOD_MS < deadline) {
    later(ctx, RETRY_PERIOD_MS, 'le-renew-retry');
    return;
  }
  ctx.schedule(deadline - ctx.now, { type: 'le-lost', gen: s.gen } satisfies LeaseLost, { recurring: false });
}

/**
 * The process's end once it has led: the Lease handed back when it may (renew's release), its loops
 * stopped. The deferred "stopped leading" Event is left out: it goes to the broadcaster's goroutine
 * as the process exits, and whether it is sent first is a race.
 */
function exit(ctx: LCtx): void {
  const s = ctx.state;
  const p = params(ctx);
  if (!s.started) return;
  if (p.releaseOnCancel) tryRelease(ctx, s, p.lease);
  for (const [name] of p.run) ctx.stop(name);
  s.started = false;
}

/** A process that holds a leader-election Lease and runs its loops only while it leads. */
export const leaderElectorDef: ComponentDef<LeaderElectorState, Timer | LeaseLost> = {
  name: 'leader-elector',
  init(ctx) {
    ctx.state = newLeaderElector(params(ctx).hostname, ctx.name, 0, ctx.now);
    acquire(ctx);
    return ctx.state;
  },
  handle(event, ctx) {
    if (event.gen !== ctx.state.gen) return;
    switch (event.type) {
      case 'le-acquire':
        acquire(ctx);
        return;
      case 'le-renew':
        renew(ctx, true);
        return;
      case 'le-renew-retry':
        renew(ctx, false);
        return;
      case 'le-lost':
        // OnStoppedLeading: klog.FlushAndExit(1). The kubelet starts the static pod's container again.
        exit(ctx);
        ctx.state.gen++;
        ctx.state.renewSince = undefined;
        later(ctx, RESTART_DELAY_MS, 'le-restart');
        return;
      case 'le-restart': {
        const gen = ctx.state.gen;
        ctx.state = newLeaderElector(params(ctx).hostname, ctx.name, gen, ctx.now);
        acquire(ctx);
        return;
      }
    }
  },
  stop(ctx) {
    exit(ctx);
  },
};
