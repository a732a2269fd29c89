import { describe, expect, it } from 'vitest';
import { appendRecord, byComponent, byNode, sinceRevision, sinceTime, type RequestLog } from './request-log.ts';
import { formatRecord } from './view/format-record.ts';

describe('request log', () => {
  const log: RequestLog = [];
  appendRecord(log, {
    t: 12_004,
    component: 'scheduler',
    kind: 'request',
    verb: 'POST',
    path: '/api/v1/namespaces/default/pods/web-7c5ddbdf54-x2k9p/binding',
    code: 201,
    revision: 48,
    node: 'node-2',
  });
  appendRecord(log, {
    t: 12_006,
    component: 'kubelet/node-2',
    kind: 'watch',
    verb: 'WATCH',
    path: '',
    object: 'pods/default/web-7c5ddbdf54-x2k9p',
    event: 'MODIFIED',
    watcher: 'w3',
    revision: 48,
    code: 200,
  });
  appendRecord(log, {
    t: 13_000,
    component: 'kubectl',
    kind: 'request',
    verb: 'DELETE',
    path: '/apis/apps/v1/namespaces/default/deployments/x',
    code: 404,
    stage: 'storage',
    message: undefined,
  });
  it('renders one line per record', () => {
    expect(formatRecord(log[0])).toBe(
      '12.004s  scheduler  POST /api/v1/namespaces/default/pods/web-7c5ddbdf54-x2k9p/binding  201  rv=48',
    );
    expect(formatRecord(log[1])).toBe(
      '12.006s  kubelet/node-2  watch MODIFIED pods/default/web-7c5ddbdf54-x2k9p  rv=48  (w3)',
    );
    expect(formatRecord(log[2])).toBe(
      '13.000s  kubectl  DELETE /apis/apps/v1/namespaces/default/deployments/x  404  [storage]',
    );
  });
  it('drops undefined fields', () => {
    expect('message' in log[2]).toBe(false);
  });
  it('filters', () => {
    expect(byComponent(log, 'kubectl')).toHaveLength(1);
    expect(sinceRevision(log, 47)).toHaveLength(2);
    expect(byNode(log, 'node-2')).toHaveLength(2);
    expect(sinceTime(log, 12_005)).toHaveLength(2);
  });
});
