// The memos of permalink.ts: behaviour-side caches that only make it faster. They are never
// simulation state (WorldState does not hold them, snapshot/restore need not see them), and an
// answer read through them is the one permalink.ts computes without them.

/** Inputs a freshly built cluster records for its own construction, by options and add-ons (computed once). */
export const constructionInputs = new Map<string, number>();
