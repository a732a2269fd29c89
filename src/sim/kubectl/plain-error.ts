// What a reader sees when a command fails in a way no kubectl error covers: kubectl's and the API
// server's messages pass through, a fault of JavaScript itself (a TypeError, a stack overflow, a
// Node system error) becomes one plain sentence, never the engine's own words.

/** The sentence a reader sees for a fault in the simulator. */
export const FAULT_TEXT =
  'error: the simulator could not finish this command (a fault in the simulator, not a message kubectl would print)';

// JavaScript's and Node's vocabulary: a message with these is the engine talking, not Kubernetes.
const ENGINE_WORDS =
  /\b(TypeError|RangeError|ReferenceError|InternalError|Maximum call stack|undefined is not|is not a function|is not iterable|Cannot read propert|Cannot set propert|Cannot convert|E[A-Z]{3,}:|BigInt|Invalid array length)|\[object Object\]|\bNaN\b/;

/** True for an exception that is JavaScript's or Node's own rather than one of the simulator's errors. */
export function isFault(e: unknown): boolean {
  if (!(e instanceof Error)) return true;
  if (
    e instanceof TypeError ||
    e instanceof RangeError ||
    e instanceof ReferenceError ||
    e instanceof SyntaxError ||
    e instanceof EvalError ||
    e instanceof URIError
  )
    return true;
  if (typeof (e as { code?: unknown }).code === 'string') return true;
  return ENGINE_WORDS.test(e.message);
}

/** The line a catch-all prints for an exception: `error: <message>` for the simulator's own errors, FAULT_TEXT for a fault. */
export function errorLine(e: unknown): string {
  return isFault(e) ? FAULT_TEXT : `error: ${(e as Error).message}`;
}
