// kubectl top (pkg/cmd/top): refused, as there is no metrics-server to ask.
import { TOP_HELP } from '../help/top.ts';
import { parse } from './flags.ts';
import { Fail, type Run, unknownSubcommand } from './util.ts';

/** kubectl top: the cluster runs no metrics-server, so there is no Metrics API to read. */
export function cmdTop(r: Run, argv: string[]): void {
  parse(r, 'top', argv.slice(1), {
    'all-namespaces': { kind: 'bool', short: 'A' },
    containers: { kind: 'bool' },
    selector: { kind: 'string', short: 'l' },
    'sort-by': { kind: 'string' },
  });
  if (!argv[0]) {
    r.print(TOP_HELP);
    return;
  }
  if (!['pods', 'pod', 'po', 'nodes', 'node', 'no'].includes(argv[0])) throw new Fail(unknownSubcommand('top', argv));
  throw new Fail('error: Metrics API not available');
}
