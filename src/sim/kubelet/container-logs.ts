// The kubelet's GetContainerLogs (port 10250's /containerLogs/…): it answers from its status
// manager's view of the pod (validateContainerLogStatus), then from containerd's record of the chosen
// container. Only `kubectl logs` reaches it (through kubectl's part of the API server).
import type { ContainerStatus, PodStatus } from 'kubernetes-types/core/v1';
import type { KubeletState } from './kubelet-state.ts';

/** GetContainerLogs: which container instance the request means, and its output. */
export function containerLogs(
  st: KubeletState,
  namespace: string,
  pod: string,
  container: string,
  previous: boolean,
): { ok: true; text: string } | { ok: false; message: string } {
  const key = `${namespace}/${pod}`;
  const obj = st.pods.items[key];
  if (!obj) return { ok: false, message: `pod "${pod}" cannot be found - no logs available` };
  // The status manager's copy (what the kubelet last wrote); the API's when it has none yet.
  const status = st.workers[key]?.lastSent ?? obj.status ?? {};
  const r = validateContainerLogStatus(pod, status, container, previous);
  if ('message' in r) return { ok: false, message: r.message };
  const id = r.containerID.replace(/^containerd:\/\//, '');
  return { ok: true, text: st.runtime.containers[id]?.log ?? '' };
}

/** validateContainerLogStatus: the container ID whose log is meant, or why there is none. */
function validateContainerLogStatus(
  podName: string,
  status: PodStatus,
  containerName: string,
  previous: boolean,
): { containerID: string } | { message: string } {
  const all: ContainerStatus[] = [...(status.containerStatuses ?? []), ...(status.initContainerStatuses ?? [])];
  const cs = all.find((c) => c.name === containerName);
  if (!cs) return { message: `container "${containerName}" in pod "${podName}" is not available` };
  const last = cs.lastState?.terminated;
  const { waiting, running, terminated } = cs.state ?? {};
  const where = `container "${containerName}" in pod "${podName}"`;
  if (previous) {
    if (!last?.containerID) return { message: `previous terminated ${where} not found` };
    return { containerID: last.containerID };
  }
  if (running) return { containerID: cs.containerID ?? '' };
  if (terminated) {
    if (terminated.containerID) return { containerID: terminated.containerID };
    if (last?.containerID) return { containerID: last.containerID };
    return { message: `${where} is terminated` };
  }
  if (last) return last.containerID ? { containerID: last.containerID } : { message: `${where} is terminated` };
  if (waiting) {
    if (waiting.reason === 'ErrImagePull') return { message: `${where} is waiting to start: image can't be pulled` };
    if (waiting.reason === 'ImagePullBackOff')
      return { message: `${where} is waiting to start: trying and failing to pull image` };
    return { message: `${where} is waiting to start: ${waiting.reason ?? ''}` };
  }
  return { message: `${where} is waiting to start - no logs yet` };
}
