// The PriorityClass validation as a part: what the core accepts without it is exactly what the part
// accepts (the bootstrap's system classes), and a run ends in the same bytes whether the part was
// registered at the start or at the first PriorityClass a client writes.
import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { createCluster } from '../cluster.ts';
import { isBootstrapPriorityClass } from './admission.ts';
import { installKubectlExtras } from '../kubectl-extras.ts';
import { SYSTEM_PRIORITY_CLASS_OBJECTS } from './priority-class.ts';
import { PRIORITY_CLASS_VALIDATION, validatePriorityClass } from './priority-class-validation.ts';
import { runs } from '../../test/fc.ts';

describe('the core without the PriorityClass validation', () => {
  it('accepts the bootstrap classes, which the validation accepts too', () => {
    for (const pc of SYSTEM_PRIORITY_CLASS_OBJECTS) {
      expect(isBootstrapPriorityClass(pc, undefined)).toBe(true);
      expect(PRIORITY_CLASS_VALIDATION(pc as never, undefined)).toEqual([]);
    }
  });

  it('accepts without the part only classes the part finds valid', () => {
    fc.assert(
      fc.property(
        fc.constantFrom('system-node-critical', 'system-cluster-critical', 'system-other', 'high'),
        fc.constantFrom(0, 1000, 2000000000, 2000001000),
        fc.boolean(),
        fc.constantFrom(undefined, 'PreemptLowerPriority', 'Never', ''),
        (name, value, globalDefault, preemptionPolicy) => {
          const pc = {
            apiVersion: 'scheduling.k8s.io/v1',
            kind: 'PriorityClass',
            metadata: { name },
            value,
            ...(globalDefault ? { globalDefault } : {}),
            ...(preemptionPolicy === undefined ? {} : { preemptionPolicy }),
          };
          if (isBootstrapPriorityClass(pc, undefined)) expect(validatePriorityClass(pc)).toEqual([]);
        },
      ),
      { numRuns: runs(0.5) },
    );
  });

  it('never takes an update or a class of its own for a bootstrap class', () => {
    const [node] = SYSTEM_PRIORITY_CLASS_OBJECTS;
    expect(isBootstrapPriorityClass(node, node)).toBe(false);
    expect(isBootstrapPriorityClass({ ...node, globalDefault: true }, undefined)).toBe(false);
    expect(isBootstrapPriorityClass({ ...node, value: 1 }, undefined)).toBe(false);
  });
});

describe('the PriorityClass validation, registered early or at the first class a client writes', () => {
  const classes = [
    { apiVersion: 'scheduling.k8s.io/v1', kind: 'PriorityClass', metadata: { name: 'high' }, value: 1000 },
    // Refused by the part: a user class above one billion, and a "system-" name of its own.
    { apiVersion: 'scheduling.k8s.io/v1', kind: 'PriorityClass', metadata: { name: 'too-high' }, value: 2000000000 },
    { apiVersion: 'scheduling.k8s.io/v1', kind: 'PriorityClass', metadata: { name: 'system-mine' }, value: 10 },
  ];
  const run = (when: 'start' | 'at-need' | 'never') => {
    const c = createCluster({ seed: 3, nodes: 2 });
    if (when === 'start') installKubectlExtras(c);
    c.advance(5_000);
    if (when === 'at-need') installKubectlExtras(c);
    const codes = classes.map((body) => {
      const r = c.request({ verb: 'create', resource: 'priorityclasses', body });
      c.advance(1_000);
      return r.ok ? 201 : r.status.code;
    });
    return { c, codes };
  };

  it('gives the same answers, world and request log either way', () => {
    const early = run('start');
    const late = run('at-need');
    expect(early.codes).toEqual([201, 422, 422]);
    expect(late.codes).toEqual(early.codes);
    expect(late.c.world.hash()).toBe(early.c.world.hash());
    expect(JSON.stringify(late.c.world.state.log)).toBe(JSON.stringify(early.c.world.state.log));
  });

  it('is needed there: without it the core refuses to store a class it cannot check', () => {
    expect(() => run('never')).toThrow(/needs the PriorityClass validation/);
  });
});
