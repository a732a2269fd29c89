// kubectl version (pkg/cmd/version).
import { bool, parse, str } from './flags.ts';
import { Fail, apiError, type Run } from './util.ts';

/** The client and server version this kubectl reports (the cluster's: kubelets say KUBELET_VERSION, the same). */
const KUBECTL_VERSION = 'v1.37.2';
/** The kustomize module kubectl v1.37.2 is built with (k8s.io/kubectl@v0.37.2 go.mod), which `version` reads from its build info. */
const KUSTOMIZE_VERSION = 'v5.8.1';

/** kubectl version: client, kustomize and (unless --client) server versions. */
export function cmdVersion(r: Run, argv: string[]): void {
  const p = parse(r, 'version', argv, { client: { kind: 'bool' }, output: { kind: 'string', short: 'o' } });
  const o = str(p, 'output');
  if (o !== undefined && o !== 'yaml' && o !== 'json') throw new Fail("error: --output must be 'yaml' or 'json'");
  r.print(`Client Version: ${KUBECTL_VERSION}\nKustomize Version: ${KUSTOMIZE_VERSION}\n`);
  if (bool(p, 'client')) return;
  const res = r.req({ verb: 'get', resource: 'namespaces', name: 'default' });
  if (!res.ok && res.code === 0) throw new Fail(apiError(res.status));
  r.print(`Server Version: ${KUBECTL_VERSION}\n`);
}
