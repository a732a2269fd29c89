// kubectl cluster-info (pkg/cmd/clusterinfo): the control plane and the cluster services.
import { parse } from './flags.ts';
import type { Service } from 'kubernetes-types/core/v1';
import { Fail, apiError, type Run, type Stored } from './util.ts';

/** kubectl cluster-info: the control plane's address and the cluster services in kube-system. */
export function cmdClusterInfo(r: Run, argv: string[]): void {
  parse(r, 'cluster-info', argv, {});
  const res = r.req({
    verb: 'list',
    resource: 'services',
    namespace: 'kube-system',
    options: { labelSelector: 'kubernetes.io/cluster-service=true' },
  });
  if (!res.ok)
    throw new Fail(
      `\nTo further debug and diagnose cluster problems, use 'kubectl cluster-info dump'.\n${apiError(res.status)}`,
    );
  r.print('Kubernetes control plane is running at https://127.0.0.1:6443\n');
  for (const s of (res.object as { items?: Stored<Service>[] }).items ?? []) {
    const name = s.metadata?.labels?.['kubernetes.io/name'] ?? s.metadata.name;
    const port = s.spec?.ports?.[0]?.name ? `:${s.spec.ports[0].name}` : '';
    r.print(
      `${name} is running at https://127.0.0.1:6443/api/v1/namespaces/kube-system/services/${s.metadata.name}${port}/proxy\n`,
    );
  }
  r.print("\nTo further debug and diagnose cluster problems, use 'kubectl cluster-info dump'.\n");
}
