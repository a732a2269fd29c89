// kubectl explain's entry in kubectl's chunk: the command itself, its schema and its help are a
// chunk of their own (explain/explain.ts, about 70 KB gzip) that only explain loads. Commands run
// synchronously, so whoever runs a line that may be explain loads it first (prepareLine).
import { Fail, type Run } from './util.ts';

// Explain's chunk once loaded, or why it failed to load (which code is loaded, not simulation state).
const chunk: { explain?: (r: Run, argv: string[]) => void; failure: string } = { failure: '' };

/** Loads explain's chunk (once); never rejects: a failure is what explain then prints. */
export function loadExplain(): Promise<void> {
  if (chunk.explain) return Promise.resolve();
  return import('../explain/explain.ts').then(
    (m) => {
      chunk.explain = m.cmdExplain;
      chunk.failure = '';
    },
    (e: unknown) => {
      chunk.failure = e instanceof Error ? e.message : String(e);
    },
  );
}

/** What a line needs loaded before it runs (explain's chunk, for a line that names explain), or undefined when nothing is to load. */
export function prepareLine(line: unknown): Promise<void> | undefined {
  return !chunk.explain && typeof line === 'string' && /\bexplain\b/.test(line) ? loadExplain() : undefined;
}

/** kubectl explain, once its chunk is loaded (else why it cannot run). */
export function cmdExplain(r: Run, argv: string[]): void {
  if (!chunk.explain)
    throw new Fail(
      `error: kubectl explain's API documentation ${chunk.failure ? `failed to load (${chunk.failure}); reload the page to try again` : 'is not loaded'}`,
    );
  chunk.explain(r, argv);
}
