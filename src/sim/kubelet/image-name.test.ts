// distribution/reference's ParseNormalizedNamed, as the kubelet's applyDefaultImageTag meets it.
import { describe, expect, test } from 'vitest';
import { invalidImageNameMessage, parseNormalizedNamedError } from './image-name.ts';

describe('parseNormalizedNamedError', () => {
  test.each([
    ['nginx', undefined],
    ['nginx:1.27', undefined],
    ['library/nginx:latest', undefined],
    ['registry.k8s.io/pause:3.10', undefined],
    ['localhost:5000/app/web:v1', undefined],
    ['[::1]:5000/app', undefined],
    ['busybox@sha256:0d17b565c37bcbd895e9d92315a05c1c3c9a29f762b011a10c54a66cd53c9b31', undefined],
    ['nginx:1.27@sha256:0d17b565c37bcbd895e9d92315a05c1c3c9a29f762b011a10c54a66cd53c9b31', undefined],
    ['nginx:<b>', 'invalid reference format'],
    ['nginx:', 'invalid reference format'],
    ['nginx::1', 'invalid reference format'],
    ['-nginx', 'invalid reference format'],
    ['nginx@sha256:abc', 'invalid reference format'],
    ['Nginx:1.27', 'invalid reference format: repository name (library/Nginx) must be lowercase'],
    ['example.com/App', 'invalid reference format: repository name (App) must be lowercase'],
    [
      '0d17b565c37bcbd895e9d92315a05c1c3c9a29f762b011a10c54a66cd53c9b31',
      'invalid repository name (0d17b565c37bcbd895e9d92315a05c1c3c9a29f762b011a10c54a66cd53c9b31), cannot specify 64-byte hexadecimal strings',
    ],
    [`a/${'b'.repeat(260)}`, 'repository name must not be more than 255 characters'],
  ])('%s', (image, want) => {
    expect(parseNormalizedNamedError(image)).toBe(want);
  });
  test("the kubelet's message wraps it twice (applyDefaultImageTag, ParseImageName)", () => {
    expect(invalidImageNameMessage('nginx:<b>')).toBe(
      'Failed to apply default image tag "nginx:<b>": couldn\'t parse image name "nginx:<b>": invalid reference format',
    );
    expect(invalidImageNameMessage('nginx:1.27')).toBeUndefined();
  });
});
