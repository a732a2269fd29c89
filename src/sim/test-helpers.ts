// Shared test fixtures (not exported from index.ts).
import type { ApiServerConfig } from './apiserver/config.ts';
import type { ComponentDef } from './world.ts';
import { World, type WorldOptions } from './world.ts';

/** A world (seed 1 unless given) with the system namespaces, and a bare API server unless given one. */
export function testWorld(opts: WorldOptions = {}, defs: ComponentDef<any>[] = [], apiConfig?: ApiServerConfig | ((world: World) => ApiServerConfig)): World { // eslint-disable-line @typescript-eslint/no-explicit-any
  return new World({ seed: 1, ...opts }, defs, apiConfig);
}

/** A minimal Deployment body. */
export function deployment(name: string, replicas = 3, extra: Record<string, unknown> = {}): Record<string, unknown> {
  return {
    apiVersion: 'apps/v1', kind: 'Deployment', metadata: { name },
    spec: {
      replicas, selector: { matchLabels: { app: name } },
      template: { metadata: { labels: { app: name } }, spec: { containers: [{ name, image: 'nginx:1.27' }] } },
      ...extra,
    },
  };
}

/** A minimal Pod body. */
export function pod(name: string, labels: Record<string, string> = { app: 'web' }, nodeName?: string): Record<string, unknown> {
  return { apiVersion: 'v1', kind: 'Pod', metadata: { name, labels }, spec: { containers: [{ name: 'c', image: 'nginx' }], ...(nodeName ? { nodeName } : {}) } };
}
