// The one fast-check configuration. FC_RUNS (CI: 1,000; a developer's default: 100) sets how many
// cases a property draws, and FC_SEED (CI sets it) fixes which ones. Properties differ in what one
// case costs, so each asks for a share of FC_RUNS by weight instead of a count of its own.
import fc from 'fast-check';

const env = (globalThis as { process?: { env?: Record<string, string | undefined> } }).process?.env ?? {};

/** How many cases a property of weight 1 draws: FC_RUNS, or 100 when it is unset. */
export const FC_RUNS = Number(env.FC_RUNS || 100);

/** The fixed seed from FC_SEED, or undefined (then every run explores new cases). */
const FC_SEED = env.FC_SEED ? Number(env.FC_SEED) : undefined;

/**
 * The cases for a property that costs `weight` times a typical one (2: cheap arithmetic, 0.03: a
 * whole cluster per case), never fewer than `min`.
 */
export function runs(weight: number, min = 5): number {
  return Math.max(min, Math.round(FC_RUNS * weight));
}

/** Applies FC_RUNS and FC_SEED to every property (vitest's setup file calls it). */
export function configureFastCheck(): void {
  fc.configureGlobal(FC_SEED === undefined ? { numRuns: FC_RUNS } : { numRuns: FC_RUNS, seed: FC_SEED });
}
