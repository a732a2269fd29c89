import type { Node, NodeSelectorRequirement, NodeSelectorTerm, Pod } from './k8s-types.ts';
import type { FilterPlugin, ScorePlugin } from './framework.ts';
import { MAX_NODE_SCORE, SUCCESS, defaultNormalizeScore, newStatus } from './framework.ts';

// component-helpers/scheduling/corev1/nodeaffinity: nodeSelector AND required node affinity;
// terms are ORed, the requirements inside a term ANDed; an empty or invalid term matches nothing.

/** ErrReasonPod (nodeaffinity/node_affinity.go). */
const ERR_REASON_POD = "node(s) didn't match Pod's node affinity/selector";

const INT_RE = /^[+-]?\d+$/;

/** One matchExpressions requirement against node labels; undefined when the requirement is invalid. */
export function nodeSelectorRequirementMatches(
  req: NodeSelectorRequirement,
  labels: Record<string, string>,
): boolean | undefined {
  const values = req.values ?? [];
  const has = Object.prototype.hasOwnProperty.call(labels, req.key);
  switch (req.operator) {
    case 'In':
      if (values.length === 0) return undefined;
      return has && values.includes(labels[req.key]);
    case 'NotIn':
      if (values.length === 0) return undefined;
      return !has || !values.includes(labels[req.key]);
    case 'Exists':
      if (values.length !== 0) return undefined;
      return has;
    case 'DoesNotExist':
      if (values.length !== 0) return undefined;
      return !has;
    case 'Gt':
    case 'Lt': {
      // labels.Requirement parses both sides as int64; a label that isn't a number never matches.
      if (values.length !== 1 || !INT_RE.test(values[0])) return undefined;
      if (!has || !INT_RE.test(labels[req.key])) return false;
      const lv = BigInt(labels[req.key]);
      const rv = BigInt(values[0]);
      return req.operator === 'Gt' ? lv > rv : lv < rv;
    }
    default:
      return undefined;
  }
}

function fieldRequirementMatches(req: NodeSelectorRequirement, nodeName: string): boolean | undefined {
  // Only metadata.name is a supported node field, with In/NotIn and exactly one value.
  if (req.key !== 'metadata.name' || (req.values ?? []).length !== 1) return undefined;
  if (req.operator === 'In') return req.values![0] === nodeName;
  if (req.operator === 'NotIn') return req.values![0] !== nodeName;
  return undefined;
}

/** nodeSelectorTerm.match. */
export function nodeSelectorTermMatches(term: NodeSelectorTerm, node: Node): boolean {
  const exprs = term.matchExpressions ?? [];
  const fields = term.matchFields ?? [];
  if (exprs.length === 0 && fields.length === 0) return false;
  const labels = node.metadata?.labels ?? {};
  for (const r of exprs) if (nodeSelectorRequirementMatches(r, labels) !== true) return false;
  const name = node.metadata?.name ?? '';
  for (const r of fields) if (fieldRequirementMatches(r, name) !== true) return false;
  return true;
}

/** MatchNodeSelectorTerms: any term matches. */
function matchNodeSelectorTerms(terms: NodeSelectorTerm[], node: Node): boolean {
  return terms.some((t) => nodeSelectorTermMatches(t, node));
}

/** RequiredNodeAffinity.Match: the pod's nodeSelector and required node affinity both hold. */
export function requiredNodeAffinityMatches(pod: Pod, node: Node): boolean {
  const nodeSelector = pod.spec?.nodeSelector;
  const required = pod.spec?.affinity?.nodeAffinity?.requiredDuringSchedulingIgnoredDuringExecution;
  // Fast path: most pods constrain nothing, and this runs for every node of every cycle.
  if (!nodeSelector && !required) return true;
  const labels = node.metadata?.labels ?? {};
  for (const k in nodeSelector) {
    if (labels[k] !== nodeSelector[k]) return false;
  }
  if (required) return matchNodeSelectorTerms(required.nodeSelectorTerms ?? [], node);
  return true;
}

/** errReasonConflict: every required term pins metadata.name, and no name satisfies them all. */
const ERR_REASON_CONFLICT = 'pod affinity terms conflict';

/** NodeAffinity PreFilter: terms that all pin metadata.name (as DaemonSet pods do) narrow the nodes to those names. */
function nodeAffinityPreFilterNodeNames(pod: Pod): string[] | undefined | 'conflict' {
  const terms =
    pod.spec?.affinity?.nodeAffinity?.requiredDuringSchedulingIgnoredDuringExecution?.nodeSelectorTerms ?? [];
  if (terms.length === 0) return undefined;
  let nodeNames: Set<string> | undefined;
  for (const t of terms) {
    let termNames: Set<string> | undefined;
    for (const r of t.matchFields ?? []) {
      if (r.key !== 'metadata.name' || r.operator !== 'In') continue;
      // Requirements in a term are ANDed: intersect.
      const s = new Set(r.values ?? []);
      termNames = termNames ? new Set([...termNames].filter((n) => s.has(n))) : s;
    }
    // A term without a name requirement admits every node, since terms are ORed.
    if (!termNames) return undefined;
    nodeNames = new Set([...(nodeNames ?? []), ...termNames]);
  }
  if (nodeNames && nodeNames.size === 0) return 'conflict';
  return nodeNames ? [...nodeNames].sort() : undefined;
}

/** NodeAffinity Filter. */
export const nodeAffinityFilter: FilterPlugin = {
  name: 'NodeAffinity',
  preFilter(pod) {
    const names = nodeAffinityPreFilterNodeNames(pod);
    if (names === 'conflict') return { status: newStatus('UnschedulableAndUnresolvable', ERR_REASON_CONFLICT) };
    return names ? { nodeNames: names } : undefined;
  },
  filter(pod, nodeInfo) {
    return requiredNodeAffinityMatches(pod, nodeInfo.node)
      ? SUCCESS
      : newStatus('UnschedulableAndUnresolvable', ERR_REASON_POD);
  },
};

/** PreferredSchedulingTerms.Score: sum of the weights of the matching preferred terms. */
function preferredNodeAffinityScore(pod: Pod, node: Node): number {
  let count = 0;
  for (const t of pod.spec?.affinity?.nodeAffinity?.preferredDuringSchedulingIgnoredDuringExecution ?? []) {
    if (!t.weight) continue;
    if (nodeSelectorTermMatches(t.preference, node)) count += t.weight;
  }
  return count;
}

/** NodeAffinity Score (weight 2): preferred terms, normalized so the best node gets 100. */
export const nodeAffinityScore: ScorePlugin = {
  name: 'NodeAffinity',
  weight: 2,
  preScore(pod) {
    // PreScore returns Skip when the pod has no preferred terms.
    return (pod.spec?.affinity?.nodeAffinity?.preferredDuringSchedulingIgnoredDuringExecution ?? []).length > 0;
  },
  score(pod, nodeInfo) {
    return preferredNodeAffinityScore(pod, nodeInfo.node);
  },
  normalize(scores) {
    defaultNormalizeScore(MAX_NODE_SCORE, false, scores);
  },
};
