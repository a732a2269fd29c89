// Shared test fixtures (not exported from index.ts).
import type { ApiResult } from '../api/request.ts';
import type { ApiServerConfig } from '../apiserver/config.ts';
import { installKubectlExtras } from '../kubectl-extras.ts';
import type { Deployment } from 'kubernetes-types/apps/v1';
import type { AnyComponentDef, ComponentDef } from '../world.ts';
import { World, type WorldOptions } from '../world.ts';
import type { WatchNotification } from '../api/watch.ts';

/** A world (seed 1 unless given) with the system namespaces, and a bare API server (with kubectl's part and the optional parts it brings) unless given one. */
export function testWorld(
  opts: WorldOptions = {},
  defs: AnyComponentDef[] = [],
  apiConfig?: ApiServerConfig | ((world: World) => ApiServerConfig),
): World {
  const w = new World({ seed: 1, ...opts }, defs, apiConfig);
  // Tests play kubectl too (dry runs, access reviews, JSON patches), so its part of the API server is in.
  installKubectlExtras(w);
  return w;
}

/** A minimal Deployment body. */
export function deployment(name: string, replicas = 3, extra: Record<string, unknown> = {}): Record<string, unknown> {
  return {
    apiVersion: 'apps/v1',
    kind: 'Deployment',
    metadata: { name },
    spec: {
      replicas,
      selector: { matchLabels: { app: name } },
      template: { metadata: { labels: { app: name } }, spec: { containers: [{ name, image: 'nginx:1.27' }] } },
      ...extra,
    },
  };
}

/**
 * A Deployment as the whole-cluster tests create it: labelled `app: name` in `default`, one
 * container `app` running `image`, with any further container fields (resources, probes …).
 */
export function appDeployment(
  name: string,
  replicas: number,
  image = 'nginx:1.27',
  container: Record<string, unknown> = {},
): Deployment {
  return {
    apiVersion: 'apps/v1',
    kind: 'Deployment',
    metadata: { name, namespace: 'default', labels: { app: name } },
    spec: {
      replicas,
      selector: { matchLabels: { app: name } },
      template: { metadata: { labels: { app: name } }, spec: { containers: [{ name: 'app', image, ...container }] } },
    },
  };
}

/** A minimal Pod body. */
export function pod(
  name: string,
  labels: Record<string, string> = { app: 'web' },
  nodeName?: string,
): Record<string, unknown> {
  return {
    apiVersion: 'v1',
    kind: 'Pod',
    metadata: { name, labels },
    spec: { containers: [{ name: 'c', image: 'nginx' }], ...(nodeName ? { nodeName } : {}) },
  };
}

/** A component (as kubectl) that records every event it receives, for watch tests. */
export const recorder: ComponentDef<{ events: unknown[] }> = {
  name: 'recorder',
  identity: () => 'kubectl',
  init: () => ({ events: [] }),
  handle(ev, ctx) {
    ctx.state.events.push(ev);
  },
};

/** The watch notifications a recording component got, as "ADDED name" lines. */
export const notes = (w: World, name: string): string[] =>
  (w.state.components[name].state as { events: WatchNotification[] }).events
    .filter((e) => e.type === 'watch')
    .map((e) => `${e.eventType} ${e.object.metadata!.name}`);

/** A request's answer: the object when it succeeded, the refusal's Status otherwise (what tests compare). */
export function objectOf(r: ApiResult<unknown>): unknown {
  return r.ok ? r.object : r.status;
}
