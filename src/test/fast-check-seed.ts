// Vitest setup: with FC_SEED set (CI sets it), every fast-check property draws the same cases on
// every run, so a CI run is reproducible and a red one can be replayed; without it (a developer's
// run), each run explores new cases, which is how rare counterexamples get found. FC_RUNS sets the
// count for all of them (src/test/fc.ts).
import { configureFastCheck } from './fc.ts';

configureFastCheck();
