// The memos of resources.ts: behaviour-side caches that only make it faster. They are never
// simulation state (WorldState does not hold them, snapshot/restore need not see them), and an
// answer read through them is the one resources.ts computes without them.

import type { ObjectNames } from './resources.ts';

/**
 * resource → namespace → name → strings. Every request about an object needs them, and building
 * them by concatenation costs a flatten and a hash per lookup; one entry per object keeps a single
 * flat copy (behaviour-side cache, not state; cleared when it grows past the bound).
 * (The memo behind resources.ts' namesOf.)
 */
const objectNames = new Map<string, Map<string, Map<string, ObjectNames>>>();

let objectNamesSize = 0;
let lastResource = '';
let lastNs = '';
let lastName = '';
let lastNames: ObjectNames | undefined;
let prevResource = '';
let prevNs = '';
let prevName = '';
let prevNames: ObjectNames | undefined;
let mapResource = '';
let mapNs = '';
let mapOfNames: Map<string, ObjectNames> | undefined;

/** `build(resource, namespace, name)` (resources.ts' buildObjectNames), one per object (namespace '' for cluster-scoped; name '' for the collection). */
export function cachedNames(
  resource: string,
  namespace: string | undefined,
  name: string,
  build: (resource: string, namespace: string | undefined, name: string) => ObjectNames,
): ObjectNames {
  const ns = namespace ?? '';
  // One request, and one notification's readers, ask for the same object several times in a row;
  // a request also asks for its namespace or its collection in between (the two latest are kept).
  if (name === lastName && ns === lastNs && resource === lastResource && lastNames) return lastNames;
  if (name === prevName && ns === prevNs && resource === prevResource && prevNames) {
    const n = prevNames;
    prevResource = lastResource;
    prevNs = lastNs;
    prevName = lastName;
    prevNames = lastNames;
    lastResource = resource;
    lastNs = ns;
    lastName = name;
    lastNames = n;
    return n;
  }
  // Most asks are about pods in one namespace: the last resource's and namespace's map is at hand.
  let byName = resource === mapResource && ns === mapNs ? mapOfNames : undefined;
  if (!byName) {
    let byNs = objectNames.get(resource);
    if (!byNs) objectNames.set(resource, (byNs = new Map()));
    byName = byNs.get(ns);
    if (!byName) byNs.set(ns, (byName = new Map()));
    mapResource = resource;
    mapNs = ns;
    mapOfNames = byName;
  }
  let n = byName.get(name);
  if (!n) {
    if (objectNamesSize >= 300_000) {
      objectNames.clear();
      objectNamesSize = 0;
      lastNames = prevNames = mapOfNames = undefined;
      return cachedNames(resource, namespace, name, build);
    }
    objectNamesSize++;
    n = build(resource, namespace, name);
    byName.set(name, n);
  }
  prevResource = lastResource;
  prevNs = lastNs;
  prevName = lastName;
  prevNames = lastNames;
  lastResource = resource;
  lastNs = ns;
  lastName = name;
  lastNames = n;
  return n;
}
