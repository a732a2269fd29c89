import { describe, it, expect } from 'vitest';
import {
  pullingImageEvent,
  pulledImageEvent,
  failedToPullImageEvent,
  errorEvent,
  createdContainerEvent,
  startedContainerEvent,
  killingContainerEvent,
  imagePullBackOffWaitingMessage,
  connectionRefusedOutput,
  imageAlreadyPresentEvent,
} from './events.ts';
import { imagePullBackOffMessage } from './backoff.ts';
import { imageNotFoundError } from './container-runtime.ts';
import { goDuration } from '../util/duration.ts';

describe('kubelet event texts', () => {
  it('image events', () => {
    expect(pullingImageEvent('nginx:1.27').message).toBe('Pulling image "nginx:1.27"');
    expect(pulledImageEvent('nginx:1.27', 6392.7, 6401, 72_400_000).message).toBe(
      'Successfully pulled image "nginx:1.27" in 6.392s (6.401s including waiting). Image size: 72400000 bytes.',
    );
    expect(pulledImageEvent('busybox:1.36', 568, 568, 2_160_000).message).toBe(
      'Successfully pulled image "busybox:1.36" in 568ms (568ms including waiting). Image size: 2160000 bytes.',
    );
    expect(imageAlreadyPresentEvent('nginx:1.27').message).toBe(
      'Container image "nginx:1.27" already present on machine and can be accessed by the pod',
    );
    expect(failedToPullImageEvent('nginx:nope', imageNotFoundError('nginx:nope'))).toEqual({
      type: 'Warning',
      reason: 'Failed',
      message:
        'Failed to pull image "nginx:nope": rpc error: code = NotFound desc = failed to pull and unpack image "docker.io/library/nginx:nope": failed to resolve reference "docker.io/library/nginx:nope": docker.io/library/nginx:nope: not found',
    });
    expect(errorEvent('ErrImagePull').message).toBe('Error: ErrImagePull');
    expect(imagePullBackOffWaitingMessage('nginx:nope', 'boom')).toBe(
      'Back-off pulling image "nginx:nope": ErrImagePull: boom',
    );
    expect(imagePullBackOffMessage('nginx:nope', 'boom')).toEqual({
      message: 'Back-off pulling image "nginx:nope": ErrImagePull: boom',
      event: { type: 'Normal', reason: 'BackOff', message: 'Back-off pulling image "nginx:nope"' },
    });
  });

  it('container events', () => {
    // 1.35+: the container is named by the event's fieldPath, not in the text
    expect(createdContainerEvent().message).toBe('Container created');
    expect(startedContainerEvent().message).toBe('Container started');
    expect(killingContainerEvent('app').message).toBe('Stopping container app');
    expect(connectionRefusedOutput('10.244.1.7', 8080, '/healthz')).toBe(
      'Get "http://10.244.1.7:8080/healthz": dial tcp 10.244.1.7:8080: connect: connection refused',
    );
  });

  it('Go duration strings', () => {
    expect([0, 500, 10_000, 80_000, 300_000, 3_600_000, 1500].map(goDuration)).toEqual([
      '0s',
      '500ms',
      '10s',
      '1m20s',
      '5m0s',
      '1h0m0s',
      '1.5s',
    ]);
  });
});
