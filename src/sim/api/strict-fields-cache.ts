// The memos of strict-fields.ts: behaviour-side caches that only make it faster. They are never
// simulation state (WorldState does not hold them, snapshot/restore need not see them), and an
// answer read through them is the one strict-fields.ts computes without them.

/** The memo behind strict-fields.ts' fieldsOf (behaviour-side, never state). */
export const parsed = new Map<string, Map<string, string>>();
