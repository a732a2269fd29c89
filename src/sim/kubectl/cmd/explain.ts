// kubectl explain's entry in kubectl's chunk: the command itself, its schema and its help are a
// chunk of their own (explain/explain.ts, about 70 KB gzip) that only explain loads. Commands run
// synchronously, so whoever runs a line that may be explain loads it first (prepareLine).
import { Fail, type Run } from './util.ts';

let explain: ((r: Run, argv: string[]) => void) | undefined;
let failure = '';

/** Loads explain's chunk (once); never rejects: a failure is what explain then prints. */
export function loadExplain(): Promise<void> {
  if (explain) return Promise.resolve();
  return import('../explain/explain.ts').then((m) => { explain = m.cmdExplain; failure = ''; }, (e: unknown) => { failure = e instanceof Error ? e.message : String(e); });
}

/** What a line needs loaded before it runs (explain's chunk, for a line that names explain), or undefined when nothing is to load. */
export function prepareLine(line: unknown): Promise<void> | undefined {
  return !explain && typeof line === 'string' && /\bexplain\b/.test(line) ? loadExplain() : undefined;
}

/** kubectl explain, once its chunk is loaded (else why it cannot run). */
export function cmdExplain(r: Run, argv: string[]): void {
  if (!explain) throw new Fail(`error: kubectl explain's API documentation ${failure ? `failed to load (${failure}); reload the page to try again` : 'is not loaded'}`);
  explain(r, argv);
}
