// Permalinks: a moment of a simulation (seed, cluster options, the recorded inputs, a step) as a
// short URL-safe string, and the decoder that treats such a string as the untrusted input it is.
// Format: "a" + base64url(UTF-8(JSON of a positional array)), or "b" + the same bytes LZ77-packed when
// that is shorter; codes replace verbs, resources, fault and event types. Everything here is pure TypeScript (no Buffer, no btoa/atob, no TextEncoder).
import {
  CONTROLLER_MANAGER,
  KUBE_CONTROLLER_MANAGER,
  PROCESSES as CONTROL_PLANE_PROCESSES,
  createCluster,
  type Cluster,
} from './cluster.ts';
import type { ApiRequest, RequestOptions, Verb } from './api/request.ts';
import { Timeline } from './time-travel.ts';
import type { FaultInput, Input } from './world.ts';
import type { ClusterOptions } from './cluster-types.ts';
import { UNKNOWN_CLIENT } from './api/identity.ts';
import { installKubectlExtras } from './kubectl-extras.ts';
import { constructionInputs } from './permalink-cache.ts';

/** kubectl's part of the API server and the optional parts it brings, for a figure that replays a link (its terminal commands). */
export { installKubectlExtras } from './kubectl-extras.ts';

/** A moment: enough to rebuild the cluster exactly (same seed and inputs ⇒ same bytes) and stand at `step`. */
export interface Moment {
  v: 1;
  /** The chapter figure or example this came from (a slug). */
  scenario?: string;
  seed: number;
  options: { nodes: number; kubeadm: boolean };
  /** The inputs after the cluster's construction, as the world recorded them (t and step). */
  inputs: Input[];
  /** The timeline step index to stand at (0 = the freshly built cluster). */
  step: number;
  /**
   * The world's hash at that step when the link was made (8 hex digits): a later version of the
   * simulation that plays the same inputs differently is told apart from the one that made the link.
   */
  check?: string;
  /**
   * The cluster had run on past its step (simulated time at Play's real-time pace, `sim advance`,
   * `sim settle`), silently, to this many events and this simulated time: restoring runs on to them
   * (Timeline.runOn), so the link opens on the frame it was made at, not at the step's start.
   */
  beyond?: { events: number; t: number };
}

/** What decoding a link gives: the moment, or a message a reader can understand. */
export type DecodeResult = { ok: true; moment: Moment } | { ok: false; error: string };

/** What encoding gives: the link text, or why this moment cannot be shared as a link. */
export type EncodeResult = { ok: true; link: string } | { ok: false; error: string };

/** What restoring gives: a timeline standing at the moment's step, or why it could not be rebuilt. */
export type RestoreResult =
  { ok: true; timeline: Timeline; cluster: Cluster; warning?: string } | { ok: false; error: string };

/** What restoreMoment says when the replayed moment is not the one the link was made at. */
export const DRIFT_WARNING =
  'This link was made by an earlier version of the simulation: the moment it names now plays out differently.';

/** The bounds a link must respect (an encoded link is at most 16 KiB; a replay is bounded in events). */
export const PERMALINK_LIMITS = {
  maxChars: 16 * 1024,
  maxInputs: 500,
  maxStep: 10_000,
  /** Simulated ms an input may be at (2 h). */
  maxT: 2 * 3600_000,
  /**
   * Events a replay may process (also the largest input step): the node-failure figure's story takes
   * ~40,000 (its 300 s evictions and the returns); ~30,000 replay in a second in a worker on this
   * project's machines, so a link costs at most a few seconds there, never the main thread.
   */
  maxEvents: 100_000,
  maxNodes: 20,
  maxReplicas: 100,
  maxLatencyMs: 60_000,
  maxGraceSeconds: 3600,
  /** Text a crashed container may leave in its log. */
  maxLogChars: 2000,
  maxDepth: 16,
  maxString: 2048,
  maxArray: 256,
  maxKeys: 128,
} as const;

/** Link formats: "a" = the bytes as they are, "b" = the bytes LZ77-packed (used when shorter). */
const RAW = 'a';
const PACKED = 'b';
/** Largest unpacked payload a link may expand to (a packed link cannot be a decompression bomb). */
const MAX_UNPACKED = 64 * 1024;
// kubectl's own watches (wait, rollout status, get -w, delete's wait) came after the others: new codes go at the end.
const VERBS: readonly Verb[] = ['get', 'list', 'create', 'update', 'patch', 'delete', 'watch'];
// New codes go at the end, so links made before them still decode.
const RESOURCE_CODES = [
  'namespaces',
  'nodes',
  'leases',
  'pods',
  'deployments',
  'replicasets',
  'services',
  'endpointslices',
  'events',
  'selfsubjectaccessreviews',
  'priorityclasses',
  'poddisruptionbudgets',
  'serviceaccounts',
  'configmaps',
] as const;
const SUBRESOURCES: Record<string, readonly string[]> = {
  namespaces: ['status'],
  nodes: ['status'],
  pods: ['status', 'binding', 'eviction', 'log'],
  deployments: ['status', 'scale'],
  replicasets: ['status', 'scale'],
  services: ['status'],
  poddisruptionbudgets: ['status'],
  serviceaccounts: ['token'],
};
const FAULTS = [
  'apiserver-down',
  'apiserver-up',
  'etcd-down',
  'etcd-up',
  'etcd-full',
  'etcd-space-freed',
  'api-latency',
  'partition',
  'heal',
  'image-missing',
  'image-available',
] as const;
const EVENTS = ['power-off', 'power-on', 'partition', 'heal', 'crash', 'set-health'] as const;
// `kubectl`: its watch inbox, added while a command watches (kubectl/watch-inbox.ts).
// The leader-electing processes (cluster.ts PROCESSES) came last: the older codes still decode.
const ELECTORS = Object.values(CONTROL_PLANE_PROCESSES);
const PROCESSES: readonly string[] = ['scheduler', ...CONTROLLER_MANAGER, 'kubectl', ...ELECTORS.map(([name]) => name)];
/** The type a control-plane component is started as (its name, or a leader elector's). */
function processType(name: string): string {
  return ELECTORS.find(([n]) => n === name)?.[1] ?? name;
}
/** The options a control-plane component is started with (kube-controller-manager's controllers share its watches). */
function processOptions(name: string): object {
  if (name === 'kubectl') return { reactionMs: [0, 0] };
  const elector = ELECTORS.find(([n]) => n === name);
  if (elector) return elector[2];
  return (CONTROLLER_MANAGER as readonly string[]).includes(name) ? { process: KUBE_CONTROLLER_MANAGER } : {};
}
const KIND = { request: 0, fault: 1, event: 2, 'add-component': 3, 'remove-component': 4 } as const;

const NAME_RE = /^[A-Za-z0-9._:-]{1,253}$/;
/** A user or group name for impersonation (printable, no spaces or quotes). */
const USER_RE = /^[A-Za-z0-9._:@/-]{1,253}$/;
const NAMESPACE_RE = /^[a-z0-9]([-a-z0-9]{0,61}[a-z0-9])?$/;
const NODE_RE = /^[a-z0-9]([-a-z0-9]{0,61}[a-z0-9])?$/;
const IMAGE_RE = /^[A-Za-z0-9._/:@-]{1,255}$/;
const SCENARIO_RE = /^[a-z0-9][a-z0-9-]{0,63}$/;
const CHECK_RE = /^[0-9a-f]{8}$/;
function isForbiddenKey(k: string): boolean {
  return k === '__proto__' || k === 'constructor' || k === 'prototype';
}

// ——— bytes: UTF-8 and base64url, by hand ———

const B64 = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_';

function utf8Encode(s: string): number[] {
  const out: number[] = [];
  for (let i = 0; i < s.length; i++) {
    let c = s.charCodeAt(i);
    if (c >= 0xd800 && c <= 0xdbff && i + 1 < s.length) {
      const d = s.charCodeAt(i + 1);
      if (d >= 0xdc00 && d <= 0xdfff) {
        c = 0x10000 + ((c - 0xd800) << 10) + (d - 0xdc00);
        i++;
      }
    }
    if (c >= 0xd800 && c <= 0xdfff) c = 0xfffd; // a lone surrogate cannot be encoded
    if (c < 0x80) out.push(c);
    else if (c < 0x800) out.push(0xc0 | (c >> 6), 0x80 | (c & 63));
    else if (c < 0x10000) out.push(0xe0 | (c >> 12), 0x80 | ((c >> 6) & 63), 0x80 | (c & 63));
    else out.push(0xf0 | (c >> 18), 0x80 | ((c >> 12) & 63), 0x80 | ((c >> 6) & 63), 0x80 | (c & 63));
  }
  return out;
}

/** Strict UTF-8 (no overlongs, no surrogates, nothing past U+10FFFF); undefined when invalid. */
function utf8Decode(b: readonly number[]): string | undefined {
  let s = '';
  for (let i = 0; i < b.length;) {
    const x = b[i];
    let c: number;
    let n: number;
    if (x < 0x80) {
      c = x;
      n = 0;
    } else if (x >= 0xc2 && x < 0xe0) {
      c = x & 31;
      n = 1;
    } else if (x >= 0xe0 && x < 0xf0) {
      c = x & 15;
      n = 2;
    } else if (x >= 0xf0 && x < 0xf5) {
      c = x & 7;
      n = 3;
    } else return undefined;
    for (let k = 1; k <= n; k++) {
      const y = b[i + k];
      if (y === undefined || (y & 0xc0) !== 0x80) return undefined;
      c = (c << 6) | (y & 63);
    }
    if ((n === 2 && c < 0x800) || (n === 3 && (c < 0x10000 || c > 0x10ffff)) || (c >= 0xd800 && c <= 0xdfff))
      return undefined;
    s += String.fromCodePoint(c);
    i += n + 1;
  }
  return s;
}

function base64url(bytes: readonly number[]): string {
  let s = '';
  for (let i = 0; i < bytes.length; i += 3) {
    const n = (bytes[i] << 16) | ((bytes[i + 1] ?? 0) << 8) | (bytes[i + 2] ?? 0);
    s += B64[(n >> 18) & 63] + B64[(n >> 12) & 63];
    if (i + 1 < bytes.length) s += B64[(n >> 6) & 63];
    if (i + 2 < bytes.length) s += B64[n & 63];
  }
  return s;
}

/** Bytes of an unpadded base64url string; undefined on a foreign character or an impossible length. */
function unbase64url(s: string): number[] | undefined {
  if (s.length % 4 === 1) return undefined;
  const out: number[] = [];
  let acc = 0;
  let bits = 0;
  for (let i = 0; i < s.length; i++) {
    const v = B64.indexOf(s[i]);
    if (v < 0) return undefined;
    acc = ((acc << 6) | v) & 0xffffff;
    bits += 6;
    if (bits >= 8) {
      bits -= 8;
      out.push((acc >> bits) & 255);
    }
  }
  // Canonical form only: the leftover bits must be zero, so each link has one spelling.
  if (bits > 0 && (acc & ((1 << bits) - 1)) !== 0) return undefined;
  return out;
}

// ——— packing: a small LZ77 (control byte < 128: that many + 1 literals follow; ≥ 128: a match of
// c − 125 bytes at a varint distance back) ———

const MIN_MATCH = 3;
const MAX_MATCH = 130;
const WINDOW = 8192;

function pack(b: readonly number[]): number[] {
  const out: number[] = [];
  const heads = new Map<number, number[]>();
  let lit: number[] = [];
  const flush = () => {
    for (let i = 0; i < lit.length; i += 128) {
      const run = lit.slice(i, i + 128);
      out.push(run.length - 1, ...run);
    }
    lit = [];
  };
  const key = (i: number) => (b[i] << 16) | (b[i + 1] << 8) | b[i + 2];
  const remember = (i: number) => {
    if (i + 2 < b.length) {
      const k = key(i);
      const l = heads.get(k);
      if (l) {
        l.push(i);
        if (l.length > 32) l.shift();
      } else heads.set(k, [i]);
    }
  };
  let i = 0;
  while (i < b.length) {
    let bestLen = 0;
    let bestDist = 0;
    if (i + 2 < b.length) {
      const cands = heads.get(key(i)) ?? [];
      for (let c = cands.length - 1; c >= 0; c--) {
        const j = cands[c];
        if (i - j > WINDOW) break;
        let n = 0;
        while (n < MAX_MATCH && i + n < b.length && b[j + n] === b[i + n]) n++;
        if (n > bestLen) {
          bestLen = n;
          bestDist = i - j;
        }
      }
    }
    if (bestLen >= MIN_MATCH) {
      flush();
      out.push(128 + bestLen - MIN_MATCH);
      for (let d = bestDist; ; d >>>= 7) {
        if (d < 128) {
          out.push(d);
          break;
        }
        out.push(128 | (d & 127));
      }
      for (let k = 0; k < bestLen; k++) remember(i + k);
      i += bestLen;
    } else {
      lit.push(b[i]);
      remember(i);
      i++;
    }
  }
  flush();
  return out;
}

/** Unpack, checking every back-reference and the output size; undefined when damaged. */
function unpack(b: readonly number[]): number[] | undefined {
  const out: number[] = [];
  let i = 0;
  while (i < b.length) {
    const c = b[i++];
    if (c < 128) {
      if (i + c + 1 > b.length) return undefined;
      for (let k = 0; k <= c; k++) out.push(b[i + k]);
      i += c + 1;
    } else {
      const len = c - 128 + MIN_MATCH;
      let d = 0;
      for (let shift = 0; ; shift += 7) {
        if (i >= b.length || shift > 21) return undefined;
        const x = b[i++];
        d |= (x & 127) << shift;
        if (x < 128) break;
      }
      if (d < 1 || d > out.length || d > WINDOW) return undefined;
      for (let k = 0; k < len; k++) out.push(out[out.length - d]);
    }
    if (out.length > MAX_UNPACKED) return undefined;
  }
  return out;
}

// ——— encoding ———

type Wire = unknown[];

/** Drop empty optional fields at the end (never the first `keep`). */
function trimTrailing(a: unknown[], keep: number): unknown[] {
  let n = a.length;
  while (n > keep && (a[n - 1] === '' || a[n - 1] === 0 || a[n - 1] === undefined)) n--;
  return a.slice(0, n);
}

/**
 * The clients whose requests a link can carry, by code (0, kubectl's admin identity, is left out of
 * the wire): the figures also send as a client with credentials the API server does not know, and
 * as the two users of the conflict widget (figures/conflict-widget.ts). Codes are only ever appended,
 * so older links keep their meaning.
 */
export const LINK_CLIENTS = ['kubectl', UNKNOWN_CLIENT, 'alice', 'bob'] as const;

function inputToWire(inp: Input, prevT: number, prevStep: number): Wire {
  const head = [KIND[inp.kind], inp.t - prevT, inp.step - prevStep];
  switch (inp.kind) {
    case 'request': {
      const r = inp.request;
      const client = (LINK_CLIENTS as readonly string[]).indexOf(inp.component);
      if (client < 0)
        throw new Error(`a request made as ${inp.component} (only ${LINK_CLIENTS.join(', ')} can be shared)`);
      return trimTrailing(
        [
          ...head,
          VERBS.indexOf(r.verb),
          (RESOURCE_CODES as readonly string[]).indexOf(r.resource),
          r.namespace ?? '',
          r.name ?? '',
          r.subresource ?? '',
          r.body ?? 0,
          r.options ?? 0,
          client,
        ],
        5,
      );
    }
    case 'fault': {
      const f = inp.fault;
      const arg =
        f.type === 'api-latency'
          ? f.ms
          : f.type === 'partition' || f.type === 'heal'
            ? f.component
            : f.type === 'image-missing' || f.type === 'image-available'
              ? f.image
              : undefined;
      return arg === undefined ? [...head, FAULTS.indexOf(f.type)] : [...head, FAULTS.indexOf(f.type), arg];
    }
    case 'event': {
      const { type, ...rest } = inp.event as { type: string };
      const node = inp.target.startsWith('kubelet/') ? inp.target.slice(8) : '';
      const w: Wire = [...head, node, (EVENTS as readonly string[]).indexOf(type)];
      if (Object.keys(rest).length > 0) w.push(rest);
      return w;
    }
    case 'add-component':
      // Only a control-plane process restarted as the cluster starts it: the options are implied by the name.
      if (
        inp.type !== processType(inp.name) ||
        JSON.stringify(inp.opts ?? {}) !== JSON.stringify(processOptions(inp.name))
      )
        throw new Error(`component ${inp.name} was added with options`);
      return [...head, PROCESSES.indexOf(inp.name)];
    case 'remove-component':
      return [...head, PROCESSES.indexOf(inp.name)];
  }
}

/** The link text of a moment (validated exactly as the decoder would, so every link made decodes). */
export function encodeMoment(m: Moment): EncodeResult {
  try {
    const wire: Wire = [m.v, m.seed, m.options.nodes, m.options.kubeadm ? 1 : 0, m.step, m.scenario ?? ''];
    let t = 0;
    let step = 0;
    const inputs: Wire[] = [];
    for (const inp of m.inputs) {
      inputs.push(inputToWire(inp, t, step));
      t = inp.t;
      step = inp.step;
    }
    wire.push(inputs);
    if (m.check !== undefined) wire.push(m.check);
    if (m.beyond !== undefined) {
      if (m.check === undefined)
        return { ok: false, error: 'this moment cannot be shared as a link: a moment past its step needs its check' };
      wire.push([m.beyond.events, m.beyond.t]);
    }
    const checked = fromWire(JSON.parse(JSON.stringify(wire)));
    if (!checked.ok) return { ok: false, error: `this moment cannot be shared as a link: ${checked.error}` };
    const bytes = utf8Encode(JSON.stringify(wire));
    const packed = pack(bytes);
    const link = packed.length < bytes.length ? PACKED + base64url(packed) : RAW + base64url(bytes);
    if (link.length > PERMALINK_LIMITS.maxChars)
      return {
        ok: false,
        error: `this moment is too long to share as a link (${link.length} characters; at most ${PERMALINK_LIMITS.maxChars})`,
      };
    return { ok: true, link };
  } catch (e) {
    return { ok: false, error: `this moment cannot be shared as a link: ${(e as Error).message}` };
  }
}

// ——— decoding and validation ———

class Invalid extends Error {}

function fail(msg: string): never {
  throw new Invalid(msg);
}

function int(v: unknown, what: string, min: number, max: number): number {
  if (typeof v !== 'number' || !Number.isInteger(v)) fail(`${what} must be a whole number`);
  if (v < min || v > max) fail(`${what} must be between ${min} and ${max} (got ${v})`);
  return v;
}

function str(v: unknown, what: string, re: RegExp): string {
  if (typeof v !== 'string') fail(`${what} must be text`);
  if (!re.test(v)) fail(`${what} "${v.length > 40 ? v.slice(0, 40) + '…' : v}" is not a valid value`);
  return v;
}

function code<T>(v: unknown, what: string, table: readonly T[]): T {
  if (typeof v !== 'number' || !Number.isInteger(v) || v < 0 || v >= table.length)
    fail(`unknown ${what} (${JSON.stringify(v)?.slice(0, 20)})`);
  return table[v];
}

/** A JSON value of bounded size and depth, with no prototype-polluting keys and sane replica counts. */
function checkJson(v: unknown, what: string, depth: number): void {
  const L = PERMALINK_LIMITS;
  if (depth > L.maxDepth) fail(`${what} is nested too deeply`);
  if (v === null || typeof v === 'boolean') return;
  if (typeof v === 'number') {
    if (!Number.isFinite(v) || Math.abs(v) > 1e12) fail(`${what} has a number out of range`);
    return;
  }
  if (typeof v === 'string') {
    if (v.length > L.maxString) fail(`${what} has a text value that is too long`);
    return;
  }
  if (Array.isArray(v)) {
    if (v.length > L.maxArray) fail(`${what} has a list that is too long`);
    for (const x of v) checkJson(x, what, depth + 1);
    return;
  }
  if (typeof v !== 'object') fail(`${what} is not JSON data`);
  const keys = Object.keys(v);
  if (keys.length > L.maxKeys) fail(`${what} has too many fields`);
  for (const k of keys) {
    if (isForbiddenKey(k) || k.length > 253) fail(`${what} has a forbidden field name`);
    const x = (v as Record<string, unknown>)[k];
    if (k === 'replicas' && x !== null && typeof x !== 'object') int(x, `${what}: replicas`, 0, L.maxReplicas);
    checkJson(x, what, depth + 1);
  }
}

function isPlainObject(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

function checkOptions(v: unknown, what: string): RequestOptions {
  if (!isPlainObject(v)) fail(`${what} must be an object`);
  const o: RequestOptions = {};
  for (const [k, x] of Object.entries(v)) {
    switch (k) {
      case 'resourceVersion':
      case 'labelSelector':
      case 'fieldSelector':
        if (typeof x !== 'string' || x.length > 1024) fail(`${what}.${k} must be short text`);
        o[k] = x;
        break;
      case 'limit':
        o.limit = int(x, `${what}.limit`, 1, 10_000);
        break;
      case 'timeoutSeconds':
        o.timeoutSeconds = int(x, `${what}.timeoutSeconds`, 1, 3600);
        break;
      case 'gracePeriodSeconds':
        o.gracePeriodSeconds = int(x, `${what}.gracePeriodSeconds`, 0, PERMALINK_LIMITS.maxGraceSeconds);
        break;
      case 'dryRun':
        if (typeof x !== 'boolean') fail(`${what}.dryRun must be true or false`);
        o.dryRun = x;
        break;
      case 'patchType':
        if (x !== 'strategic' && x !== 'merge' && x !== 'json')
          fail(`${what}.patchType must be strategic, merge or json`);
        o.patchType = x;
        break;
      case 'container':
        if (typeof x !== 'string' || !NAME_RE.test(x)) fail(`${what}.container must be a container name`);
        o.container = x;
        break;
      case 'previous':
      case 'follow':
      case 'sendInitialEvents':
      case 'allowWatchBookmarks':
        if (typeof x !== 'boolean') fail(`${what}.${k} must be true or false`);
        o[k] = x;
        break;
      case 'resourceVersionMatch':
        if (x !== 'NotOlderThan' && x !== 'Exact') fail(`${what}.resourceVersionMatch must be NotOlderThan or Exact`);
        o.resourceVersionMatch = x;
        break;
      case 'fieldManager':
        // kubectl's own managers (kubectl-create, kubectl-client-side-apply, …): a short name.
        if (typeof x !== 'string' || !/^[a-z][a-z-]{0,62}$/.test(x))
          fail(`${what}.fieldManager must be a field manager's name`);
        o.fieldManager = x;
        break;
      case 'fieldValidation':
        if (x !== 'Strict' && x !== 'Warn' && x !== 'Ignore')
          fail(`${what}.fieldValidation must be Strict, Warn or Ignore`);
        o.fieldValidation = x;
        break;
      case 'impersonate': {
        // kubectl's --as (and one --as-group): a user name and groups, as short printable text.
        if (!isPlainObject(x) || typeof x.user !== 'string' || !USER_RE.test(x.user))
          fail(`${what}.impersonate must name a user`);
        const groups = x.groups;
        if (
          groups !== undefined &&
          (!Array.isArray(groups) ||
            groups.length > 8 ||
            !groups.every((g) => typeof g === 'string' && USER_RE.test(g)))
        )
          fail(`${what}.impersonate.groups must be a few group names`);
        if (Object.keys(x).some((k) => k !== 'user' && k !== 'groups'))
          fail(`${what}.impersonate has an unknown field`);
        o.impersonate = groups !== undefined ? { user: x.user, groups: groups as string[] } : { user: x.user };
        break;
      }
      case 'propagationPolicy':
        if (x !== 'Background' && x !== 'Foreground' && x !== 'Orphan')
          fail(`${what}.propagationPolicy must be Background, Foreground or Orphan`);
        o.propagationPolicy = x;
        break;
      case 'preconditions': {
        if (!isPlainObject(x)) fail(`${what}.preconditions must be an object`);
        const p: { uid?: string; resourceVersion?: string } = {};
        for (const [pk, pv] of Object.entries(x)) {
          if ((pk !== 'uid' && pk !== 'resourceVersion') || typeof pv !== 'string' || pv.length > 256)
            fail(`${what}.preconditions has an unknown field`);
          p[pk] = pv;
        }
        o.preconditions = p;
        break;
      }
      default:
        fail(`${what} has an unknown option "${k.slice(0, 30)}"`);
    }
  }
  return o;
}

function kubeletTarget(node: unknown, what: string, nodes: ReadonlySet<string>): string {
  const n = str(node, `${what}: node`, NODE_RE);
  if (!nodes.has(n)) fail(`${what}: there is no node "${n}" in this cluster`);
  return `kubelet/${n}`;
}

function requestFromWire(w: unknown[], what: string): ApiRequest {
  if (w.length > 11) fail(`${what} has too many fields`);
  const verb = code(w[3], `${what}: verb`, VERBS);
  const resource = code(w[4] ?? -1, `${what}: resource`, RESOURCE_CODES);
  const req: ApiRequest = { verb, resource };
  const ns = w[5] ?? '';
  const name = w[6] ?? '';
  const sub = w[7] ?? '';
  if (ns !== '') req.namespace = str(ns, `${what}: namespace`, NAMESPACE_RE);
  if (name !== '') req.name = str(name, `${what}: name`, NAME_RE);
  if (sub !== '') {
    const s = str(sub, `${what}: subresource`, /^[a-z]{1,20}$/);
    if (!(SUBRESOURCES[resource] ?? []).includes(s)) fail(`${what}: ${resource} has no subresource "${s}"`);
    req.subresource = s;
  }
  const opts = w[9] ?? 0;
  const options = opts !== 0 ? checkOptions(opts, `${what}: options`) : undefined;
  const body = w[8] ?? 0;
  if (body !== 0) {
    // A JSON patch (RFC 6902) is a list of operations; every other body is an object.
    const list = verb === 'patch' && options?.patchType === 'json' && Array.isArray(body);
    if (!isPlainObject(body) && !list) fail(`${what}: the request body must be an object`);
    checkJson(body, `${what}: body`, 0);
    req.body = body;
  }
  if ((verb === 'create' || verb === 'update' || verb === 'patch') && req.body === undefined)
    fail(`${what}: a ${verb} needs a body`);
  if (options) req.options = options;
  return req;
}

function faultFromWire(w: unknown[], what: string, nodes: ReadonlySet<string>): FaultInput {
  const type = code(w[3], `${what}: fault type`, FAULTS);
  const arg = w[4];
  const extra = (n: number) => {
    if (w.length > n) fail(`${what} has too many fields`);
  };
  switch (type) {
    case 'api-latency':
      extra(5);
      return { type, ms: int(arg, `${what}: latency ms`, 0, PERMALINK_LIMITS.maxLatencyMs) };
    case 'partition':
    case 'heal': {
      extra(5);
      const c = str(arg, `${what}: component`, /^kubelet\/[a-z0-9-]{1,63}$/);
      kubeletTarget(c.slice(8), what, nodes);
      return { type, component: c };
    }
    case 'image-missing':
    case 'image-available':
      extra(5);
      return { type, image: str(arg, `${what}: image`, IMAGE_RE) };
    default:
      extra(4);
      return { type };
  }
}

/** How a crash-looping app ends each attempt (set-health's exits), or null: every field checked. */
function appExitFromWire(v: unknown, what: string): Record<string, unknown> | null {
  if (v === null) return null;
  if (!isPlainObject(v)) fail(`${what} must be an object or null`);
  const e: Record<string, unknown> = {};
  for (const [k, x] of Object.entries(v)) {
    switch (k) {
      case 'afterMs':
        e.afterMs = int(x, `${what}: afterMs`, 0, PERMALINK_LIMITS.maxT);
        break;
      case 'exitCode':
        e.exitCode = int(x, `${what}: exit code`, 0, 255);
        break;
      case 'oom':
        if (typeof x !== 'boolean') fail(`${what}: oom must be true or false`);
        e.oom = x;
        break;
      case 'log':
        if (typeof x !== 'string' || x.length > PERMALINK_LIMITS.maxLogChars) fail(`${what}: log must be short text`);
        e.log = x;
        break;
      default:
        fail(`${what}: unknown field "${k.slice(0, 30)}"`);
    }
  }
  if (e.afterMs === undefined || e.exitCode === undefined) fail(`${what} needs afterMs and exitCode`);
  return e;
}

function eventFromWire(w: unknown[], what: string): Record<string, unknown> {
  if (w.length > 6) fail(`${what} has too many fields`);
  const type = code(w[4], `${what}: event type`, EVENTS);
  const ev: Record<string, unknown> = { type };
  const rest = w[5];
  if (type === 'crash' || type === 'set-health') {
    if (!isPlainObject(rest)) fail(`${what}: a ${type} needs the pod it concerns`);
    for (const [k, v] of Object.entries(rest)) {
      switch (k) {
        case 'pod':
          ev.pod = str(v, `${what}: pod`, NAME_RE);
          break;
        case 'namespace':
          ev.namespace = str(v, `${what}: namespace`, NAMESPACE_RE);
          break;
        case 'container':
          ev.container = str(v, `${what}: container`, NAME_RE);
          break;
        case 'exitCode':
          if (type !== 'crash') fail(`${what}: exitCode belongs to a crash`);
          ev.exitCode = int(v, `${what}: exit code`, 0, 255);
          break;
        case 'oom':
          if (type !== 'crash' || typeof v !== 'boolean') fail(`${what}: oom must be true or false on a crash`);
          ev.oom = v;
          break;
        case 'log':
          if (type !== 'crash' || typeof v !== 'string' || v.length > PERMALINK_LIMITS.maxLogChars)
            fail(`${what}: log must be short text on a crash`);
          ev.log = v;
          break;
        case 'health': {
          if (type !== 'set-health' || !isPlainObject(v)) fail(`${what}: health must be an object on set-health`);
          const h: Record<string, unknown> = {};
          for (const [hk, hv] of Object.entries(v)) {
            if (hk === 'exits') {
              h.exits = appExitFromWire(hv, `${what}: exits`);
              continue;
            }
            if (!['liveness', 'readiness', 'startup', 'ignoresSigterm'].includes(hk) || typeof hv !== 'boolean')
              fail(`${what}: unknown health field`);
            h[hk] = hv;
          }
          ev.health = h;
          break;
        }
        default:
          fail(`${what}: unknown field "${k.slice(0, 30)}"`);
      }
    }
    if (ev.pod === undefined) fail(`${what}: a ${type} needs the pod it concerns`);
    if (type === 'set-health' && ev.health === undefined) fail(`${what}: set-health needs health`);
  } else if (rest !== undefined) fail(`${what}: a ${type} takes no details`);
  return ev;
}

/** The moment a parsed wire array describes, every field checked; messages name the field. */
function fromWire(wire: unknown): DecodeResult {
  try {
    const L = PERMALINK_LIMITS;
    if (!Array.isArray(wire)) fail('it is not a moment');
    if (wire.length < 7 || wire.length > 9) fail('it is not a moment (wrong number of fields)');
    const check = wire.length >= 8 ? str(wire[7], 'the check', CHECK_RE) : undefined;
    let beyond: Moment['beyond'];
    if (wire.length === 9) {
      const b = wire[8];
      if (!Array.isArray(b) || b.length !== 2) fail('the time past the step is malformed');
      beyond = {
        events: int(b[0], 'the events past the step', 0, L.maxEvents),
        t: int(b[1], 'the time past the step', 0, L.maxT),
      };
    }
    if (wire[0] !== 1)
      fail(`it was made by a newer version of the site (format ${JSON.stringify(wire[0])?.slice(0, 10)})`);
    const seed = int(wire[1], 'the seed', 0, 0xffffffff);
    const nodes = int(wire[2], 'the number of nodes', 1, L.maxNodes);
    const kubeadm = wire[3] === 1 ? true : wire[3] === 0 ? false : fail('the kubeadm option must be 0 or 1');
    const step = int(wire[4], 'the step', 0, L.maxStep);
    let scenario: string | undefined;
    if (wire[5] !== '') scenario = str(wire[5], 'the scenario', SCENARIO_RE);
    const list = wire[6];
    if (!Array.isArray(list)) fail('the inputs must be a list');
    if (list.length > L.maxInputs) fail(`it has too many inputs (${list.length}; at most ${L.maxInputs})`);
    const nodeNames = new Set<string>(Array.from({ length: nodes }, (_, i) => `node-${i + 1}`));
    if (kubeadm) nodeNames.add('control-plane');
    const inputs: Input[] = [];
    let t = 0;
    let at = 0;
    list.forEach((w: unknown, i: number) => {
      const what = `input ${i + 1}`;
      if (!Array.isArray(w) || w.length < 4) fail(`${what} is malformed`);
      const kind = code(w[0], `${what}: kind`, [
        'request',
        'fault',
        'event',
        'add-component',
        'remove-component',
      ] as const);
      t += int(w[1], `${what}: time`, 0, L.maxT);
      at += int(w[2], `${what}: step`, 0, L.maxEvents);
      if (t > L.maxT) fail(`${what} is later than ${L.maxT / 3600_000} simulated hours`);
      if (at > L.maxEvents) fail(`${what} is more than ${L.maxEvents} events into the run`);
      switch (kind) {
        case 'request':
          inputs.push({
            kind,
            t,
            step: at,
            component: code(w[10] ?? 0, `${what}: client`, LINK_CLIENTS),
            request: requestFromWire(w, what),
          });
          break;
        case 'fault':
          inputs.push({ kind, t, step: at, fault: faultFromWire(w, what, nodeNames) });
          break;
        case 'event':
          inputs.push({
            kind,
            t,
            step: at,
            target: kubeletTarget(w[3], what, nodeNames),
            event: eventFromWire(w, what),
          });
          break;
        case 'add-component':
        case 'remove-component': {
          if (w.length !== 4) fail(`${what} is malformed`);
          const name = code(w[3], `${what}: component`, PROCESSES);
          inputs.push(
            kind === 'add-component'
              ? { kind, t, step: at, name, type: processType(name), opts: processOptions(name) }
              : { kind, t, step: at, name },
          );
          break;
        }
      }
    });
    const moment: Moment = { v: 1, seed, options: { nodes, kubeadm }, inputs, step };
    if (scenario !== undefined) moment.scenario = scenario;
    if (check !== undefined) moment.check = check;
    if (beyond !== undefined) moment.beyond = beyond;
    return { ok: true, moment };
  } catch (e) {
    if (e instanceof Invalid) return { ok: false, error: e.message };
    return { ok: false, error: 'it could not be read' };
  }
}

/** The JSON text inside a link, unchecked (for tests and debugging); undefined when it does not unpack. */
export function linkText(link: string): string | undefined {
  try {
    const raw = unbase64url(link.slice(1));
    const bytes = raw && (link[0] === PACKED ? unpack(raw) : link[0] === RAW ? raw : undefined);
    return bytes ? utf8Decode(bytes) : undefined;
  } catch {
    return undefined;
  }
}

/** Decode an untrusted link: never throws; the moment comes back only when every field is valid. */
export function decodeMoment(link: unknown): DecodeResult {
  const bad = (why: string): DecodeResult => ({
    ok: false,
    error: `This link does not describe a simulation: ${why}.`,
  });
  try {
    if (typeof link !== 'string') return bad('it is not text');
    if (link.length > PERMALINK_LIMITS.maxChars)
      return bad(`it is too long (${link.length} characters; at most ${PERMALINK_LIMITS.maxChars})`);
    if (link.length < 2) return bad('it is empty or cut short');
    if (link[0] !== RAW && link[0] !== PACKED)
      return bad('it is in an unknown format (it may come from a newer version of the site)');
    const raw = unbase64url(link.slice(1));
    if (!raw) return bad('it has characters that do not belong, or it was cut short');
    const bytes = link[0] === PACKED ? unpack(raw) : raw;
    if (!bytes) return bad('it is damaged or cut short (its packed data does not unpack)');
    const text = utf8Decode(bytes);
    if (text === undefined) return bad('it is damaged (not valid text inside)');
    let wire: unknown;
    try {
      wire = JSON.parse(text);
    } catch {
      return bad('it is damaged or cut short');
    }
    const r = fromWire(wire);
    return r.ok ? r : bad(r.error);
  } catch {
    return bad('it could not be read');
  }
}

function baseInputCount(options: {
  seed: number;
  nodes: number;
  kubeadm: boolean;
  addons?: ClusterOptions['addons'];
}): number {
  // Add-ons record inputs of their own (their instances, CoreDNS's objects): the traffic figure's cluster has more.
  const key = `${options.nodes}/${options.kubeadm}/${(options.addons ?? []).map((a) => a.name).join(',')}`;
  let n = constructionInputs.get(key);
  if (n === undefined) {
    n = createCluster(options).world.state.inputs.length;
    constructionInputs.set(key, n);
  }
  return n;
}

/**
 * The moment a timeline stands at: its cluster's seed and options, every recorded input after
 * construction (the future after the cursor too, so the reader can step on), and the cursor.
 * The timeline must have started on a freshly built cluster.
 */
export function momentOf(tl: Timeline, scenario?: string): Moment {
  const o = tl.cluster.options;
  const base = baseInputCount(o);
  if (tl.data.bounds.events[0] !== 0 || tl.data.bounds.inputs[0] !== base)
    throw new Error('momentOf: the timeline did not start on a freshly built cluster');
  const at = tl.at();
  const m: Moment = {
    v: 1,
    seed: o.seed,
    options: { nodes: o.nodes, kubeadm: o.kubeadm },
    inputs: tl.data.inputs.slice(base),
    step: at.step,
  };
  if (scenario !== undefined) m.scenario = scenario;
  // The check is the world where the cluster stands: at the step itself, or run on past the last step
  // (silently, between steps), which the moment then says how far.
  const b = tl.data.bounds;
  const past = at.events !== b.events[at.step] || at.t !== b.t[at.step];
  if (past && at.step === tl.length - 1) m.beyond = { events: at.events, t: at.t };
  if (!past || m.beyond) m.check = tl.cluster.world.hash();
  return m;
}

/**
 * The link of the moment a timeline stands at. A link names only the number of nodes, so a cluster
 * of nodes with sizes of their own can be linked only when its scenario (a figure, which restores
 * with those sizes) is named and `sizesFromScenario` says the reader of the link knows them.
 */
export function permalinkOf(tl: Timeline, scenario?: string, opts: { sizesFromScenario?: boolean } = {}): EncodeResult {
  if (tl.cluster.options.nodeCapacity.length && !(scenario !== undefined && opts.sizesFromScenario))
    return {
      ok: false,
      error: 'this moment cannot be shared as a link: its nodes have sizes of their own, which a link cannot carry yet',
    };
  return encodeMoment(momentOf(tl, scenario));
}

/**
 * Rebuild the cluster of a (decoded) moment by replay and stand at its step. Never throws: a moment
 * whose inputs cannot be placed where they were recorded, or whose replay exceeds the event budget,
 * gives a message instead. `maxEvents` lowers the replay budget (default PERMALINK_LIMITS.maxEvents);
 * `nodeCapacity` gives the nodes' sizes when the scenario the link names defines them (a figure), and
 * `addons` the add-ons its cluster runs (the traffic figure's kube-proxy, CoreDNS and client).
 */
export function restoreMoment(
  m: Moment,
  opts: { maxEvents?: number; nodeCapacity?: ClusterOptions['nodeCapacity']; addons?: ClusterOptions['addons'] } = {},
): RestoreResult {
  try {
    const cluster = createCluster({
      seed: m.seed,
      nodes: m.options.nodes,
      kubeadm: m.options.kubeadm,
      nodeCapacity: opts.nodeCapacity,
      addons: opts.addons,
    });
    // A link's inputs may hold terminal commands' requests, which kubectl's part of the API server serves.
    installKubectlExtras(cluster);
    const base = cluster.world.state.inputs.length;
    const timeline = new Timeline(cluster, { maxEvents: opts.maxEvents ?? PERMALINK_LIMITS.maxEvents });
    timeline.load(m.inputs);
    const p = timeline.seek(m.step);
    if (p.step !== m.step)
      return { ok: false, error: `The link points at step ${m.step}, but its run ends at step ${p.step}.` };
    const placed = cluster.world.state.inputs;
    for (let i = base; i < placed.length; i++) {
      const want = m.inputs[i - base];
      if (placed[i].t !== want.t || placed[i].step !== want.step) {
        return {
          ok: false,
          error: `Input ${i - base + 1} of the link could not be replayed where it was recorded (at ${want.t} ms, after ${want.step} events).`,
        };
      }
    }
    if (m.beyond && !timeline.runOn(m.beyond.events, m.beyond.t)) {
      return {
        ok: false,
        error: `The link's moment, ${m.beyond.t - timeline.timeOf(m.step)} ms past step ${m.step}, could not be reached by running on from it.`,
      };
    }
    if (m.check !== undefined && cluster.world.hash() !== m.check)
      return { ok: true, timeline, cluster, warning: DRIFT_WARNING };
    return { ok: true, timeline, cluster };
  } catch (e) {
    return { ok: false, error: `The link could not be replayed: ${(e as Error)?.message ?? 'unknown error'}.` };
  }
}
