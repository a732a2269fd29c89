import { describe, expect, it } from 'vitest';
import { createCluster } from '../cluster.ts';
import { runKubectl } from '../kubectl/index.ts';
import { KUBECTL_CONNECTION_REFUSED } from '../api/status.ts';
import { clusterFigure } from './cluster-figure.ts';
import { compileFigure } from './compile.ts';
import type { FigureDef } from './demo.ts';
import { echoOf } from './echo.ts';
import { FigureHost } from './host.ts';
import { hubFigure } from './hub-figure.ts';
import { outageFigure } from './outage-figure.ts';

/** A host on a fresh cluster of the figure (no story), its nodes registered. */
function fresh(def: FigureDef): FigureHost {
  const story = compileFigure(def).story;
  const host = new FigureHost(def, { ...story, inputs: [], beats: [], end: 0 });
  host.handle({ op: 'advance', ms: 5_000 });
  return host;
}

describe('echoOf: what the demo bar echoes', () => {
  it('prints what kubectl prints for the same line, on success', () => {
    const c = createCluster({ seed: 1 });
    const viaKubectl = runKubectl(c, 'create deployment web --image=nginx:1.27 --replicas=3').stdout.trim();
    expect(viaKubectl).toBe('deployment.apps/web created');
    expect(
      echoOf({ type: 'apply', name: 'web', image: 'nginx:1.27', replicas: 3 }, [
        {
          t: 0,
          component: 'kubectl',
          kind: 'request',
          verb: 'POST',
          path: '/apis/apps/v1/namespaces/default/deployments',
          code: 201,
        },
      ]).output,
    ).toBe(viaKubectl);
    runKubectl(c, 'sim settle');
    expect(runKubectl(c, 'set image deployment/web nginx=nginx:1.28').stdout.trim()).toBe(
      echoOf({ type: 'set-image', name: 'web', image: 'nginx:1.28' }, [
        { t: 0, component: 'kubectl', kind: 'request', verb: 'PATCH', path: '', code: 200 },
      ]).output,
    );
    expect(runKubectl(c, 'scale deployment web --replicas=5').stdout.trim()).toBe(
      echoOf({ type: 'scale', name: 'web', replicas: 5 }, [
        { t: 0, component: 'kubectl', kind: 'request', verb: 'PATCH', path: '', code: 200 },
      ]).output,
    );
  });

  it('a sim line prints nothing', () => {
    expect(echoOf({ type: 'node', node: 'node-3', action: 'stop' }, [])).toEqual({
      command: 'sim node stop node-3',
      output: '',
      error: false,
    });
  });

  it("a refused connection prints kubectl's own message", () => {
    const r = echoOf({ type: 'get', resource: 'pods' }, [
      { t: 0, component: 'kubectl', kind: 'request', verb: 'GET', path: '/api/v1/namespaces/default/pods', code: 0 },
    ]);
    expect(r).toEqual({ command: 'kubectl get pods', output: KUBECTL_CONNECTION_REFUSED, error: true });
  });
});

describe("the demo bar's echo in the view", () => {
  it("after Apply: the line that ran and kubectl's answer, not the next action", () => {
    const host = fresh(clusterFigure);
    const v = host.handle({ op: 'demo', demo: 'apply' });
    expect(v.ran).toEqual([
      {
        command: 'kubectl create deployment web --image=nginx:1.27 --replicas=3',
        output: 'deployment.apps/web created',
        error: false,
      },
    ]);
    // Still echoed while the cluster moves on; gone after stepping back before it.
    expect(host.handle({ op: 'next' }).ran?.[0].output).toBe('deployment.apps/web created');
    host.handle({ op: 'seek', step: 0 });
    expect(host.handle({ op: 'view' }).ran).toBeUndefined();
  });

  it('a refused write is echoed with its error', () => {
    const host = fresh(hubFigure);
    const v = host.handle({ op: 'demo', demo: 'forbidden' });
    expect(v.ran?.[0].command).toBe('kubectl --as=jane create deployment web --image=nginx:1.27 --replicas=3');
    expect(v.ran?.[0].output).toMatch(/^Error from server \(Forbidden\): .*jane/);
    expect(v.ran?.[0].error).toBe(true);
  });

  it('kubectl get pods during an outage is echoed as connection refused; the outage itself prints nothing', () => {
    const host = fresh(outageFigure);
    const stop = host.handle({ op: 'demo', demo: 'control-plane' });
    expect(stop.ran).toEqual([{ command: 'sim control-plane stop', output: '', error: false }]);
    const get = host.handle({ op: 'demo', demo: 'get' });
    expect(get.ran).toEqual([{ command: 'kubectl get pods', output: KUBECTL_CONNECTION_REFUSED, error: true }]);
  });
});
