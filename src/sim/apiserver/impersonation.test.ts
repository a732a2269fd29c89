import { describe, expect, it } from 'vitest';
import { testWorld } from '../testing/world.ts';

describe('impersonation and SelfSubjectAccessReviews', () => {
  it('a caller without impersonate on users is refused; an allowed one acts as the user', () => {
    const w = testWorld();
    const as = { impersonate: { user: 'jane' } };
    expect(w.kubectl({ verb: 'list', resource: 'pods', namespace: 'default', options: as }, 'scheduler')).toMatchObject(
      {
        code: 403,
        status: {
          reason: 'Forbidden',
          message:
            'users "jane" is forbidden: User "system:kube-scheduler" cannot impersonate resource "users" in API group "" at the cluster scope',
        },
      },
    );
    expect(w.state.log.at(-1)).toMatchObject({ stage: 'authorization', code: 403 });
    expect(w.kubectl({ verb: 'list', resource: 'pods', namespace: 'default', options: as })).toMatchObject({
      code: 403,
      status: {
        message:
          'pods is forbidden: User "jane" cannot list resource "pods" in API group "" in the namespace "default"',
      },
    });
    expect(
      w.kubectl({
        verb: 'list',
        resource: 'pods',
        namespace: 'default',
        options: { impersonate: { user: 'jane', groups: ['system:masters'] } },
      }),
    ).toMatchObject({ ok: true });
  });

  it('a review answers from the RBAC tables, creates nothing and bumps no revision', () => {
    const w = testWorld();
    const rev = w.state.store.revision;
    const review = (spec: unknown, component = 'kubectl') =>
      w.kubectl({ verb: 'create', resource: 'selfsubjectaccessreviews', body: { spec } }, component) as any;
    expect(
      review(
        { resourceAttributes: { verb: 'create', resource: 'pods', subresource: 'binding', namespace: 'default' } },
        'scheduler',
      ).object.status,
    ).toEqual({ allowed: true });
    expect(review({ resourceAttributes: { verb: 'delete', resource: 'nodes' } }, 'scheduler').object.status).toEqual({
      allowed: false,
    });
    expect(review({ resourceAttributes: { verb: '*', resource: '*' } }).object.status).toEqual({ allowed: true });
    expect(review({ nonResourceAttributes: { verb: 'get', path: '/metrics' } }, 'scheduler').object.status).toEqual({
      allowed: false,
    });
    expect(review({ nonResourceAttributes: { verb: 'get', path: '/version' } }, 'scheduler').object.status).toEqual({
      allowed: true,
    });
    expect(w.state.store.revision).toBe(rev);
    expect(w.kubectl({ verb: 'get', resource: 'selfsubjectaccessreviews', name: 'x' })).toMatchObject({ code: 405 });
  });
});
