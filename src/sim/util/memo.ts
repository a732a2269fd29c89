// Small memo helpers: the state of a memo made with them lives in its closure, beside the function it
// speeds up, never in a module-level `let` (eslint.config.js forbids those in src/sim outside
// *-cache.ts). Use them only for pure functions: the answer must be the one a call without them gives.

/** `fn` remembering its last argument (compared with ===) and answer: a run of calls with one argument computes once. */
export function lastCall<A, R>(fn: (a: A) => R): (a: A) => R {
  let seen = false;
  let lastArg: A;
  let lastResult: R;
  return (a) => {
    if (seen && a === lastArg) return lastResult;
    lastResult = fn(a);
    lastArg = a;
    seen = true;
    return lastResult;
  };
}

/** `fn`'s answer, computed on the first call and kept. */
export function once<R>(fn: () => R): () => R {
  let seen = false;
  let result: R;
  return () => {
    if (!seen) {
      result = fn();
      seen = true;
    }
    return result;
  };
}
