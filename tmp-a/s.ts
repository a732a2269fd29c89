import { readFileSync } from 'node:fs';
import { runInSimulator } from '../scripts/oracle/sim-run.ts';
import { lineDurations } from '../scripts/oracle/compare.ts';
import { normalise } from '../scripts/oracle/trace.ts';
const real = JSON.parse(readFileSync('oracle/traces/' + process.argv[2] + '.json', 'utf8'));
const t = normalise(runInSimulator(real.scenario, real.script, 1, lineDurations(real)));
for (const c of process.argv.slice(3)) { console.log('== sim', c); console.log(t.components[c]?.requests.map((r) => `${r.t} ${r.verb} ${r.resource}/${r.subresource ?? ''} ${r.code} ${r.n ?? ''} ${r.uri.slice(0, 90)}`).join('\n')); }
console.log(t.steps.map((s) => `${s.line} ${s.t} ${s.command.slice(0, 40)}`).join('\n'));
