// Test support for the figure-texts*.test.ts files (one file of every figure took 157 s on one of CI's
// two workers; three share it). Every sentence a figure shows is checked against the frame it
// describes, at every step of a run in which demos are pressed at random moments: nothing says a write was accepted or stored while the
// API server or etcd is down, no count reads "0 pods", "1 pods" or "addresss", no pod is said to be
// marked not ready while its Ready condition is True, every generated name a beat mentions is in the
// frame (or was just deleted, or the sentence says it is gone), and quoted counts are the frame's.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { runs } from '../../test/fc.ts';
import type { Frame } from '../view/types.ts';
import { FIGURES } from './figures.ts';
import { compileFigure } from '../figures/compile.ts';
import { FigureHost } from '../figures/host.ts';
import type { FigureId } from '../figures/catalog.ts';
import type { FigureDef } from '../figures/demo.ts';
import type { FigureRequest, FigureView } from '../figures/protocol.ts';

/** Names the simulation generates: ReplicaSets (web-<hash>) and their pods (web-<hash>-<5>), from kube's vowel-free alphabet. */
const GENERATED = /\b[a-z][a-z0-9]*(?:-[bcdfghjklmnpqrstvwxz2456789]{5,10})+\b/g;
const NODE = /\bnode-\d+\b/g;
/** Words that end in s but are no plural: after a 1 or a 0 they are fine ("1 s", "1 is"). */
const NOT_PLURAL = new Set(['s', 'ms', 'is', 'was', 'has', 'does', 'as', 'us', 'gives', 'runs']);

const webPods = (f: Frame) =>
  [...f.pending, ...f.pods].filter((p) => p.owner?.startsWith('ReplicaSet/web-') && !p.terminating);

/** The clauses of a sentence (a claim about a pod holds within its clause). */
const clauses = (s: string): string[] => s.split(/[.;:](?:\s|$)/).filter(Boolean);

/** What a view's sentences say that its frame contradicts (empty when nothing). */
export function contradictions(v: FigureView): string[] {
  const f = v.frame;
  const out: string[] = [];
  const said = [
    ...new Set([
      v.sentence,
      ...(v.beat ? [v.beat] : []),
      ...v.records.map((r) => r.sentence),
      ...v.demos.map((d) => d.why ?? ''),
    ]),
  ].filter(Boolean);
  const names = new Set<string>([...f.pods, ...f.pending].map((p) => p.name));
  for (const n of f.nodes) names.add(n.name);
  for (const d of f.deployments) for (const rs of d.replicaSets) names.add(rs.name);
  // Deleted in this step: a DELETE, a DELETED notification, or a kubelet's removal.
  const deleted = new Set(
    v.records
      .filter((r) => r.verb === 'DELETE' || r.label.startsWith('DELETED'))
      .map((r) => (r.object ?? '').split('/').pop() ?? ''),
  );
  const down = !f.controlPlane.apiserver || !f.controlPlane.etcd;

  for (const s of said) {
    // Names are left out of the word checks: generated suffixes may end in anything.
    const words = s.replace(GENERATED, 'NAME').replace(NODE, 'NODE');
    // "1 address" is singular; "1 pods" and "0 pods" are not what a sentence should say.
    for (const m of words.matchAll(/(?<![\w.:/=-])([01]) ([a-zA-Z]+s)\b/g))
      if (!NOT_PLURAL.has(m[2]) && !(m[1] === '1' && m[2].endsWith('ss'))) out.push(`"${m[0]}" in: ${s}`);
    for (const m of words.matchAll(/\b[a-z]+sss\b/gi)) out.push(`"${m[0]}" in: ${s}`);
  }

  // Beats (and the intros said at a demo's step) are the figure's own words: they must agree with the frame.
  const own = v.beat ? [v.beat] : [];
  for (const s of own) {
    if (down && /\b(accepted|stores it|stored it|wrote)\b/.test(s))
      out.push(`says a write went through while ${f.controlPlane.apiserver ? 'etcd' : 'the API server'} is down: ${s}`);
    for (const c of clauses(s)) {
      // An EndpointSlice's endpoint is "not ready" once its pod terminates, whatever the pod's own Ready
      // condition still says (endpointslice's podToEndpoint): a clause about the slice is not about the pod.
      if (/\bnot ready\b/.test(c) && !/still marked ready/.test(c) && !/\b(EndpointSlice|slice)\b/.test(c)) {
        for (const m of c.matchAll(GENERATED)) {
          const p = [...f.pods, ...f.pending].find((x) => x.name === m[0]);
          if (p?.ready) out.push(`says ${p.name} is not ready, but its Ready condition is True: ${s}`);
        }
      }
      if (!/delet|evict|gone|reused|replac|remov|Event/.test(c)) {
        for (const m of [...c.matchAll(GENERATED), ...c.matchAll(NODE)]) {
          if (!names.has(m[0]) && !deleted.has(m[0])) out.push(`names ${m[0]}, which the frame does not have: ${s}`);
        }
      }
    }
    const web = f.deployments.find((d) => d.name === 'web' && d.namespace === 'default');
    if (web) {
      const ready = webPods(f).filter((p) => p.ready).length;
      for (const m of s.matchAll(/\b(\d+) of (\d+) (?:pods )?(?:Running and )?[Rr]eady\b/g)) {
        if (Number(m[2]) !== web.replicas) out.push(`"${m[0]}", but web wants ${web.replicas}: ${s}`);
        if (Number(m[1]) > ready) out.push(`"${m[0]}", but only ${ready} of web's pods are ready: ${s}`);
      }
      for (const m of s.matchAll(/\b(\d+) pods? of web (?:is|are) ready\b/g))
        if (Number(m[1]) !== ready) out.push(`"${m[0]}", but ${ready} are: ${s}`);
    }
    for (const m of s.matchAll(/\brevision (\d+)\b/g))
      if (Number(m[1]) > f.revision) out.push(`"${m[0]}", but etcd is at ${f.revision}: ${s}`);
  }
  return out;
}

/** Registers, for each figure named, the property that its sentences agree with its frames at every step. */
export function textsAgreeWithFrames(ids: readonly FigureId[]): void {
  describe('figure texts agree with their frames', () => {
    for (const def of ids.map((id) => FIGURES[id])) textsAgree(def);
  });
}

/** One figure's property: its sentences agree with its frames at every step of a random run. */
function textsAgree(def: FigureDef): void {
  const compiled = compileFigure(def);
  it(`${def.id}: at every step of a run with demos pressed at random moments`, () => {
    const move: fc.Arbitrary<FigureRequest> = fc.oneof(
      {
        weight: 3,
        arbitrary: fc.record({
          op: fc.constant('demo' as const),
          demo: fc.constantFrom(...def.demos.map((d) => d.id)),
        }),
      },
      { weight: 3, arbitrary: fc.constant<FigureRequest>({ op: 'next' }) },
      { weight: 1, arbitrary: fc.constant<FigureRequest>({ op: 'step' }) },
      {
        weight: 1,
        arbitrary: fc.record({ op: fc.constant('advance' as const), ms: fc.integer({ min: 1_000, max: 400_000 }) }),
      },
    );
    fc.assert(
      fc.property(fc.nat(compiled.story.end), fc.array(move, { minLength: 1, maxLength: 14 }), (at, moves) => {
        const host = new FigureHost(def, compiled.story);
        const check = (v: FigureView | null) => {
          if (v) expect(contradictions(v)).toEqual([]);
        };
        check(host.handle({ op: 'seek', step: at }));
        for (const m of moves) {
          // A disabled demo cannot be pressed (the page sends nothing); the host would refuse it.
          if (m.op === 'demo' && !host.view().demos.find((d) => d.id === m.demo)?.enabled) continue;
          check(host.handle(m));
        }
        // Each beat on the way to the story's end, too.
        for (const b of compiled.story.beats)
          expect(
            contradictions({ ...compiled.first, frame: b.frame!, beat: b.text, sentence: b.text, records: [] }),
          ).toEqual([]);
      }),
      { numRuns: runs(0.03, 6) },
    );
  }, 300_000);
}
