// The few web-platform globals the core uses, declared for `tsc -p src/sim` (which has neither the
// DOM library nor Node's types). Each exists in every place the core runs: Node >= 22 (the CLI and
// the tests), the page, and the worker. Only these four: the core has no document, window, timers
// or Node APIs (scripts/check-deps.mjs enforces the timers and the DOM names as well). The root
// tsconfig excludes this file: there the DOM library declares the same names.

/** HTML's structured clone (the worker boundary's copy). */
declare function structuredClone<T>(value: T, options?: { transfer?: readonly unknown[] }): T;
/** HTML's microtask queue. */
declare function queueMicrotask(callback: () => void): void;
/** WHATWG Encoding: UTF-8 bytes of a string. */
declare class TextEncoder {
  readonly encoding: string;
  encode(input?: string): Uint8Array<ArrayBuffer>;
}
/** WebIDL's exception, as structuredClone throws it (DataCloneError). */
declare class DOMException extends Error {
  constructor(message?: string, name?: string);
}
