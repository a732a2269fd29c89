// kubectl's pod table row, ported from pkg/printers/internalversion/printers.go (printPod and
// translateTimestampSince); the durations are util/duration.ts's.
import type { Pod, PodCondition, Container } from 'kubernetes-types/core/v1';
import { parseTime } from '../util/time.ts';
import { humanDuration } from '../util/duration.ts';

/** translateTimestampSince: "<unknown>" for a zero timestamp, else HumanDuration(now − t). */
export function translateTimestampSince(timestamp: string | undefined | null, nowMs: number): string {
  const t = parseTime(timestamp);
  if (t === undefined) return '<unknown>';
  return humanDuration(nowMs - t);
}

/** podutil.IsRestartableInitContainer: a sidecar (restartPolicy Always on an init container). */
function isRestartableInitContainer(c: Container | undefined): boolean {
  return c?.restartPolicy === 'Always';
}

function hasPodReadyCondition(conditions: PodCondition[] | undefined): boolean {
  return (conditions ?? []).some((c) => c.type === 'Ready' && c.status === 'True');
}

function isPodInitializedConditionTrue(conditions: PodCondition[] | undefined): boolean {
  return (conditions ?? []).some((c) => c.type === 'Initialized' && c.status === 'True');
}

/** The cells of one `kubectl get pods` row: NAME READY STATUS RESTARTS AGE [IP NODE NOMINATED NODE READINESS GATES]. */
interface PodRow {
  name: string;
  ready: string;
  status: string;
  restarts: string;
  age: string;
  ip?: string;
  node?: string;
  nominatedNode?: string;
  readinessGates?: string;
}

/** printPod: the modern algorithm, line for line (init containers first, then containers last to first). */
export function printPod(pod: Pod, nowMs: number, options: { wide?: boolean } = {}): PodRow {
  const spec = pod.spec ?? { containers: [] };
  const status = pod.status ?? {};
  let restarts = 0;
  let restartableInitContainerRestarts = 0;
  let totalContainers = spec.containers.length;
  let readyContainers = 0;
  let lastRestartDate = -Infinity;
  let lastRestartableInitContainerRestartDate = -Infinity;

  const podPhase = status.phase ?? '';
  let reason: string = podPhase;
  if (status.reason) reason = status.reason;
  for (const c of status.conditions ?? []) {
    if (c.type === 'PodScheduled' && c.reason === 'SchedulingGated') reason = 'SchedulingGated';
  }

  const initContainers = new Map<string, Container>();
  for (const c of spec.initContainers ?? []) {
    initContainers.set(c.name, c);
    if (isRestartableInitContainer(c)) totalContainers++;
  }

  let initializing = false;
  const initStatuses = status.initContainerStatuses ?? [];
  for (let i = 0; i < initStatuses.length; i++) {
    const container = initStatuses[i];
    restarts += container.restartCount;
    const lastTerm = parseTime(container.lastState?.terminated?.finishedAt);
    if (lastTerm !== undefined && lastRestartDate < lastTerm) lastRestartDate = lastTerm;
    const restartable = isRestartableInitContainer(initContainers.get(container.name));
    if (restartable) {
      restartableInitContainerRestarts += container.restartCount;
      if (lastTerm !== undefined && lastRestartableInitContainerRestartDate < lastTerm) {
        lastRestartableInitContainerRestartDate = lastTerm;
      }
    }
    const term = container.state?.terminated;
    const waiting = container.state?.waiting;
    if (term && term.exitCode === 0) continue;
    if (restartable && container.started) {
      if (container.ready) readyContainers++;
      continue;
    }
    if (term) {
      if (!term.reason) {
        reason = term.signal ? `Init:Signal:${term.signal}` : `Init:ExitCode:${term.exitCode}`;
      } else {
        reason = `Init:${term.reason}`;
      }
      initializing = true;
    } else if (waiting && waiting.reason && waiting.reason !== 'PodInitializing') {
      reason = `Init:${waiting.reason}`;
      initializing = true;
    } else {
      reason = `Init:${i}/${(spec.initContainers ?? []).length}`;
      initializing = true;
    }
    break;
  }

  if (!initializing || isPodInitializedConditionTrue(status.conditions)) {
    // Only sidecar restarts count once the pod is initialised; regular init restarts are history.
    restarts = restartableInitContainerRestarts;
    lastRestartDate = lastRestartableInitContainerRestartDate;
    let hasRunning = false;
    const statuses = status.containerStatuses ?? [];
    for (let i = statuses.length - 1; i >= 0; i--) {
      const container = statuses[i];
      restarts += container.restartCount;
      const lastTerm = parseTime(container.lastState?.terminated?.finishedAt);
      if (lastTerm !== undefined && lastRestartDate < lastTerm) lastRestartDate = lastTerm;
      const waiting = container.state?.waiting;
      const term = container.state?.terminated;
      if (waiting && waiting.reason) {
        reason = waiting.reason;
      } else if (term && term.reason) {
        reason = term.reason;
      } else if (term && !term.reason) {
        reason = term.signal ? `Signal:${term.signal}` : `ExitCode:${term.exitCode}`;
      } else if (container.ready && container.state?.running) {
        hasRunning = true;
        readyContainers++;
      }
    }
    // A finished container must not hide one that is still serving.
    if (reason === 'Completed' && hasRunning) {
      reason = hasPodReadyCondition(status.conditions) ? 'Running' : 'NotReady';
    }
  }

  const deleting = !!pod.metadata?.deletionTimestamp;
  if (deleting && status.reason === 'NodeLost') {
    reason = 'Unknown';
  } else if (deleting && podPhase !== 'Succeeded' && podPhase !== 'Failed') {
    reason = 'Terminating';
  }

  let restartsStr = String(restarts);
  if (restarts !== 0 && lastRestartDate !== -Infinity) {
    restartsStr = `${restarts} (${humanDuration(nowMs - lastRestartDate)} ago)`;
  }

  const row: PodRow = {
    name: pod.metadata?.name ?? '',
    ready: `${readyContainers}/${totalContainers}`,
    status: reason,
    restarts: restartsStr,
    age: translateTimestampSince(pod.metadata?.creationTimestamp, nowMs),
  };
  if (options.wide) {
    row.ip = status.podIPs?.[0]?.ip || '<none>';
    row.node = spec.nodeName || '<none>';
    row.nominatedNode = status.nominatedNodeName || '<none>';
    let gates = '<none>';
    if ((spec.readinessGates ?? []).length > 0) {
      let trueConditions = 0;
      for (const g of spec.readinessGates ?? []) {
        const c = (status.conditions ?? []).find((x) => x.type === g.conditionType);
        if (c?.status === 'True') trueConditions++;
      }
      gates = `${trueConditions}/${spec.readinessGates!.length}`;
    }
    row.readinessGates = gates;
  }
  return row;
}
