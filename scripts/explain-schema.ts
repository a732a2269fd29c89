// `flock /tmp/oracle.lock node scripts/explain-schema.ts`: writes src/sim/kubectl/explain/schema-data.ts,
// the schema `kubectl explain` reads, from the OpenAPI v3 documents the oracle's real v1.37.2 API
// server serves (/openapi/v3/api/v1, /openapi/v3/apis/apps/v1, …; it starts one, as the recorder
// does, so it holds the oracle's lock). Not from k8s.io/kubernetes@v1.37.2's api/openapi-spec/v3:
// those files lack the enums the served documents carry (explain's `ENUM:` and `enum:` lines).
//
// Only the served kinds (src/sim/api/resources.ts, and Events in events.k8s.io/v1 too) and the
// schemas they reach are kept, and of each schema only what the plaintext template reads
// (staging/src/k8s.io/kubectl/pkg/explain/v2/templates/plaintext.tmpl): description, type,
// properties, required, items, additionalProperties (a schema; a boolean one is never followed),
// allOf, $ref, enum and externalDocs. Each resource is found as the template finds it: its paths'
// x-kubernetes-group-version-kind, then the first schema (in key order) carrying that GVK.
import { writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { OTHER_GROUP_VERSIONS, RESOURCES } from '../src/sim/index.ts';
import { ensureBinary, RealCluster } from './oracle/real-cluster.ts';

const ROOT = resolve(import.meta.dirname, '..');
const OUT = join(ROOT, 'src/sim/kubectl/explain/schema-data.ts');
const REF_PREFIX = '#/components/schemas/';
/** The keys of a schema the template reads. */
const KEPT = [
  'description',
  'type',
  'properties',
  'required',
  'items',
  'additionalProperties',
  'allOf',
  '$ref',
  'enum',
  'externalDocs',
];

type Schema = Record<string, unknown>;
interface Gvk {
  group: string;
  kind: string;
  version: string;
}

/** The GVK the template reads off a resource's paths (the last of its four search paths to have one wins). */
function gvkOf(doc: Schema, gv: string, resource: string): Gvk | undefined {
  const [prefix, version] = gv.startsWith('api/')
    ? ['/api', gv.slice(4)]
    : [`/apis/${gv.split('/')[1]}`, gv.split('/')[2]];
  const paths = doc.paths as Record<string, Record<string, Schema>>;
  let gvk: Gvk | undefined;
  for (const p of [
    [prefix, version, resource],
    [prefix, version, resource, '{name}'],
    [prefix, version, 'namespaces', '{namespace}', resource],
    [prefix, version, 'namespaces', '{namespace}', resource, '{name}'],
  ]) {
    const el = paths[p.join('/')];
    if (!el) continue;
    for (const m of ['get', 'post', 'put', 'patch', 'delete']) {
      const g = el[m]?.['x-kubernetes-group-version-kind'];
      if (g) {
        gvk = g as Gvk;
        break;
      }
    }
  }
  return gvk;
}

/** A schema cut to what the template reads, its refs without the `#/components/schemas/` prefix. */
function trim(s: Schema, refs: Set<string>): Schema {
  const out: Schema = {};
  for (const k of KEPT) {
    const v = s[k];
    if (v === undefined) continue;
    if (k === '$ref') {
      const name = String(v).slice(REF_PREFIX.length);
      refs.add(name);
      out[k] = name;
    } else if (k === 'properties')
      out[k] = Object.fromEntries(
        Object.keys(v as Schema)
          .sort()
          .map((p) => [p, trim((v as Record<string, Schema>)[p], refs)]),
      );
    else if (k === 'items') out[k] = trim(v as Schema, refs);
    else if (k === 'additionalProperties') {
      if (typeof v === 'object') out[k] = trim(v as Schema, refs);
    } else if (k === 'allOf') out[k] = (v as Schema[]).map((x) => trim(x, refs));
    else out[k] = v;
  }
  return out;
}

/** The served documents: the group versions the server lists at /openapi/v3, and those named in full. */
async function fetchDocuments(gvs: string[]): Promise<{ listed: string[]; docs: Record<string, Schema> }> {
  ensureBinary();
  const cluster = new RealCluster();
  try {
    await cluster.start();
    const index = JSON.parse((await cluster.raw('/openapi/v3', 60_000))!) as { paths: Record<string, unknown> };
    const docs: Record<string, Schema> = {};
    for (const gv of gvs) {
      const body = await cluster.raw(`/openapi/v3/${gv}`, 120_000);
      if (body === undefined) throw new Error(`the API server serves no /openapi/v3/${gv}`);
      docs[gv] = JSON.parse(body) as Schema;
    }
    return { listed: Object.keys(index.paths), docs };
  } finally {
    await cluster.stop();
  }
}

async function main(): Promise<void> {
  const served: [string, string][] = [];
  for (const [resource, r] of Object.entries(RESOURCES)) {
    served.push([r.group ? `apis/${r.group}/${r.version}` : `api/${r.version}`, resource]);
    for (const o of OTHER_GROUP_VERSIONS[resource] ?? []) served.push([`apis/${o.group}/${o.version}`, resource]);
  }
  const { listed, docs } = await fetchDocuments([...new Set(served.map(([gv]) => gv))]);
  const paths: Record<string, Record<string, Gvk & { schema: string }>> = {};
  // `--api-version` naming a listed group version without the resource: the GVR is not in its
  // schema; naming any other: there is no such document.
  for (const gv of listed) if (/^apis?\//.test(gv)) paths[gv] = {};
  const schemas: Record<string, Schema> = {};
  for (const [gv, resource] of served) {
    const doc = docs[gv];
    const all = (doc.components as { schemas: Record<string, Schema> }).schemas;
    const gvk = gvkOf(doc, gv, resource);
    if (!gvk) throw new Error(`${gv} has no paths for ${resource}`);
    const name = Object.keys(all)
      .sort()
      .find((n) =>
        ((all[n]['x-kubernetes-group-version-kind'] ?? []) as Gvk[]).some(
          (g) => g.group === gvk.group && g.kind === gvk.kind && g.version === gvk.version,
        ),
      );
    if (!name) throw new Error(`no schema for ${JSON.stringify(gvk)} in ${gv}`);
    (paths[gv] ??= {})[resource] = { group: gvk.group, kind: gvk.kind, version: gvk.version, schema: name };
    const todo = [name];
    while (todo.length) {
      const n = todo.pop()!;
      if (schemas[n]) continue;
      const refs = new Set<string>();
      schemas[n] = trim(all[n], refs);
      for (const r of refs) if (!schemas[r]) todo.push(r);
    }
  }
  const sorted = Object.fromEntries(
    Object.keys(schemas)
      .sort()
      .map((k) => [k, schemas[k]]),
  );
  const data = JSON.stringify({
    paths: Object.fromEntries(
      Object.keys(paths)
        .sort()
        .map((k) => [k, paths[k]]),
    ),
    schemas: sorted,
  });
  writeFileSync(
    OUT,
    `// Generated by scripts/explain-schema.ts from the OpenAPI v3 documents the real v1.37.2 API server
// serves: do not edit. The served kinds' schemas as \`kubectl explain\` reads them, in a chunk of
// their own that only explain loads.
import type { ExplainDocument } from './render.ts';

/** The served group versions' resources and every schema they reach. */
export const SCHEMA = JSON.parse(${JSON.stringify(data)}) as ExplainDocument;
`,
  );
  process.stdout.write(`explain-schema: ${Object.keys(sorted).length} schemas, ${data.length} B of JSON → ${OUT}\n`);
}

await main();
