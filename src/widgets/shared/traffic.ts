// How the current step's records are said on the canvas: on their two ends, grouped where one
// request fans out (no pixel geometry; the travel layer draws them moving).
import type { StepRecord } from '../../sim/view/types.ts';

/** Records a sender sent this step, grouped when one request fans out (a write's notifications). */
interface OutChip {
  kind: StepRecord['kind'];
  label: string;
  to: string[];
  seqs: number[];
}

/** What one endpoint sent and received this step. */
export interface EndpointTraffic {
  out: OutChip[];
  in: StepRecord[];
}

/** The records of a step, by endpoint: what each sent (grouped by kind and label) and received. */
export function trafficByEndpoint(records: readonly StepRecord[]): Map<string, EndpointTraffic> {
  const m = new Map<string, EndpointTraffic>();
  const at = (e: string) => {
    let t = m.get(e);
    if (!t) m.set(e, (t = { out: [], in: [] }));
    return t;
  };
  for (const r of records) {
    const out = at(r.from).out;
    const same = out.find((c) => c.kind === r.kind && c.label === r.label);
    if (same) {
      if (!same.to.includes(r.to)) same.to.push(r.to);
      same.seqs.push(r.seq);
    } else out.push({ kind: r.kind, label: r.label, to: [r.to], seqs: [r.seq] });
    at(r.to).in.push(r);
  }
  return m;
}
