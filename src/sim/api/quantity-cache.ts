// The memos of quantity.ts: behaviour-side caches that only make it faster. They are never
// simulation state (WorldState does not hold them, snapshot/restore need not see them), and an
// answer read through them is the one quantity.ts computes without them.

/**
 * Value() and MilliValue() of the strings seen so far: a cluster uses a handful of quantity strings
 * ("10m", "16Mi", "4") millions of times. Bounded so odd inputs cannot grow it without limit.
 * (The memo behind quantity.ts' quantityValue.)
 */
export const valueMemo = new Map<string | number, number>();

/** The memo behind quantity.ts' quantityMilliValue (behaviour-side, never state). */
export const milliMemo = new Map<string | number, number>();
