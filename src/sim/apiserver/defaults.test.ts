import { describe, expect, it } from 'vitest';
import { createRng } from '../rng.ts';
import { applyDefaults, defaultPodSpec, defaultZero } from './defaults.ts';
import type { ApiHost } from './server.ts';
import type { DeploymentSpec } from 'kubernetes-types/apps/v1';
import type { PodSpec, ServiceSpec } from 'kubernetes-types/core/v1';

// A host with just what the Service allocators read.
const host = (): ApiHost => ({ rng: createRng(1), apiServer: { allocatedIPs: {} } }) as unknown as ApiHost;

describe('defaults: Go zero values are defaulted as SetDefaults_* does', () => {
  it('fills absent, empty-string and zero value fields, and keeps set ones', () => {
    expect(defaultZero({ a: '', b: 0, c: 'x' }, { a: 'A', b: 2, c: 'C', d: 'D' })).toEqual({
      a: 'A',
      b: 2,
      c: 'x',
      d: 'D',
    });
  });

  it('an explicit empty restartPolicy, dnsPolicy and schedulerName get their defaults; a pointer field keeps 0', () => {
    const s = defaultPodSpec({
      restartPolicy: '',
      dnsPolicy: '',
      schedulerName: '',
      terminationGracePeriodSeconds: 0,
      containers: [
        {
          name: 'c',
          image: 'nginx',
          terminationMessagePolicy: '',
          ports: [{ containerPort: 80, protocol: '' }],
          readinessProbe: { periodSeconds: 0, httpGet: { port: 80 } },
        },
      ],
    }) as Partial<PodSpec>;
    expect(s).toMatchObject({
      restartPolicy: 'Always',
      dnsPolicy: 'ClusterFirst',
      schedulerName: 'default-scheduler',
      terminationGracePeriodSeconds: 0,
    });
    const c = s.containers![0];
    expect(c).toMatchObject({
      terminationMessagePolicy: 'File',
      terminationMessagePath: '/dev/termination-log',
      imagePullPolicy: 'Always',
    });
    expect(c.ports![0].protocol).toBe('TCP');
    expect(c.readinessProbe).toMatchObject({
      periodSeconds: 10,
      timeoutSeconds: 1,
      successThreshold: 1,
      failureThreshold: 3,
    });
  });

  it("a Deployment's empty strategy type is RollingUpdate; replicas: 0 stays 0", () => {
    const d = applyDefaults(
      'deployments',
      { spec: { replicas: 0, strategy: { type: '' }, template: { spec: { containers: [] } } } },
      host(),
    ) as { spec: DeploymentSpec };
    expect(d.spec.replicas).toBe(0);
    expect(d.spec.strategy).toEqual({
      type: 'RollingUpdate',
      rollingUpdate: { maxUnavailable: '25%', maxSurge: '25%' },
    });
  });

  it("a Service's empty type and sessionAffinity are defaulted; targetPort 0 or '' means the port", () => {
    const s = applyDefaults(
      'services',
      {
        spec: {
          type: '',
          sessionAffinity: '',
          ports: [
            { port: 80, targetPort: 0 },
            { port: 81, targetPort: '' },
            { port: 82, targetPort: 'http' },
          ],
        },
      },
      host(),
    ) as { spec: Required<ServiceSpec> };
    expect(s.spec).toMatchObject({ type: 'ClusterIP', sessionAffinity: 'None' });
    expect(s.spec.ports.map((p) => p.targetPort)).toEqual([80, 81, 'http']);
    expect(s.spec.clusterIP).toMatch(/^10\.(9[6-9]|10[0-9]|11[01])\./);
  });
});

describe('SetDefaults_Pod: requests default to limits', () => {
  it('a container with limits gets each missing request from them; a request it has stays; a template is left alone', () => {
    const pod = applyDefaults(
      'pods',
      {
        metadata: { name: 'p' },
        spec: {
          containers: [
            {
              name: 'c',
              image: 'nginx:1.27',
              resources: { limits: { cpu: '200m', memory: '256Mi' }, requests: { cpu: '100m' } },
            },
          ],
        },
      },
      host(),
    ) as { spec: PodSpec };
    expect(pod.spec.containers[0].resources).toEqual({
      limits: { cpu: '200m', memory: '256Mi' },
      requests: { cpu: '100m', memory: '256Mi' },
    });
    expect(
      (
        defaultPodSpec({
          containers: [{ name: 'c', image: 'x', resources: { limits: { cpu: '1' } } }],
        }) as Partial<PodSpec>
      ).containers![0].resources,
    ).toEqual({ limits: { cpu: '1' } });
  });
});
