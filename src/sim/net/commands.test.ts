// kubectl exec … -- curl / wget / nslookup / cat /etc/resolv.conf and sim traffic, end to end in a
// cluster that runs kube-proxy and CoreDNS.
import { describe, expect, it } from 'vitest';
import { createCluster } from '../cluster.ts';
import { runKubectl } from '../kubectl/cmd/cmd.ts';
import { runSimCommand } from '../kubectl/sim-commands.ts';
import { kubeProxyAddon } from '../kube-proxy/kube-proxy.ts';
import { corednsAddon } from './coredns.ts';

function cluster(dns = true) {
  const c = createCluster({ seed: 1, addons: dns ? [kubeProxyAddon(), corednsAddon()] : [kubeProxyAddon()] });
  const k = (line: string) => runKubectl(c, line);
  k('create deployment web --image=nginx:1.27 --replicas=3 --port=80');
  k('expose deployment web --port 80');
  k('run client --image=curlimages/curl:8.11.0');
  c.settle();
  const ip = (
    c.request({ verb: 'get', resource: 'services', namespace: 'default', name: 'web' }) as {
      object: { spec: { clusterIP: string } };
    }
  ).object.spec.clusterIP;
  const pods = (
    c.request({ verb: 'list', resource: 'pods', namespace: 'default' }) as {
      object: { items: { metadata: { name: string } }[] };
    }
  ).object.items.map((p) => p.metadata.name);
  return { c, k, ip, webPods: pods.filter((p) => p.startsWith('web-')) };
}

describe('the coredns add-on', () => {
  it("creates kubeadm's Deployment and the kube-dns Service at 10.96.0.10, whose pods become its endpoints", () => {
    const { k } = cluster();
    expect(k('get svc kube-dns -n kube-system').stdout).toMatch(
      /^NAME\s+TYPE\s+CLUSTER-IP\s+EXTERNAL-IP\s+PORT\(S\)\s+AGE\nkube-dns\s+ClusterIP\s+10\.96\.0\.10\s+<none>\s+53\/UDP,53\/TCP,9153\/TCP\s+\S+\n$/,
    );
    expect(k('get deploy coredns -n kube-system').stdout).toMatch(/coredns\s+2\/2\s+2\s+2/);
    expect(k('describe svc kube-dns -n kube-system').stdout).toContain(
      'IP:                       10.96.0.10\nIPs:                      10.96.0.10\nPort:                     dns  53/UDP\nTargetPort:               53/UDP\n',
    );
    expect(k('get pods -n kube-system -o custom-columns=IMAGE:.spec.containers[0].image --no-headers').stdout).toBe(
      'registry.k8s.io/coredns/coredns:v1.14.6\nregistry.k8s.io/coredns/coredns:v1.14.6\n',
    );
  });

  it('is not there unless asked for', () => {
    const { k } = cluster(false);
    expect(k('get svc -n kube-system').stderr).toBe('No resources found in kube-system namespace.\n');
  });
});

describe('kubectl exec in a pod', () => {
  it('prints the resolv.conf the kubelet writes for dnsPolicy ClusterFirst', () => {
    const { k } = cluster();
    expect(k('exec client -- cat /etc/resolv.conf')).toEqual({
      stdout:
        'search default.svc.cluster.local svc.cluster.local cluster.local\nnameserver 10.96.0.10\noptions ndots:5\n',
      stderr: '',
      exitCode: 0,
    });
  });

  it('looks a Service up by its short name through the search path, and says NXDOMAIN for a name that is not there', () => {
    const { c, k, ip } = cluster();
    expect(k('exec client -- nslookup web')).toEqual({
      stdout: `Server:\t\t10.96.0.10\nAddress:\t10.96.0.10#53\n\nName:\tweb.default.svc.cluster.local\nAddress: ${ip}\n\n`,
      stderr: '',
      exitCode: 0,
    });
    expect(k('exec client -- nslookup web.default').stdout).toContain(
      `Name:\tweb.default.svc.cluster.local\nAddress: ${ip}\n`,
    );
    expect(k('exec client -- nslookup kubernetes.default.svc.cluster.local').stdout).toContain(
      'Name:\tkubernetes.default.svc.cluster.local\nAddress: 10.96.0.1\n',
    );
    expect(k('exec client -- nslookup nothere')).toEqual({
      stdout: "Server:\t\t10.96.0.10\nAddress:\t10.96.0.10#53\n\n** server can't find nothere: NXDOMAIN\n\n",
      stderr: 'command terminated with exit code 1\n',
      exitCode: 1,
    });
    // A namespace's name has no records (NODATA), and a CNAME into the cluster domain is followed.
    expect(k('exec client -- nslookup kube-system').stdout).toBe(
      "Server:\t\t10.96.0.10\nAddress:\t10.96.0.10#53\n\n*** Can't find kube-system: No answer\n\n",
    );
    c.request({
      verb: 'create',
      resource: 'services',
      namespace: 'default',
      body: {
        apiVersion: 'v1',
        kind: 'Service',
        metadata: { name: 'alias' },
        spec: { type: 'ExternalName', externalName: 'web.default.svc.cluster.local' },
      },
    });
    c.settle();
    expect(k('exec client -- nslookup alias').stdout).toBe(
      `Server:\t\t10.96.0.10\nAddress:\t10.96.0.10#53\n\nalias.default.svc.cluster.local\tcanonical name = web.default.svc.cluster.local.\nName:\tweb.default.svc.cluster.local\nAddress: ${ip}\n\n`,
    );
  });

  it('answers a headless Service with one A record per ready endpoint', () => {
    const { c, k } = cluster();
    k('create service clusterip db --clusterip=None --tcp=80:80');
    c.request({
      verb: 'patch',
      resource: 'services',
      namespace: 'default',
      name: 'db',
      body: { spec: { selector: { app: 'web' } } },
    });
    c.settle();
    const out = k('exec client -- nslookup db').stdout;
    expect(out.match(/^Name:\tdb\.default\.svc\.cluster\.local$/gm)).toHaveLength(3);
    expect(out.match(/^Address: 10\.244\.\d+\.\d+$/gm)).toHaveLength(3);
  });

  it("curls a Service by name: a pod answers; with no endpoints, curl's own error and exit code", () => {
    const { c, k, webPods } = cluster();
    const ok = k('exec client -- curl -sS http://web');
    expect(ok.exitCode).toBe(0);
    expect(webPods).toContain(ok.stdout.trim());
    expect(k('exec client -- wget -qO- http://web').stdout.trim()).toMatch(/^web-/);
    k('scale deployment web --replicas=0');
    c.settle();
    expect(k('exec client -- curl -sS http://web')).toEqual({
      stdout: '',
      stderr:
        "curl: (7) Failed to connect to web port 80 after 0 ms: Couldn't connect to server\ncommand terminated with exit code 7\n",
      exitCode: 7,
    });
    expect(k('exec client -- curl -s http://web')).toEqual({
      stdout: '',
      stderr: 'command terminated with exit code 7\n',
      exitCode: 7,
    });
    expect(k('exec client -- wget -qO- http://web').stderr).toMatch(
      /^wget: can't connect to remote host \(10\.\d+\.\d+\.\d+\): Connection refused\ncommand terminated with exit code 1\n$/,
    );
  });

  it('cannot resolve names without CoreDNS: the query to 10.96.0.10 goes nowhere', () => {
    const { k, ip } = cluster(false);
    expect(k('exec client -- curl -sS http://web')).toEqual({
      stdout: '',
      stderr: 'curl: (6) Could not resolve host: web\ncommand terminated with exit code 6\n',
      exitCode: 6,
    });
    expect(k('exec client -- nslookup web').stdout).toBe(';; connection timed out; no servers could be reached\n\n');
    expect(k(`exec client -- curl -sS http://${ip}`).exitCode).toBe(0);
  });

  it('refuses what it cannot run, as kubectl does', () => {
    const { k } = cluster();
    expect(k('exec client').stderr).toBe(
      "error: you must specify at least one command for the container\nSee 'kubectl exec -h' for help and examples\n",
    );
    expect(k('exec nothere -- curl http://web').stderr).toBe(
      'Error from server (NotFound): pods "nothere" not found\n',
    );
    expect(k('exec client -c other -- curl http://web').stderr).toBe(
      'Error from server (BadRequest): container other is not valid for pod client\n',
    );
    expect(k('exec client -- sh').stderr).toMatch(
      /^error: this simulator runs only curl, wget, nslookup, cat \/etc\/resolv.conf in a container/,
    );
    expect(k('-n default exec client -- curl -sS http://web').exitCode).toBe(0);
    expect(k('exec -it client -- nslookup web').exitCode).toBe(0);
    // A workload's most active pod answers; CoreDNS's own pods use their node's resolver (dnsPolicy Default).
    expect(k('exec deploy/web -- curl -sS http://web').exitCode).toBe(0);
    expect(k('exec -n kube-system deploy/coredns -- cat /etc/resolv.conf').stderr).toMatch(/dnsPolicy Default/);
    expect(k('exec svc/web -- curl http://web').stderr).toBe(
      "error: this simulator's kubectl exec takes a pod, a deployment or a replicaset, not services\n",
    );
  });

  it('is refused by a pod whose container has crashed, and cannot reach a pod on a stopped node', () => {
    const { c, k } = cluster();
    const pods = (
      c.request({ verb: 'list', resource: 'pods', namespace: 'default' }) as {
        object: { items: { metadata: { name: string }; spec: { nodeName: string }; status: { podIP: string } }[] };
      }
    ).object.items;
    const web = pods.find((p) => p.metadata.name.startsWith('web-'))!;
    expect(k(`exec client -- curl -sS http://${web.status.podIP}`).stdout).toBe(`${web.metadata.name}\n`);
    runSimCommand(c, `sim crash ${web.metadata.name}`);
    expect(k(`exec client -- curl -sS http://${web.status.podIP}`)).toEqual({
      stdout: '',
      stderr: `curl: (7) Failed to connect to ${web.status.podIP} port 80 after 0 ms: Couldn't connect to server\ncommand terminated with exit code 7\n`,
      exitCode: 7,
    });
    const client = pods.find((p) => p.metadata.name === 'client')!;
    runSimCommand(c, `sim node stop ${client.spec.nodeName}`);
    expect(k('exec client -- curl -sS http://web').stderr).toMatch(
      /^Error from server: error dialing backend: dial tcp 10\.0\.0\.1\d:10250: connect: no route to host\n$/,
    );
  });

  it('is still left out in clusters without a pod network', () => {
    const c = createCluster({ seed: 1 });
    expect(runKubectl(c, 'exec -it web -- sh').stderr).toMatch(
      /^error: kubectl exec is a real command that this simulator does not run/,
    );
  });
});

describe('sim traffic', () => {
  it('counts n requests per endpoint, and shows the failures when a node dies under the Service', () => {
    const { c, ip } = cluster();
    const r = runSimCommand(c, 'sim traffic web 90 --from node-2');
    expect(r.exitCode).toBe(0);
    const lines = r.stdout.split('\n');
    expect(lines[0]).toBe(`90 requests from node-2 to default/web (${ip}:80/TCP): 90 ok, 0 failed`);
    expect(lines[1]).toMatch(/^ENDPOINT\s+POD\s+NODE\s+OK\s+FAILED$/);
    const rows = lines.slice(2, -1);
    expect(rows).toHaveLength(3);
    expect(rows.reduce((n, l) => n + Number(l.split(/\s+/)[3]), 0)).toBe(90);
    const dead = rows.find((l) => l.includes('node-3'))!.split(/\s+/)[0];
    runSimCommand(c, 'sim node stop node-3');
    c.advance(5_000);
    const after = runSimCommand(c, 'sim traffic web 90 --from node-2').stdout;
    expect(after).toMatch(
      new RegExp(`^${dead.replace(/\./g, '\\.')}\\s+web-\\S+\\s+node-3\\s+0\\s+\\d+ timed out$`, 'm'),
    );

    // Once the node-lifecycle controller marks its pods not ready, the endpoint leaves the rules.
    c.advance(120_000);
    const healed = runSimCommand(c, 'sim traffic web 90 --from node-2').stdout;
    expect(healed.split('\n')[0]).toMatch(/: 90 ok, 0 failed$/);
    expect(healed).not.toContain(dead);
  });

  it('explains what it cannot do', () => {
    const { c } = cluster();
    expect(runSimCommand(c, 'sim traffic web').stderr).toBe(
      'error: usage: sim traffic <service> <n> [--from <node>] [-n <namespace>]\n',
    );
    expect(runSimCommand(c, 'sim traffic nope 5').stderr).toBe(
      'error: kube-proxy on node-1 knows no service "nope" in namespace "default"\n',
    );
    expect(runSimCommand(c, 'sim traffic web 5 --from node-9').stderr).toBe('error: node "node-9" not found\n');
    expect(runSimCommand(c, 'sim traffic web 1001').stderr).toBe(
      'error: the number of requests must be between 1 and 1000, not "1001"\n',
    );
    expect(runSimCommand(createCluster({ seed: 1 }), 'sim traffic web 5').stderr).toBe(
      'error: this cluster runs no pod network (a script turns it on with the header line "# addons: kube-proxy")\n',
    );
  });

  it("keeps a node's requests on one pod with ClientIP affinity (kubectl expose --session-affinity)", () => {
    const { c, k } = cluster();
    expect(k('expose deployment web --name sticky --port 80 --session-affinity=ClientIP').stdout).toBe(
      'service/sticky exposed\n',
    );
    expect(k('expose deployment web --name bad --port 80 --session-affinity=Cookie').stderr).toBe(
      'error: unknown session affinity: Cookie\n',
    );
    c.settle();
    const rows = runSimCommand(c, 'sim traffic sticky 40 --from node-3').stdout.split('\n').slice(2, -1);
    expect(rows).toHaveLength(1);
    expect(rows[0].split(/\s+/)[3]).toBe('40');
  });
});

describe('a headless Service', () => {
  it("is reached by name at a pod's own address, past kube-proxy (kubectl expose --cluster-ip=None)", () => {
    const { c, k } = cluster();
    k('expose deployment web --name db --port 80 --cluster-ip=None');
    c.settle();
    expect(k('get svc db').stdout).toMatch(/^db\s+ClusterIP\s+None\s+<none>\s+80\/TCP/m);
    expect(k('get svc db -o jsonpath={.spec.clusterIPs}').stdout).toBe('["None"]');
    const r = k('exec client -- curl -sS http://db');
    expect(r.exitCode).toBe(0);
    expect(r.stdout).toMatch(/^web-/);
  });
});
