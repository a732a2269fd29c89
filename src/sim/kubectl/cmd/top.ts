// kubectl top (pkg/cmd/top): refused, as there is no metrics-server to ask.
import { parse } from './flags.ts';
import { Fail, type Run, unknownSubcommand } from './util.ts';

/** kubectl top: the cluster runs no metrics-server, so there is no Metrics API to read. */
export function cmdTop(r: Run, argv: string[]): void {
  parse(r, 'top', argv.slice(1), { 'all-namespaces': { kind: 'bool', short: 'A' }, containers: { kind: 'bool' }, selector: { kind: 'string', short: 'l' }, 'sort-by': { kind: 'string' } });
  if (!argv[0]) {
    // A command made of subcommands prints its help when given none.
    r.print('Display resource (CPU/memory) usage.\n\nAvailable Commands:\n  node          Display resource (CPU/memory) usage of nodes\n  pod           Display resource (CPU/memory) usage of pods\n');
    return;
  }
  if (!['pods', 'pod', 'po', 'nodes', 'node', 'no'].includes(argv[0])) throw new Fail(unknownSubcommand('top', argv));
  throw new Fail('error: Metrics API not available');
}

