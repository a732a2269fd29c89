// The `conflict` widget (the control-plane chapter): optimistic concurrency. Two users, alice and bob,
// each read the Deployment web at the same resourceVersion and each write it back with one replica
// more (kubectl get -o yaml, then kubectl replace). The API server stores alice's write at the next
// revision; bob's still carries the old resourceVersion, so it is refused with 409 Conflict instead
// of silently undoing alice's change. bob reads again and retries, and both changes count. The
// picture lists each write with the resourceVersion it was sent with and the API server's answer,
// read from the request log and the recorded inputs.
import type { ApiRequest } from '../api/request.ts';
import { R } from '../api/identity.ts';
import { namesOf } from '../api/resources.ts';
import { storeGet } from '../view/stored.ts';
import type { ClusterAddon } from '../cluster-types.ts';
import type { Cluster } from '../cluster.ts';
import type { Frame } from '../view/types.ts';
import { agree, count } from '../view/words.ts';
import type { ReplaceReplicasAction } from './actions.ts';
import type { DemoDef, DemoMemo, FigureDef } from './demo.ts';
import { livePodsOf, readyPodsOf, setupDemo, WEB, webOf } from './widget-web.ts';
import { figureActions } from './figure-actions.ts';

/** web's replicas as the widget opens; each press adds one per writer, or takes them away again. */
const REPLICAS = 3;
/** The two writers, in the order their writes reach the API server. */
const WRITERS = ['alice', 'bob'] as const;
/** How far back the picture looks for the writers' requests (records). */
const LOOK_BACK = 4_000;

/** One write of web by a writer: what it sent and what the API server answered. */
type WriteAttempt = {
  client: string;
  /** The resourceVersion the write carried: the one its client read. */
  sentVersion: string;
  /** spec.replicas in the written copy. */
  replicas: number;
  code: number;
  /** The store revision it was written at (null when refused). */
  revision: number | null;
  message: string | null;
};

/** What the picture draws: web's spec.replicas and resourceVersion now, and the last race's writes. */
export type ConflictDetail = {
  replicas: number | null;
  resourceVersion: string | null;
  attempts: WriteAttempt[];
};
/** The figure's detail (FigureDef.detail): ConflictDetail under its key. */
type Detail = { race: ConflictDetail };

const isWriter = (c: string): boolean => (WRITERS as readonly string[]).includes(c);

/**
 * The writers' PUTs of web since alice's last one. A log record says the answer but not the body, so
 * each is paired with its recorded input (one record per request, in the same order, counted from the end).
 */
function attemptsOf(cluster: Cluster): WriteAttempt[] {
  const w = cluster.world.state;
  const object = `deployments/default/${WEB}`;
  const records = w.log
    .slice(Math.max(0, w.log.length - LOOK_BACK))
    .filter((r) => r.kind === 'request' && r.verb === 'PUT' && r.object === object && isWriter(r.component));
  const sent: { client: string; body: { metadata?: { resourceVersion?: string }; spec?: { replicas?: number } } }[] =
    [];
  for (const i of w.inputs) {
    if (i.kind !== 'request' || !isWriter(i.component)) continue;
    const q: ApiRequest = i.request;
    if (q.verb === 'update' && q.resource === 'deployments' && q.name === WEB)
      sent.push({ client: i.component, body: q.body as never });
  }
  const n = Math.min(records.length, sent.length);
  const all = records.slice(records.length - n).map((r, k): WriteAttempt => {
    const s = sent[sent.length - n + k];
    return {
      client: r.component,
      sentVersion: s.body.metadata?.resourceVersion ?? '',
      replicas: s.body.spec?.replicas ?? 0,
      code: r.code,
      revision: r.code === 200 ? (r.revision ?? null) : null,
      message: r.code === 200 ? null : (r.message ?? null),
    };
  });
  let from = -1;
  for (let k = all.length - 1; k >= 0 && from < 0; k--) if (all[k].client === WRITERS[0]) from = k;
  return from < 0 ? [] : all.slice(from);
}

/** web's spec.replicas and resourceVersion in the store, and the last race's writes. */
function conflictOf(cluster: Cluster): ConflictDetail {
  const d = storeGet(cluster.world.state.store, 'deployments', namesOf('deployments', 'default', WEB).key) as
    { metadata: { resourceVersion: string }; spec: { replicas?: number } } | undefined;
  return {
    replicas: d ? (d.spec.replicas ?? 1) : null,
    resourceVersion: d?.metadata.resourceVersion ?? null,
    attempts: attemptsOf(cluster),
  };
}

const detailOf = (d: Detail | null): ConflictDetail | null => (d?.race ? d.race : null);
const attemptsIn = (d: Detail | null): WriteAttempt[] => detailOf(d)?.attempts ?? [];
/** The two write a replica more while web is at its opening size, and one fewer after. */
const stepOf = (f: Frame): number => ((webOf(f)?.replicas ?? REPLICAS) > REPLICAS ? -1 : 1);
const race = (add: number, clients: string[]): ReplaceReplicasAction => ({
  type: 'replace-replicas',
  name: WEB,
  add,
  clients,
});

/** Keeps what a beat's text quotes from the race's writes in the memo (a text sees the frame and the memo only). Returns true. */
function noted(m: DemoMemo, attempts: WriteAttempt[]): true {
  const [won, refused, retried] = attempts;
  m.sent = won.sentVersion;
  m.won = won.revision ?? '';
  m.refusal = refused?.message ?? '';
  if (retried) {
    m.retrySent = retried.sentVersion;
    m.retried = retried.revision ?? '';
  }
  return true;
}

/** alice and bob each read web, change spec.replicas by one and replace it: one wins, one is refused and retries. */
const replace: DemoDef<Detail> = {
  id: 'race',
  label: (f) => `Both ${stepOf(f) > 0 ? 'add' : 'remove'} a replica`,
  unavailable: (f) =>
    !webOf(f)
      ? 'The Deployment web does not exist yet.'
      : f.controlPlane.apiserver
        ? null
        : 'The API server is stopped.',
  start: (f) => {
    const add = stepOf(f);
    const from = webOf(f)!.replicas;
    return {
      actions: [race(add, [...WRITERS])],
      memo: { add, from },
      intro: `alice and bob both read web (${count(from, 'replica')}) and each write back ${from + add}.`,
      beats: [
        {
          when: (_g, m, detail) => {
            const a = attemptsIn(detail());
            return a.length === 2 && a[0].code === 200 && a[1].code === 409 && noted(m, a);
          },
          text: (_g, m) =>
            `alice's is stored at revision ${m.won}; bob's, also sent with resourceVersion "${m.sent}", gets 409 Conflict: ${m.refusal}.`,
        },
        {
          // bob runs his commands again a moment later, once the Deployment controller has acted on alice's write.
          when: (g, m) => webOf(g)?.replicaSets.some((rs) => rs.replicas === Number(m.from) + Number(m.add)) ?? false,
          text: () => 'bob reads web again and redoes his change:',
          then: (_g, m) => [race(Number(m.add), [WRITERS[1]])],
        },
        {
          when: (_g, m, detail) => {
            const a = attemptsIn(detail());
            return a.length === 3 && a[2].code === 200 && noted(m, a);
          },
          text: (g, m) =>
            `sent with resourceVersion "${m.retrySent}", it is stored at revision ${m.retried}, spec.replicas ${webOf(g)!.replicas}. Both changes count; had bob's first write been stored, alice's would be lost.`,
        },
        {
          when: (g) => livePodsOf(g).length === webOf(g)?.replicas && readyPodsOf(g).length === webOf(g)?.replicas,
          text: (g) => {
            const n = webOf(g)!.replicas;
            return `${count(n, 'pod')} of web ${agree(n, 'is', 'are')} ready.`;
          },
        },
      ],
    };
  },
};

/** alice and bob, two users with the cluster's admin rights: their requests are logged under their names. */
function writers(): ClusterAddon {
  const identities = Object.fromEntries(WRITERS.map((u) => [u, { user: u, rules: [R(['*'], ['*'])] }]));
  return { name: 'writers', defs: [], identities, instances: () => [] };
}

/** The `conflict` widget: two writes from one resourceVersion; the second is refused with 409 Conflict and retried. */
export const conflictWidget: FigureDef<Detail> = {
  actions: figureActions,
  id: 'conflict',
  title: 'Two writers, one resourceVersion',
  options: { seed: 1, nodes: 3 },
  demos: [setupDemo(REPLICAS), replace],
  story: ['setup', 'race'],
  opening: 1,
  addons: () => [writers()],
  leavesOut: [
    'The widget opens with web already running 3 pods.',
    'alice and bob write the whole object back (kubectl replace); kubectl scale or a patch without a resourceVersion would not be checked, and the later one would simply win.',
    'bob retries by hand here; a controller does the same through client-go (RetryOnConflict, or requeueing its key), reading the newest copy first.',
  ],
  detail: (cluster) => ({ race: conflictOf(cluster) }),
};
