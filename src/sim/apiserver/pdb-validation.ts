// ValidatePodDisruptionBudget (pkg/apis/policy/validation): a part of the API server registered as the
// `poddisruptionbudgets` validator (config.validators) with kubectl's part (kubectl-extras.ts): only
// kubectl (or a link's replay of its requests) writes a PodDisruptionBudget, so neither the core nor a
// figure's request checks carry it.
import type { Unstructured } from '../api/unstructured.ts';
import { type FieldError, GoValue } from '../api/status.ts';
import { PERCENT, intOrPercentValue, nonNegative, notSupported, validateLabelSelector } from './validation.ts';
import type { Validator } from './config.ts';
import { regexError } from '../api/name-validation.ts';

/**
 * An IntOrString as a 1.37 field error prints it: json.Marshal of the value (`"150%"`, `3`), which
 * ErrorBody tries before any %#v.
 */
function jsonIntOrString(v: number | string): GoValue {
  return new GoValue(JSON.stringify(v));
}

/** ValidatePositiveIntOrPercent and IsNotMoreThan100Percent of one PDB bound. */
function validatePdbBound(v: number | string, field: string): FieldError[] {
  if (typeof v === 'number') return nonNegative(v, field);
  if (!PERCENT.test(v))
    return [
      {
        type: 'Invalid',
        field,
        value: jsonIntOrString(v),
        detail: regexError(
          "a valid percent string must be a numeric string followed by an ending '%'",
          '[0-9]+%',
          '1%',
          '93%',
        ),
      },
    ];
  return intOrPercentValue(v) > 100
    ? [{ type: 'Invalid', field, value: jsonIntOrString(v), detail: 'must not be greater than 100%' }]
    : [];
}

/**
 * ValidatePodDisruptionBudgetSpec: one bound at most, each a non-negative number or a percent up to
 * 100%, and a valid selector. (The both-set error's value is the internal spec, which json.Marshal
 * renders under the Go field names: oracle/traces/pdb-refusals.json.)
 */
function validatePodDisruptionBudgetSpec(spec: Unstructured): FieldError[] {
  const errs: FieldError[] = [];
  const has = (v: unknown): v is number | string => v !== undefined && v !== null;
  if (has(spec.minAvailable) && has(spec.maxUnavailable)) {
    // The internal struct has no json tags: its fields print under their Go names (the selector is metav1's, tagged).
    const shown = {
      MinAvailable: spec.minAvailable,
      Selector: spec.selector ?? null,
      MaxUnavailable: spec.maxUnavailable,
      UnhealthyPodEvictionPolicy: spec.unhealthyPodEvictionPolicy ?? null,
    };
    errs.push({
      type: 'Invalid',
      field: 'spec',
      value: new GoValue(JSON.stringify(shown)),
      detail: 'minAvailable and maxUnavailable cannot be both set',
    });
  }
  if (has(spec.minAvailable)) errs.push(...validatePdbBound(spec.minAvailable, 'spec.minAvailable'));
  if (has(spec.maxUnavailable)) errs.push(...validatePdbBound(spec.maxUnavailable, 'spec.maxUnavailable'));
  if (spec.selector) errs.push(...validateLabelSelector(spec.selector, 'spec.selector').errs);
  const policy = spec.unhealthyPodEvictionPolicy;
  if (has(policy) && policy !== 'IfHealthyBudget' && policy !== 'AlwaysAllow')
    errs.push(notSupported('spec.unhealthyPodEvictionPolicy', policy, ['AlwaysAllow', 'IfHealthyBudget']));
  return errs;
}

/** The `poddisruptionbudgets` validator: ValidatePodDisruptionBudget on create and on a change of spec (a status write keeps the stored spec). */
export const PDB_VALIDATION: Validator = (obj, old) =>
  old && obj.spec === old.spec ? [] : validatePodDisruptionBudgetSpec((obj.spec as Unstructured | undefined) ?? {});
