// ValidatePriorityClass and ValidatePriorityClassUpdate (pkg/apis/scheduling/validation): a part of
// the API server registered as the `priorityclasses` validator (config.validators) by whoever can send
// a PriorityClass: kubectl's part of the API server (kubectl-extras.ts) and a link's replay. The
// figures' core never validates one: the only classes it writes are the two system classes of the
// bootstrap, which this validation accepts (priority-class-validation.test.ts) and admission.ts
// lets through without it; any other write without the part is refused as a bug of the caller.
import type { KObject } from '../api/request.ts';
import type { FieldError } from '../api/status.ts';
import { SYSTEM_PRIORITY_CLASSES } from './priority-class.ts';
import { notSupported } from './validation.ts';
import type { Validator } from './config.ts';

/** HighestUserDefinablePriority: values above one billion are the system's. */
const HIGHEST_USER_DEFINABLE_PRIORITY = 1_000_000_000;

/** ValidatePriorityClass: "system-" names only for the two system classes as defined; user values ≤ 1e9. */
export function validatePriorityClass(pc: KObject): FieldError[] {
  const errs: FieldError[] = [];
  const name = pc.metadata?.name ?? '';
  const value = (pc.value as number | undefined) ?? 0;
  if (name.startsWith('system-')) {
    // IsKnownSystemPriorityClass.
    const sys = SYSTEM_PRIORITY_CLASSES[name];
    const why =
      sys === undefined
        ? `${name} is not a known system priority class`
        : sys !== value
          ? `value of ${name} PriorityClass must be ${sys}`
          : pc.globalDefault
            ? `globalDefault of ${name} PriorityClass must be false`
            : undefined;
    if (why)
      errs.push({
        type: 'Forbidden',
        field: 'metadata.name',
        detail: `priority class names with 'system-' prefix are reserved for system use only. error: ${why}`,
      });
  } else if (value > HIGHEST_USER_DEFINABLE_PRIORITY) {
    errs.push({
      type: 'Forbidden',
      field: 'value',
      detail: `maximum allowed value of a user defined priority is ${HIGHEST_USER_DEFINABLE_PRIORITY}`,
    });
  }
  // ValidatePreemptionPolicy.
  if (pc.preemptionPolicy === '') errs.push({ type: 'Required', field: 'preemptionPolicy' });
  else if (
    pc.preemptionPolicy !== undefined &&
    pc.preemptionPolicy !== 'PreemptLowerPriority' &&
    pc.preemptionPolicy !== 'Never'
  ) {
    errs.push(notSupported('preemptionPolicy', pc.preemptionPolicy, ['PreemptLowerPriority', 'Never']));
  }
  return errs;
}

/** ValidatePriorityClassUpdate: value and preemptionPolicy are immutable. */
function validatePriorityClassUpdate(pc: KObject, old: KObject): FieldError[] {
  const errs: FieldError[] = [];
  if ((pc.value ?? 0) !== (old.value ?? 0))
    errs.push({ type: 'Forbidden', field: 'value', detail: 'may not be changed in an update.' });
  if (pc.preemptionPolicy !== old.preemptionPolicy)
    errs.push({ type: 'Invalid', field: 'preemptionPolicy', value: pc.preemptionPolicy, detail: 'field is immutable' });
  return errs;
}

/** The `priorityclasses` validator: ValidatePriorityClass on create, ValidatePriorityClassUpdate on update. */
export const PRIORITY_CLASS_VALIDATION: Validator = (obj, old) =>
  old ? validatePriorityClassUpdate(obj, old) : validatePriorityClass(obj);
