// The memos of rbac.ts: behaviour-side caches that only make it faster. They are never
// simulation state (WorldState does not hold them, snapshot/restore need not see them), and an
// answer read through them is the one rbac.ts computes without them.

import type { PolicyRule } from '../api/identity.ts';
import type { Verb } from '../api/request.ts';

/**
 * Every request is authorised: remember each rule set's answer per verb and resource (rules never
 * change once an identity exists; a behaviour-side cache keyed by the rules array).
 * (The memo behind rbac.ts' ruleAllowsCached.)
 */
const ruleAnswers = new WeakMap<PolicyRule[], Map<string, Map<string, boolean>>>();
let lastRules: PolicyRule[] | undefined;
let lastAnswers: Map<string, Map<string, boolean>> | undefined;

/** `allows(rules, verb, res)` (rbac.ts' ruleAllows), remembered per rules array, verb and resource. */
export function ruleAllowsCached(
  rules: PolicyRule[],
  verb: Verb,
  res: string,
  allows: (rules: PolicyRule[], verb: Verb, res: string) => boolean,
): boolean {
  let byVerb = rules === lastRules ? lastAnswers : ruleAnswers.get(rules);
  if (!byVerb) ruleAnswers.set(rules, (byVerb = new Map()));
  lastRules = rules;
  lastAnswers = byVerb;
  let m = byVerb.get(verb);
  if (!m) byVerb.set(verb, (m = new Map()));
  let a = m.get(res);
  if (a === undefined) m.set(res, (a = allows(rules, verb, res)));
  return a;
}
