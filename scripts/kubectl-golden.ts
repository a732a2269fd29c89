// Capture the golden fixture from a real kubectl 1.37: `node scripts/kubectl-golden.ts /path/to/kubectl`,
// `node scripts/kubectl-golden.ts oracle/bin/oracle kubectl` (the oracle's binary, kubectl its first
// argument; see oracle/), or KUBECTL_JUDGE='oracle/bin/oracle kubectl'. The oracle must be built with
// real-cluster.ts's version ldflags, or `version --client` says v0.0.0-master.
// Every case is answered before kubectl talks to a server; the kubeconfig names a dead one anyway.
// GOLDEN_OUT writes elsewhere (to compare a capture with the committed fixture).
import { writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { GOLDEN_CASES } from './lib/kubectl-golden-cases.ts';
import { runJudge } from './lib/kubectl-judge.ts';

const words = process.argv.slice(2);
const judge = words.length ? words.map((w) => `'${w.replace(/'/g, `'\\''`)}'`).join(' ') : process.env.KUBECTL_JUDGE;
if (!judge) {
  console.error('usage: node scripts/kubectl-golden.ts /path/to/kubectl [args…]');
  process.exit(2);
}
const out =
  process.env.GOLDEN_OUT ??
  join(dirname(fileURLToPath(import.meta.url)), '..', 'src', 'sim', 'kubectl', 'golden', 'kubectl-1.37.json');
const results = [];
for (const c of GOLDEN_CASES)
  results.push({ args: c.args, ...(c.stdin === undefined ? {} : { stdin: c.stdin }), ...(await runJudge(judge, c)) });
writeFileSync(out, JSON.stringify(results, null, 1) + '\n');
console.log(`${results.length} cases written to ${out}`);
