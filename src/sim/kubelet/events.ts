// The kubelet's event reasons and messages (pkg/kubelet/events/event.go for reasons; texts from
// pkg/kubelet/images/image_manager.go and pkg/kubelet/kuberuntime/kuberuntime_container.go).
import type { KubeletEvent } from './backoff.ts';
import { goDuration } from '../util/duration.ts';
import { alreadyPresent, pulling } from './events-cache.ts';

/** events.CreatedContainer (reason constants below are from pkg/kubelet/events/event.go) */
const CreatedContainer = 'Created';
/** events.StartedContainer */
const StartedContainer = 'Started';
/** events.FailedToCreateContainer */
const FailedToCreateContainer = 'Failed';
/** events.KillingContainer */
const KillingContainer = 'Killing';
/** events.PullingImage */
const PullingImage = 'Pulling';
/** events.PulledImage */
const PulledImage = 'Pulled';
/** events.FailedToPullImage */
const FailedToPullImage = 'Failed';
/** events.FailedToInspectImage */
export const FailedToInspectImage = 'InspectFailed';

function shared(events: Map<string, KubeletEvent>, value: string, make: (value: string) => KubeletEvent): KubeletEvent {
  let e = events.get(value);
  if (e === undefined) {
    e = Object.freeze(make(value));
    if (events.size >= 4096) events.clear();
    events.set(value, e);
  }
  return e;
}

const makePulling = (image: string): KubeletEvent => ({
  type: 'Normal',
  reason: PullingImage,
  message: `Pulling image "${image}"`,
});
const makeAlreadyPresent = (image: string): KubeletEvent => ({
  type: 'Normal',
  reason: PulledImage,
  message: `Container image "${image}" already present on machine and can be accessed by the pod`,
});

/** "Pulling image "nginx:1.27"" */
export function pullingImageEvent(image: string): KubeletEvent {
  return shared(pulling, image, makePulling);
}

/** The Pulled message: durations truncated to ms and printed like Go ("6.392s", "568ms"). */
export function pulledImageEvent(image: string, pullMs: number, totalMs: number, imageSizeBytes: number): KubeletEvent {
  return {
    type: 'Normal',
    reason: PulledImage,
    message: `Successfully pulled image "${image}" in ${goDuration(Math.trunc(pullMs))} (${goDuration(Math.trunc(totalMs))} including waiting). Image size: ${imageSizeBytes} bytes.`,
  };
}

/** Pulled when the image is already there (text of kubelets with KubeletEnsureSecretPulledImages, 1.33+). */
export function imageAlreadyPresentEvent(image: string): KubeletEvent {
  return shared(alreadyPresent, image, makeAlreadyPresent);
}

/** "Failed to pull image "x": <runtime error>" */
export function failedToPullImageEvent(image: string, err: string): KubeletEvent {
  return { type: 'Warning', reason: FailedToPullImage, message: `Failed to pull image "${image}": ${err}` };
}

/** "Error: ErrImagePull" / "Error: ImagePullBackOff": startContainer's event after EnsureImageExists failed. */
export function errorEvent(what: string): KubeletEvent {
  return { type: 'Warning', reason: FailedToCreateContainer, message: `Error: ${what}` };
}

/** The waiting message while image pull backs off; newer kubelets append the last pull error. */
export function imagePullBackOffWaitingMessage(image: string, prevPullErr?: string): string {
  const msg = `Back-off pulling image "${image}"`;
  return prevPullErr ? `${msg}: ErrImagePull: ${prevPullErr}` : msg;
}

// Since 1.35 the texts name no container: the event's fieldPath (spec.containers{app}) says which.
const CREATED: KubeletEvent = Object.freeze({ type: 'Normal', reason: CreatedContainer, message: 'Container created' });
const STARTED: KubeletEvent = Object.freeze({ type: 'Normal', reason: StartedContainer, message: 'Container started' });

/** "Container created" (kuberuntime_container.go startContainer, 1.35+). */
export function createdContainerEvent(): KubeletEvent {
  return CREATED;
}

/** "Container started" (1.35+). */
export function startedContainerEvent(): KubeletEvent {
  return STARTED;
}

/** Killing: "Stopping container app", or the probe's reason ("Container app failed liveness probe, will be restarted"). */
export function killingContainerEvent(name: string, message?: string): KubeletEvent {
  return { type: 'Normal', reason: KillingContainer, message: message ?? `Stopping container ${name}` };
}

/** The prober's output when nothing listens on the port. */
export function connectionRefusedOutput(ip: string, port: number, path: string): string {
  return `Get "http://${ip}:${port}${path}": dial tcp ${ip}:${port}: connect: connection refused`;
}
