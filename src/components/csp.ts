import { createHash } from 'node:crypto';

/** The CSP source that allows one inline script or style by content: `sha256-<base64>` (build time only). */
export function scriptHash(source: string): `sha256-${string}` {
  return `sha256-${createHash('sha256').update(source).digest('base64')}`;
}
