// kubectl auth can-i and --as: SelfSubjectAccessReviews answered from the API server's RBAC tables.
import { describe, expect, test } from 'vitest';
import { createCluster } from '../../cluster.ts';
import { runKubectl } from '../kubectl.ts';

const yes = { stdout: 'yes\n', stderr: '', exitCode: 0 };
const no = { stdout: 'no\n', stderr: '', exitCode: 1 };

describe('kubectl auth can-i', () => {
  test("kubectl is cluster-admin: yes to anything, with cani.go's warnings on stderr", () => {
    const c = createCluster({ seed: 3 });
    expect(runKubectl(c, 'auth can-i get pods')).toEqual(yes);
    expect(runKubectl(c, 'auth can-i delete deployments.apps/web -n kube-system')).toEqual(yes);
    expect(runKubectl(c, "auth can-i '*' '*'")).toEqual(yes);
    expect(runKubectl(c, 'auth can-i get nodes')).toEqual({
      stdout: 'yes\n',
      stderr: "Warning: resource 'nodes' is not namespace scoped\n",
      exitCode: 0,
    });
    expect(runKubectl(c, 'auth can-i list leases.coordination.k8s.io -A')).toEqual(yes);
    expect(runKubectl(c, 'auth can-i get no --all-namespaces')).toEqual(yes);
    expect(runKubectl(c, 'auth can-i get foos')).toEqual({
      stdout: 'yes\n',
      stderr: "Warning: the server doesn't have a resource type 'foos'\n",
      exitCode: 0,
    });
    expect(runKubectl(c, 'auth can-i get foos.example.com')).toEqual({
      stdout: 'yes\n',
      stderr: "Warning: the server doesn't have a resource type 'foos' in group 'example.com'\n",
      exitCode: 0,
    });
    expect(runKubectl(c, 'auth can-i frob pods')).toEqual({
      stdout: 'yes\n',
      stderr: "Warning: verb 'frob' is not a known verb\n",
      exitCode: 0,
    });
    expect(runKubectl(c, 'auth can-i frob nodes')).toEqual({
      stdout: 'yes\n',
      stderr: "Warning: resource 'nodes' is not namespace scoped\nWarning: verb 'frob' is not a known verb\n",
      exitCode: 0,
    });
    expect(runKubectl(c, 'auth can-i get /logs')).toEqual(yes);
    // The review is a request of its own, answered without etcd.
    expect(c.world.state.log.at(-1)).toMatchObject({
      component: 'kubectl',
      kind: 'request',
      verb: 'POST',
      path: '/apis/authorization.k8s.io/v1/selfsubjectaccessreviews',
      code: 201,
    });
  });

  test('--as: the user alone (plus system:authenticated), not the groups it would have', () => {
    const c = createCluster({ seed: 3 });
    expect(runKubectl(c, 'auth can-i list replicasets --as system:kube-scheduler')).toEqual(yes);
    expect(runKubectl(c, 'auth can-i list deployments --as system:kube-scheduler')).toEqual(no);
    expect(runKubectl(c, 'auth can-i create pods --subresource binding --as=system:kube-scheduler')).toEqual(yes);
    expect(runKubectl(c, 'auth can-i create pods --as system:kube-scheduler')).toEqual(no);
    expect(
      runKubectl(
        c,
        'auth can-i update deployments --subresource status --as system:serviceaccount:kube-system:deployment-controller',
      ),
    ).toEqual(yes);
    expect(runKubectl(c, 'kubectl --as jane auth can-i get pods')).toEqual(no);
    expect(runKubectl(c, 'auth can-i create selfsubjectaccessreviews --as jane').stdout).toBe('yes\n');
    expect(runKubectl(c, 'auth can-i get pods --as jane -q')).toEqual({ stdout: '', stderr: '', exitCode: 1 });
    // kubeadm's admin is cluster-admin through its group, which impersonation does not carry.
    expect(runKubectl(c, 'auth can-i get pods --as kubernetes-admin')).toEqual(no);
    expect(runKubectl(c, 'auth can-i get pods --as kubernetes-admin --as-group kubeadm:cluster-admins')).toEqual(yes);
    expect(runKubectl(c, 'auth can-i get pods --as jane --as-group system:masters')).toEqual(yes);
    // A kubelet's user is a node only in the group system:nodes.
    expect(runKubectl(c, 'auth can-i list pods --as system:node:node-1')).toEqual(no);
    expect(runKubectl(c, 'auth can-i list pods --as system:node:node-1 --as-group system:nodes')).toEqual(yes);
    // Discovery and health URLs are open to every authenticated user, for GET.
    expect(runKubectl(c, 'auth can-i get /healthz --as jane')).toEqual(yes);
    expect(runKubectl(c, 'auth can-i get /apis/apps --as jane')).toEqual(yes);
    expect(runKubectl(c, 'auth can-i post /healthz --as jane')).toEqual(no);
    expect(runKubectl(c, 'auth can-i get /logs --as jane')).toEqual(no);
  });

  test('--as on other commands: the requests are authorised as that user', () => {
    const c = createCluster({ seed: 3 });
    expect(runKubectl(c, 'get pods --as jane')).toEqual({
      stdout: '',
      stderr:
        'Error from server (Forbidden): pods is forbidden: User "jane" cannot list resource "pods" in API group "" in the namespace "default"\n',
      exitCode: 1,
    });
    expect(runKubectl(c, 'get nodes --as system:kube-scheduler').exitCode).toBe(0);
    expect(runKubectl(c, 'create deployment web --image=nginx --as system:kube-scheduler').stderr).toContain(
      'deployments.apps is forbidden: User "system:kube-scheduler" cannot create resource "deployments" in API group "apps" in the namespace "default"',
    );
  });

  test('bad input: a clear message, never a throw', () => {
    const c = createCluster({ seed: 3 });
    const two =
      "error: you must specify two arguments: verb resource or verb resource/resourceName.\nSee 'kubectl auth can-i -h' for help and examples.\n";
    expect(runKubectl(c, 'auth can-i get')).toEqual({ stdout: '', stderr: two, exitCode: 1 });
    expect(runKubectl(c, 'auth can-i get pods extra')).toEqual({ stdout: '', stderr: two, exitCode: 1 });
    expect(runKubectl(c, 'auth can-i get /healthz --subresource log').stderr).toBe(
      'error: --subresource can not be used with NonResourceURL\n',
    );
    expect(runKubectl(c, 'auth can-i get pods --no-headers').stderr).toBe(
      'error: --no-headers cannot be set without --list specified\n',
    );
    expect(runKubectl(c, 'auth can-i --list pods').stderr).toBe(
      'error: list option must be specified with no arguments\n',
    );
    expect(runKubectl(c, 'auth can-i get pods --bogus').stderr).toBe(
      "error: unknown flag: --bogus\nSee 'kubectl auth can-i --help' for usage.\n",
    );
    expect(runKubectl(c, 'auth whoami').stderr).toMatch(
      /^error: kubectl auth whoami is a real command that this simulator does not run/,
    );
    expect(runKubectl(c, 'auth foo').stderr).toBe(
      'error: unknown command "foo"\nSee \'kubectl auth -h\' for help and examples\n',
    );
    expect(runKubectl(c, 'auth').stdout).toMatch(/^Inspect authorization\./);
    c.world.fault({ type: 'etcd-down' });
    expect(runKubectl(c, 'auth can-i get pods')).toEqual(yes);
    c.world.fault({ type: 'apiserver-down' });
    expect(runKubectl(c, 'auth can-i get pods')).toEqual({
      stdout: '',
      stderr: 'The connection to the server 127.0.0.1:6443 was refused - did you specify the right host or port?\n',
      exitCode: 1,
    });
    expect(c.world.state.log.at(-1)).toMatchObject({
      code: 0,
      stage: 'connection',
      path: '/apis/authorization.k8s.io/v1/selfsubjectaccessreviews',
    });
  });
});
