import { describe, it, expect } from 'vitest';
import type { Pod } from 'kubernetes-types/core/v1';
import { admissionPluginNames } from '../apiserver/admission.ts';
import { newApiServerConfig } from '../apiserver/options.ts';
import { testWorld as bareWorld, pod } from '../testing/world.ts';
import { nodeLifecycleApiServer, registerNodeLifecycleAdmission } from '../apiserver/node-admission.ts';

/** A test world whose API server runs the plugin, as a cluster's does. */
const testWorld = () => bareWorld({}, [], nodeLifecycleApiServer);

const create = (w: ReturnType<typeof testWorld>, body: Record<string, unknown>) =>
  (w.kubectl({ verb: 'create', resource: 'pods', namespace: 'default', body }) as { ok: boolean; object: Pod }).object;

describe('DefaultTolerationSeconds admission', () => {
  it('is registered once, however often it is called', () => {
    const config = newApiServerConfig();
    registerNodeLifecycleAdmission(config);
    registerNodeLifecycleAdmission(config);
    expect(admissionPluginNames(config).filter((n) => n === 'DefaultTolerationSeconds')).toHaveLength(1);
  });

  it('adds the not-ready and unreachable tolerations with 300 s on create', () => {
    const p = create(testWorld(), pod('a'));
    expect(p.spec?.tolerations).toEqual([
      { key: 'node.kubernetes.io/not-ready', operator: 'Exists', effect: 'NoExecute', tolerationSeconds: 300 },
      { key: 'node.kubernetes.io/unreachable', operator: 'Exists', effect: 'NoExecute', tolerationSeconds: 300 },
    ]);
  });

  it('leaves a toleration the pod already has', () => {
    const body = pod('b') as { spec: Record<string, unknown> };
    body.spec.tolerations = [
      { key: 'node.kubernetes.io/unreachable', operator: 'Exists', effect: 'NoExecute', tolerationSeconds: 6000 },
    ];
    const p = create(testWorld(), body);
    expect(p.spec?.tolerations).toEqual([
      { key: 'node.kubernetes.io/unreachable', operator: 'Exists', effect: 'NoExecute', tolerationSeconds: 6000 },
      { key: 'node.kubernetes.io/not-ready', operator: 'Exists', effect: 'NoExecute', tolerationSeconds: 300 },
    ]);
    const all = pod('c') as { spec: Record<string, unknown> };
    all.spec.tolerations = [{ operator: 'Exists' }];
    expect(create(testWorld(), all).spec?.tolerations).toEqual([{ operator: 'Exists' }]);
  });

  it('does not run on subresources, and can be switched off per world', () => {
    const w = testWorld();
    const p = create(w, pod('d'));
    // A status write does not go through the plugin (the tolerations stay as stored either way).
    const r = w.kubectl({
      verb: 'update',
      resource: 'pods',
      namespace: 'default',
      name: 'd',
      subresource: 'status',
      body: { ...p, status: { ...p.status, phase: 'Running' } },
    });
    expect(r.ok).toBe(true);
    const off = testWorld();
    off.state.apiServer.disabledAdmission.push('DefaultTolerationSeconds');
    expect(create(off, pod('e')).spec?.tolerations).toBeUndefined();
  });

  it('runs on update too (a pod stored without them gets them on its next update)', () => {
    const w = testWorld();
    w.state.apiServer.disabledAdmission.push('DefaultTolerationSeconds');
    const p = create(w, pod('f'));
    w.state.apiServer.disabledAdmission.length = 0;
    const r = w.kubectl({ verb: 'update', resource: 'pods', namespace: 'default', name: 'f', body: p }) as {
      ok: boolean;
      object: Pod;
    };
    expect(r.ok).toBe(true);
    expect(r.object.spec?.tolerations?.map((t) => t.key)).toEqual([
      'node.kubernetes.io/not-ready',
      'node.kubernetes.io/unreachable',
    ]);
  });
});
