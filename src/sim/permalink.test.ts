import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { appHealth } from './app-health.ts';
import { createCluster } from './cluster.ts';
import { installKubectlExtras } from './kubectl-extras.ts';
import {
  decodeMoment,
  DRIFT_WARNING,
  encodeMoment,
  linkText,
  momentOf,
  permalinkOf,
  PERMALINK_LIMITS,
  restoreMoment,
  type Moment,
} from './permalink.ts';
import { Timeline } from './time-travel.ts';
import { runs } from '../test/fc.ts';

/** A Deployment of nginx pods as kubectl create would send it. */
function webDeployment(replicas: number): unknown {
  return {
    apiVersion: 'apps/v1',
    kind: 'Deployment',
    metadata: { name: 'web', namespace: 'default' },
    spec: {
      replicas,
      selector: { matchLabels: { app: 'web' } },
      template: { metadata: { labels: { app: 'web' } }, spec: { containers: [{ name: 'web', image: 'nginx:1.27' }] } },
    },
  };
}

/** A session with every kind of input: kubectl writes and reads, faults, injected events, processes. */
function session(seed = 21, kubeadm = false): Timeline {
  const tl = new Timeline(createCluster({ seed, nodes: 3, kubeadm }));
  tl.apply((c) => c.request({ verb: 'create', resource: 'deployments', namespace: 'default', body: webDeployment(3) }));
  tl.advance(8_000);
  tl.apply((c) =>
    c.request({ verb: 'list', resource: 'pods', namespace: 'default', options: { labelSelector: 'app=web' } }),
  );
  tl.apply((c) =>
    c.request({
      verb: 'patch',
      resource: 'deployments',
      namespace: 'default',
      name: 'web',
      body: { spec: { replicas: 4 } },
    }),
  );
  tl.advance(3_000);
  tl.apply((c) => {
    const pods = c.request({ verb: 'list', resource: 'pods', namespace: 'default' }) as {
      ok: true;
      object: { items: { metadata: { name: string } }[] };
    };
    c.crash('default', pods.object.items[0].metadata.name);
  });
  tl.advance(2_000);
  tl.apply((c) => c.node('node-3', 'partition'));
  tl.apply((c) => c.apiserverLatency(20));
  tl.apply((c) => c.image('nginx:1.28', 'missing'));
  tl.apply((c) => c.controlPlane('stop', 'scheduler'));
  tl.advance(5_000);
  tl.apply((c) => c.controlPlane('start', 'scheduler'));
  tl.apply((c) =>
    c.request({
      verb: 'delete',
      resource: 'pods',
      namespace: 'default',
      name: 'nope',
      options: { gracePeriodSeconds: 0 },
    }),
  );
  tl.advance(4_000);
  return tl;
}

function link(m: Moment): string {
  const r = encodeMoment(m);
  if (!r.ok) throw new Error(r.error);
  return r.link;
}

/** The timeline's current moment through a link and back: the restored cluster, checked to hash the same. */
function roundTrip(tl: Timeline): Extract<ReturnType<typeof restoreMoment>, { ok: true }> {
  const r = restoreMoment((decodeMoment(link(momentOf(tl))) as { moment: Moment }).moment);
  if (!r.ok) throw new Error(r.error);
  expect(r.cluster.world.hash()).toBe(tl.cluster.world.hash());
  return r;
}

describe('permalink', () => {
  it('round trips: encode → decode → restore stands at the same state, and re-encodes to the same string', () => {
    const tl = session();
    const hashes: string[] = [];
    for (let i = 0; i < tl.length; i++) {
      tl.seek(i);
      hashes.push(tl.cluster.world.hash());
    }
    for (const step of [0, 5, Math.floor(tl.length / 2), tl.length - 1]) {
      tl.seek(step);
      const enc = permalinkOf(tl, 'self-healing');
      expect(enc.ok).toBe(true);
      const s = (enc as { link: string }).link;
      expect(s).toMatch(/^[ab][A-Za-z0-9_-]+$/);
      const dec = decodeMoment(s);
      expect(dec.ok).toBe(true);
      const m = (dec as { moment: Moment }).moment;
      expect(m).toEqual(momentOf(tl, 'self-healing'));
      const r = restoreMoment(m);
      if (!r.ok) throw new Error(r.error);
      expect(r.timeline.at().step).toBe(step);
      expect(r.cluster.world.hash()).toBe(hashes[step]);
      expect(link(momentOf(r.timeline, 'self-healing'))).toBe(s);
      // the restored timeline carries the future: stepping to the end reaches the original end
      r.timeline.seek(tl.length - 1);
      expect(r.cluster.world.hash()).toBe(hashes[tl.length - 1]);
    }
  });

  it('round trips a kubeadm cluster', () => {
    const tl = new Timeline(createCluster({ seed: 8, kubeadm: true, nodes: 2 }));
    tl.apply((c) =>
      c.request({ verb: 'create', resource: 'deployments', namespace: 'default', body: webDeployment(2) }),
    );
    tl.advance(6_000);
    tl.apply((c) => c.node('control-plane', 'stop'));
    tl.advance(1_000);
    tl.seek(7);
    const s = link(momentOf(tl));
    const r = restoreMoment((decodeMoment(s) as { moment: Moment }).moment);
    if (!r.ok) throw new Error(r.error);
    expect(r.cluster.world.hash()).toBe(tl.cluster.world.hash());
    expect(link(momentOf(r.timeline))).toBe(s);
  });

  it('round trips a controller-manager restart (its controllers share the process’s watches again)', () => {
    const tl = new Timeline(createCluster({ seed: 5, nodes: 2 }));
    tl.apply((c) =>
      c.request({ verb: 'create', resource: 'deployments', namespace: 'default', body: webDeployment(2) }),
    );
    tl.advance(4_000);
    tl.apply((c) => c.controlPlane('stop', 'controller-manager'));
    tl.apply((c) =>
      c.request({
        verb: 'patch',
        resource: 'deployments',
        namespace: 'default',
        name: 'web',
        body: { spec: { replicas: 3 } },
      }),
    );
    tl.advance(3_000);
    tl.apply((c) => c.controlPlane('start', 'controller-manager'));
    // It leads, and starts its controllers, once the old process's Lease has gone 15 s unrenewed.
    tl.advance(26_000);
    tl.seek(tl.length - 1); // a moment is a step: the last one, not the clock's idle time after it
    const s = link(momentOf(tl));
    const r = restoreMoment((decodeMoment(s) as { moment: Moment }).moment);
    if (!r.ok) throw new Error(r.error);
    expect(r.cluster.world.hash()).toBe(tl.cluster.world.hash());
    expect(r.cluster.world.state.components['replicaset-controller']).toMatchObject({
      process: 'kube-controller-manager',
    });
    expect(link(momentOf(r.timeline))).toBe(s);
  });

  it('round trips a JSON patch (its body a list of operations); a list body of another patch type is refused', () => {
    // The test plays kubectl, so kubectl's part of the API server is installed as kubectl would.
    const c = createCluster({ seed: 6, nodes: 2 });
    installKubectlExtras(c);
    const tl = new Timeline(c);
    tl.apply((c) =>
      c.request({ verb: 'create', resource: 'deployments', namespace: 'default', body: webDeployment(1) }),
    );
    tl.advance(2_000);
    tl.apply((c) =>
      c.request({
        verb: 'patch',
        resource: 'deployments',
        namespace: 'default',
        name: 'web',
        body: [{ op: 'replace', path: '/spec/replicas', value: 2 }],
        options: { patchType: 'json' },
      }),
    );
    tl.advance(8_000);
    tl.seek(tl.length - 1);
    const r = roundTrip(tl);
    expect(Object.keys(r.cluster.world.state.store.objects.pods ?? {})).toHaveLength(2);
    const m = momentOf(tl);
    const bad = JSON.parse(JSON.stringify(m).replace('"json"', '"merge"'));
    expect(encodeMoment(bad)).toMatchObject({ ok: false });
  });

  it("round trips a PodDisruptionBudget, its controller's status and an eviction it refuses then grants", () => {
    // The test plays kubectl, so kubectl's part of the API server (the budgets' check, the disruption controller) is installed.
    const c = createCluster({ seed: 6, nodes: 2 });
    installKubectlExtras(c);
    const tl = new Timeline(c);
    tl.apply((c) =>
      c.request({ verb: 'create', resource: 'deployments', namespace: 'default', body: webDeployment(2) }),
    );
    tl.advance(10_000);
    tl.apply((c) =>
      c.request({
        verb: 'create',
        resource: 'poddisruptionbudgets',
        namespace: 'default',
        body: {
          apiVersion: 'policy/v1',
          kind: 'PodDisruptionBudget',
          metadata: { name: 'web' },
          spec: { minAvailable: 2, selector: { matchLabels: { app: 'web' } } },
        },
      }),
    );
    tl.advance(2_000);
    const pod = Object.values(c.world.state.store.objects.pods ?? {})
      .map((o) => (o as { metadata: { name: string } }).metadata.name)
      .find((n) => n.startsWith('web-'))!;
    const evict = () =>
      tl.apply((c) =>
        c.request({
          verb: 'create',
          resource: 'pods',
          namespace: 'default',
          name: pod,
          subresource: 'eviction',
          body: { apiVersion: 'policy/v1', kind: 'Eviction', metadata: { name: pod, namespace: 'default' } },
        }),
      );
    evict();
    tl.apply((c) =>
      c.request({
        verb: 'patch',
        resource: 'poddisruptionbudgets',
        namespace: 'default',
        name: 'web',
        body: { spec: { minAvailable: 1 } },
        options: { patchType: 'merge' },
      }),
    );
    tl.advance(2_000);
    evict();
    tl.advance(5_000);
    tl.seek(tl.length - 1);
    const r = roundTrip(tl);
    expect(r.cluster.world.hash()).toBe(tl.cluster.world.hash());
    expect(r.cluster.world.state.components['disruption-controller']).toMatchObject({
      process: 'kube-controller-manager',
    });
  });

  it('round trips an access review made as another user (--as, --as-group)', () => {
    // The test plays kubectl, so kubectl's part of the API server is installed as kubectl would.
    const c = createCluster({ seed: 6, nodes: 2 });
    installKubectlExtras(c);
    const tl = new Timeline(c);
    tl.apply((c) =>
      c.request({
        verb: 'create',
        resource: 'selfsubjectaccessreviews',
        body: { spec: { resourceAttributes: { verb: 'list', resource: 'pods', namespace: 'default' } } },
        options: { impersonate: { user: 'system:node:node-1', groups: ['system:nodes'] } },
      }),
    );
    tl.advance(1_000);
    tl.seek(tl.length - 1);
    const r = roundTrip(tl);
    expect(
      r.cluster.world.state.log.some((e) => e.path === '/apis/authorization.k8s.io/v1/selfsubjectaccessreviews'),
    ).toBe(true);
  });

  it('round trips a streaming-list WATCH and a followed log (the options real kubectl 1.37 sends)', () => {
    const c = createCluster({ seed: 6, nodes: 2 });
    installKubectlExtras(c);
    const tl = new Timeline(c);
    tl.apply((c) =>
      c.request({ verb: 'create', resource: 'deployments', namespace: 'default', body: webDeployment(1) }),
    );
    tl.advance(8_000);
    tl.apply((c) =>
      c.request({
        verb: 'watch',
        resource: 'deployments',
        namespace: 'default',
        options: {
          fieldSelector: 'metadata.name=web',
          sendInitialEvents: true,
          resourceVersionMatch: 'NotOlderThan',
          allowWatchBookmarks: true,
          timeoutSeconds: 412,
        },
      }),
    );
    const pod = Object.values(tl.cluster.world.state.store.objects.pods ?? {})[0] as { metadata: { name: string } };
    tl.apply((c) =>
      c.request({
        verb: 'get',
        resource: 'pods',
        namespace: 'default',
        name: pod.metadata.name,
        subresource: 'log',
        options: { follow: true },
      }),
    );
    tl.advance(1_000);
    tl.seek(tl.length - 1);
    const r = roundTrip(tl);
    expect(
      r.cluster.world.state.log.some((e) => e.path?.includes('sendInitialEvents=true&timeoutSeconds=412&watch=true')),
    ).toBe(true);
    const bad = JSON.parse(JSON.stringify(momentOf(tl)).replace('"NotOlderThan"', '"Sometime"'));
    expect(encodeMoment(bad)).toMatchObject({ ok: false });
    // kubectl's reflector asks for 5 to 10 minutes; a link asking more than an hour is refused.
    const long = JSON.parse(JSON.stringify(momentOf(tl)).replace('"timeoutSeconds":412', '"timeoutSeconds":99999'));
    expect(encodeMoment(long)).toMatchObject({ ok: false });
  });

  it('round trips a PriorityClass and a pod that uses it', () => {
    // Only kubectl writes a PriorityClass: its part (the class's validation) comes with it.
    const c = createCluster({ seed: 6, nodes: 2 });
    installKubectlExtras(c);
    const tl = new Timeline(c);
    tl.apply((c) =>
      c.request({
        verb: 'create',
        resource: 'priorityclasses',
        body: { apiVersion: 'scheduling.k8s.io/v1', kind: 'PriorityClass', metadata: { name: 'high' }, value: 1000 },
      }),
    );
    tl.apply((c) =>
      c.request({
        verb: 'create',
        resource: 'pods',
        namespace: 'default',
        body: {
          apiVersion: 'v1',
          kind: 'Pod',
          metadata: { name: 'p' },
          spec: { priorityClassName: 'high', containers: [{ name: 'c', image: 'nginx' }] },
        },
      }),
    );
    tl.advance(1_000);
    tl.seek(tl.length - 1);
    const r = roundTrip(tl);
    const pods = Object.values(r.cluster.world.state.store.objects.pods ?? {}) as { spec?: { priority?: number } }[];
    expect(pods.map((p) => p.spec?.priority)).toEqual([1000]);
  });

  it('round trips a crash with the app’s last words and a kubectl logs request', () => {
    const c = createCluster({ seed: 6, nodes: 2 });
    installKubectlExtras(c);
    const tl = new Timeline(c);
    tl.apply((c) =>
      c.request({ verb: 'create', resource: 'deployments', namespace: 'default', body: webDeployment(1) }),
    );
    tl.advance(8_000);
    const pod = () =>
      Object.keys(tl.cluster.world.state.store.objects.pods ?? {})[0]
        .split('/')
        .pop()!;
    tl.apply((c) => c.crash('default', pod(), { log: 'panic: out of cheese' }));
    tl.advance(3_000);
    tl.apply((c) =>
      c.request({
        verb: 'get',
        resource: 'pods',
        namespace: 'default',
        name: pod(),
        subresource: 'log',
        options: { container: 'web', previous: true },
      }),
    );
    tl.advance(1_000);
    tl.seek(tl.length - 1);
    const r = roundTrip(tl);
    const last = r.cluster.world.state.inputs.filter((i) => i.kind === 'event').at(-1) as { event: { log?: string } };
    expect(last.event.log).toBe('panic: out of cheese');
  });

  it('round trips an app that crash-loops with its last words, one that leaks, and one made healthy again (sim app)', () => {
    const tl = new Timeline(createCluster({ seed: 6, nodes: 2 }));
    tl.apply((c) =>
      c.request({ verb: 'create', resource: 'deployments', namespace: 'default', body: webDeployment(2) }),
    );
    tl.advance(8_000);
    const pods = () =>
      Object.keys(tl.cluster.world.state.store.objects.pods ?? {})
        .map((k) => k.split('/').pop()!)
        .sort();
    tl.apply((c) => c.app('default', pods()[0], appHealth('crashes', 'nginx: [emerg] unknown directive "sever"')));
    tl.apply((c) => c.app('default', pods()[1], appHealth('leaks')));
    tl.advance(20_000);
    tl.apply((c) => c.app('default', pods()[0], appHealth('healthy')));
    tl.advance(5_000);
    tl.seek(tl.length - 1);
    const r = roundTrip(tl);
    const health = r.cluster.world.state.inputs
      .filter((i) => i.kind === 'event')
      .map((i) => (i as { event: { health?: unknown } }).event.health);
    expect(health).toEqual([
      { exits: { afterMs: 1000, exitCode: 1, log: 'nginx: [emerg] unknown directive "sever"' }, readiness: true },
      { exits: { afterMs: 5000, exitCode: 137, oom: true }, readiness: true },
      { exits: null, readiness: true },
    ]);
  });

  it('refuses an app exit that is not one', () => {
    const tl = new Timeline(createCluster({ seed: 6, nodes: 2 }));
    tl.apply((c) =>
      c.request({ verb: 'create', resource: 'deployments', namespace: 'default', body: webDeployment(1) }),
    );
    tl.advance(8_000);
    const pod = Object.keys(tl.cluster.world.state.store.objects.pods ?? {})[0]
      .split('/')
      .pop()!;
    tl.apply((c) => c.app('default', pod, appHealth('crashes')));
    tl.seek(tl.length - 1);
    const text = linkText(link(momentOf(tl)))!;
    expect(text).toContain('"afterMs":1000');
    const enc = (t: string) => 'a' + Buffer.from(t).toString('base64url');
    expect(decodeMoment(enc(text)).ok).toBe(true);
    for (const [from, to] of [
      ['"afterMs":1000', '"afterMs":-1'],
      ['"exitCode":1', '"exitCode":300'],
      ['"afterMs":1000', '"after":1000'],
      ['"exits":{', '"exits":7,"x":{'],
    ]) {
      const r = decodeMoment(enc(text.replace(from, to)));
      expect(r.ok, `${from} → ${to}`).toBe(false);
    }
  });

  it("carries the world's hash at its step, so a replay that plays out differently says so", () => {
    const tl = session();
    tl.seek(tl.length - 3);
    const m = momentOf(tl);
    expect(m.check).toMatch(/^[0-9a-f]{8}$/);
    const back = (decodeMoment(link(m)) as { moment: Moment }).moment;
    expect(back.check).toBe(m.check);
    const same = restoreMoment(back);
    expect(same.ok && same.warning).toBe(undefined);
    // What a later, different simulation would produce from the same inputs: another world at the step.
    const drifted = restoreMoment({ ...back, check: back.check === '00000000' ? '00000001' : '00000000' });
    expect(drifted.ok && drifted.warning).toBe(DRIFT_WARNING);
    // A link without a check (made before there were checks) restores without one.
    const { check: _c, ...old } = back;
    const plain = restoreMoment(old);
    expect(plain.ok && plain.warning).toBe(undefined);
    expect(encodeMoment({ ...back, check: 'not-hex!' })).toEqual({
      ok: false,
      error: 'this moment cannot be shared as a link: the check "not-hex!" is not a valid value',
    });
  });

  it('is deterministic: the same session gives the same link, and restoring twice gives the same state', () => {
    const a = permalinkOf(session(), 'x');
    const b = permalinkOf(session(), 'x');
    expect(a).toEqual(b);
    const m = (decodeMoment((a as { link: string }).link) as { moment: Moment }).moment;
    const r1 = restoreMoment(m);
    const r2 = restoreMoment(m);
    expect(r1.ok && r2.ok && r1.cluster.world.hash() === r2.cluster.world.hash()).toBe(true);
  });

  it('is short for a typical session: packed when that is shorter, and the packing round trips', () => {
    const s = (permalinkOf(session()) as { link: string }).link;
    expect(s[0]).toBe('b');
    const text = linkText(s)!;
    expect(s.length).toBeLessThan(Math.ceil((text.length * 4) / 3));
    expect(s.length).toBeLessThan(1500);
    expect(JSON.parse(text)[0]).toBe(1);
  });

  it('rejects malformed, truncated, hostile and oversized links with a message', () => {
    const good = (permalinkOf(session()) as { link: string }).link;
    const enc = (wire: unknown) => 'a' + Buffer.from(JSON.stringify(wire)).toString('base64url');
    const base = [1, 1, 3, 0, 0, ''];
    const cases: [unknown, RegExp][] = [
      [undefined, /not text/],
      [42, /not text/],
      ['', /empty/],
      ['z' + good.slice(1), /unknown format/],
      [good.slice(0, good.length - 7), /damaged|cut short|do not belong/],
      [good + '!', /do not belong/],
      ['a' + 'A'.repeat(PERMALINK_LIMITS.maxChars), /too long/],
      [enc({ v: 1 }), /not a moment/],
      [enc([2, 1, 3, 0, 0, '', []]), /newer version/],
      [enc([1, -1, 3, 0, 0, '', []]), /seed/],
      [enc([1, 1, 999, 0, 0, '', []]), /number of nodes/],
      [enc([1, 1, 3, 0, 1e9, '', []]), /step/],
      [enc([1, 1, 3, 0, 0, '../../etc', []]), /scenario/],
      [enc([...base, Array.from({ length: 501 }, () => [1, 0, 0, 0])]), /too many inputs/],
      [enc([...base, [[0, 0, 0, 9, 4]]]), /verb/],
      [enc([...base, [[0, 0, 0, 2, 42, 'default', '', '', {}]]]), /resource/],
      [enc([...base, [[0, 0, 0, 2, 4, 'default']]]), /needs a body/],
      [enc([...base, [[0, 0, 0, 2, 4, 'default', '', '', { spec: { replicas: 1e9 } }]]]), /replicas/],
      [enc([...base, [[0, 0, 0, 2, 4, 'default', '', '', JSON.parse('{"__proto__":{"x":1}}')]]]), /forbidden field/],
      [enc([...base, [[0, 0, 0, 2, 4, 'default', '', 'exec', {}]]]), /subresource/],
      [enc([...base, [[0, 0, 0, 1, 3, 'Default']]]), /namespace/],
      [enc([...base, [[0, 0, 0, 1, 3, 'default', '', '', 0, { evil: 1 }]]]), /unknown option/],
      [enc([...base, [[1, 0, 0, 99]]]), /fault type/],
      [enc([...base, [[1, 0, 0, 6, 1e7]]]), /latency/],
      [enc([...base, [[1, 0, 0, 7, 'kubelet/node-9']]]), /no node "node-9"/],
      [enc([...base, [[2, 0, 0, 'node-1', 4]]]), /needs the pod/],
      [enc([...base, [[2, 0, 0, 'node-1', 0, { pod: 'x' }]]]), /takes no details/],
      [enc([...base, [[3, 0, 0, 12]]]), /component/],
      [enc([...base, [[1, -5, 0, 0]]]), /time/],
      [enc([...base, [[1, 1.5, 0, 0]]]), /whole number/],
      [
        enc([
          ...base,
          [
            [1, PERMALINK_LIMITS.maxT, 0, 0],
            [1, 1, 0, 0],
          ],
        ]),
        /later than/,
      ],
      [
        enc([...base, [[0, 0, 0, 2, 4, 'default', '', '', JSON.parse('['.repeat(40) + ']'.repeat(40))]]]),
        /must be an object/,
      ],
      [
        enc([...base, [[0, 0, 0, 2, 4, 'default', '', '', { a: JSON.parse('['.repeat(40) + ']'.repeat(40)) }]]]),
        /nested too deeply/,
      ],
      ['a' + Buffer.from([0xc0, 0x80]).toString('base64url'), /not valid text/],
      ['a' + '['.repeat(12000), /do not belong|damaged/],
      // packed: a back-reference before the start, a length running off the end, a bomb
      ['b' + Buffer.from([0, 0x5b, 200, 5]).toString('base64url'), /packed data/],
      ['b' + Buffer.from([10, 0x5b]).toString('base64url'), /packed data/],
      [
        'b' +
          Buffer.from([0, 0x5b, ...Array.from({ length: 1200 }, (_, i) => (i % 2 ? 1 : 255))]).toString('base64url'),
        /packed data/,
      ],
    ];
    for (const [input, re] of cases) {
      const r = decodeMoment(input);
      expect(r.ok, String(input).slice(0, 80)).toBe(false);
      if (!r.ok) {
        expect(r.error).toMatch(/^This link does not describe a simulation: /);
        expect(r.error).toMatch(re);
      }
    }
  });

  it('restoreMoment reports moments it cannot place instead of throwing', () => {
    const m = (decodeMoment((permalinkOf(session()) as { link: string }).link) as { moment: Moment }).moment;
    const past = restoreMoment({ ...m, step: PERMALINK_LIMITS.maxStep }, { maxEvents: 3000 });
    expect(past.ok).toBe(false);
    if (!past.ok) expect(past.error).toMatch(/run ends at step/);
    // an input whose recorded step is far beyond where the run can place it
    // (a fresh cluster runs a few events at t = 0, such as the pod garbage collector's first pass; not 40)
    const far: Moment = { ...m, step: 41, inputs: [{ ...m.inputs[0], step: 40, t: 0 }] };
    const r = restoreMoment(far, { maxEvents: 3000 });
    expect(r.ok).toBe(false);
  });

  it('fuzz: arbitrary strings never throw and are refused with a message', () => {
    fc.assert(
      fc.property(
        fc.oneof(
          fc.string(),
          fc.string({ unit: fc.constantFrom(...'aAbB09-_xyz'.split('')) }),
          fc.string({ unit: 'binary' }),
        ),
        (s) => {
          const r = decodeMoment(s);
          if (r.ok) return encodeMoment(r.moment).ok; // only possible for valid content
          return typeof r.error === 'string' && r.error.length > 20;
        },
      ),
      { numRuns: runs(1) },
    );
  });

  it('fuzz: mutated valid links never throw; ok only for content that re-encodes and validates', () => {
    const good = (permalinkOf(session()) as { link: string }).link;
    const alphabet = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_';
    const mutation = fc.oneof(
      fc.record({ op: fc.constant('set'), at: fc.nat(), ch: fc.constantFrom(...alphabet.split('')) }),
      fc.record({ op: fc.constant('cut'), at: fc.nat(), ch: fc.constant('') }),
      fc.record({ op: fc.constant('insert'), at: fc.nat(), ch: fc.constantFrom(...alphabet.split('')) }),
      fc.record({ op: fc.constant('delete'), at: fc.nat(), ch: fc.constant('') }),
    );
    fc.assert(
      fc.property(fc.array(mutation, { minLength: 1, maxLength: 4 }), (ms) => {
        let s = good;
        for (const m of ms) {
          const i = m.at % (s.length + 1);
          if (m.op === 'set') s = s.slice(0, i) + m.ch + s.slice(i + 1);
          else if (m.op === 'cut') s = s.slice(0, i);
          else if (m.op === 'insert') s = s.slice(0, i) + m.ch + s.slice(i);
          else s = s.slice(0, i) + s.slice(i + 1);
        }
        const r = decodeMoment(s);
        if (!r.ok) return r.error.length > 20;
        const again = encodeMoment(r.moment);
        return again.ok && decodeMoment(again.link).ok;
      }),
      { numRuns: runs(1) },
    );
  });

  it('fuzz: mutated moments (numbers, codes, fields) decode to ok only when valid', () => {
    const m = momentOf(session());
    const good = JSON.parse(linkText(link(m))!) as unknown[];
    const values = fc.oneof(
      fc.integer(),
      fc.double(),
      fc.string(),
      fc.constant(null),
      fc.constant({}),
      fc.constant([]),
      fc.boolean(),
      fc.constant(-1),
      fc.constant(1e15),
    );
    fc.assert(
      fc.property(fc.nat(), fc.nat(), values, (a, b, v) => {
        const w = structuredClone(good);
        const inputs = w[6] as unknown[][];
        if (a % 3 === 0) w[a % 6] = v;
        else {
          const inp = inputs[b % inputs.length];
          inp[a % (inp.length + 1)] = v;
        }
        const s = 'a' + Buffer.from(JSON.stringify(w)).toString('base64url');
        const r = decodeMoment(s);
        if (!r.ok) return r.error.length > 20;
        return encodeMoment(r.moment).ok;
      }),
      { numRuns: runs(1) },
    );
  });
});

describe('a moment past its last step', () => {
  it('carries how far the clock ran on, and restores there to the same bytes', () => {
    const c = createCluster({ seed: 2 });
    // Only kubectl makes a namespace (and a link's replay installs its part, whose controllers answer one).
    installKubectlExtras(c);
    const tl = new Timeline(c);
    tl.apply((x) =>
      x.request({
        verb: 'create',
        resource: 'namespaces',
        body: { apiVersion: 'v1', kind: 'Namespace', metadata: { name: 'demo' } },
      }),
    );
    tl.advance(45_000);
    const m = momentOf(tl);
    expect(m.beyond).toEqual({ events: tl.at().events, t: c.now });
    const link = encodeMoment(m);
    expect(link.ok).toBe(true);
    const d = decodeMoment(link.ok ? link.link : '');
    expect(d.ok && d.moment.beyond).toEqual(m.beyond);
    const r = d.ok ? restoreMoment(d.moment) : null;
    expect(r?.ok && !r.warning && r.cluster.world.hash()).toBe(c.world.hash());
    expect(r?.ok && r.cluster.now).toBe(c.now);
    // Further than the run goes silently (a log record on the way), or back in time: refused in words.
    for (const beyond of [
      { events: m.beyond!.events + 5000, t: m.beyond!.t + 600_000 },
      { events: m.beyond!.events, t: 0 },
    ]) {
      const bad = restoreMoment({ ...m, beyond });
      expect(bad.ok).toBe(false);
    }
    expect(encodeMoment({ ...m, beyond: { events: -1, t: 0 } })).toMatchObject({ ok: false });
    expect(encodeMoment({ ...m, beyond: { events: 1.5, t: 0 } })).toMatchObject({ ok: false });
  });
});
