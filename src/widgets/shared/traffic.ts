// How the current step's records are drawn on the canvas: as chips on their two ends (no pixel
// geometry), and as arrows across the gap between the control-plane row and the node row.
import type { StepRecord } from '../../sim/view/types.ts';
import { isNodeEndpoint } from './format.ts';

/** Records a sender sent this step, grouped when one request fans out (a write's notifications). */
export interface OutChip {
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

/** One arrow across the gap between the rows: a kind of record going down to nodes or up from them. */
export interface Crossing {
  dir: 'down' | 'up';
  kind: StepRecord['kind'];
  /** The node-side endpoints (receivers going down, senders going up), each once. */
  endpoints: string[];
}

/** The step's records that cross between the control-plane row and the node row, one arrow per direction and kind. */
export function crossings(records: readonly StepRecord[]): Crossing[] {
  const out: Crossing[] = [];
  for (const r of records) {
    const fromNode = isNodeEndpoint(r.from);
    if (fromNode === isNodeEndpoint(r.to)) continue;
    const dir = fromNode ? 'up' : 'down';
    const end = fromNode ? r.from : r.to;
    let c = out.find((x) => x.dir === dir && x.kind === r.kind);
    if (!c) out.push((c = { dir, kind: r.kind, endpoints: [] }));
    if (!c.endpoints.includes(end)) c.endpoints.push(end);
  }
  return out;
}
