// The memos of container-runtime.ts: behaviour-side caches that only make it faster. They are never
// simulation state (WorldState does not hold them, snapshot/restore need not see them), and an
// answer read through them is the one container-runtime.ts computes without them.

/** image as written → fully qualified ref (few distinct images; behaviour-side). */
export const normalizedRefs = new Map<string, string>();

/** ref → its image ID (sha256:<fakeDigest>): the same few images are pulled on every node (behaviour-side). */
export const imageIDs = new Map<string, string>();

/**
 * The same few strings in every record: built once (the request log interns them by value anyway).
 * Paths are keyed by verb alone: CRI verbs are unique across the two services. A node's calls come
 * in runs, so its component name is remembered for the last node.
 * (The memo behind container-runtime.ts' componentOf.)
 */
export const componentNames = new Map<string, string>();

/** The memo behind container-runtime.ts' record (behaviour-side, never state). */
export const criPaths = new Map<string, string>();

/**
 * In-place updates of a runtime's `sandboxes`/`containers` maps, logged per map object. Creating and
 * starting containers add or replace one entry: copying a node's every record per CRI call dominated
 * big bursts. The caller keeps only the returned state, so no older copy can see the change; code that
 * asks "did the map change since I looked?" compares the object and mapVersion (not state), and
 * "what changed?" reads the keys logged since then.
 */
export const mapChangeLogs = new WeakMap<object, string[]>();

/** image ref → its repository (the tag cut off); a node pulls few distinct images. */
export const imageRepos = new Map<string, string>();
