import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  labelSelectorAsString,
  labelSelectorMatches,
  labelSelectorRequirements,
  matchesLabels,
  matchesSet,
  parseLabelSelector,
} from './labels.ts';

// Valid label keys and values (no commas, spaces or parentheses): the string form and the object form agree.
const word = fc.stringMatching(/^[a-z0-9]([a-z0-9._-]{0,6}[a-z0-9])?$/);
const labels = fc.dictionary(fc.constantFrom('app', 'tier', 'env', 'x'), fc.constantFrom('web', 'db', 'a', 'b'), {
  maxKeys: 4,
});
const selector = fc.record({
  matchLabels: fc.option(labels, { nil: undefined }),
  matchExpressions: fc.option(
    fc.array(
      fc.record({
        key: fc.constantFrom('app', 'tier', 'env', 'x'),
        operator: fc.constantFrom('In', 'NotIn', 'Exists', 'DoesNotExist'),
        values: fc.array(fc.oneof(fc.constantFrom('web', 'db', 'a', 'b'), word), { minLength: 1, maxLength: 3 }),
      }),
      { maxLength: 3 },
    ),
    { nil: undefined },
  ),
});

describe('label selectors', () => {
  it('LabelSelectorAsSelector matches as its String() parses', () => {
    fc.assert(
      fc.property(selector, labels, (sel, l) => {
        expect(labelSelectorMatches(sel, l)).toBe(matchesLabels(parseLabelSelector(labelSelectorAsString(sel)), l));
      }),
    );
  });

  it('an empty selector matches everything, a missing one nothing, an unknown operator nothing', () => {
    expect(labelSelectorMatches({}, { app: 'web' })).toBe(true);
    expect(labelSelectorMatches(undefined, { app: 'web' })).toBe(false);
    expect(
      labelSelectorMatches({ matchExpressions: [{ key: 'app', operator: 'Near', values: ['web'] }] }, { app: 'web' }),
    ).toBe(false);
    const sel = { matchLabels: { app: 'web' } };
    expect(labelSelectorRequirements(sel)).toBe(labelSelectorRequirements(sel)); // memoised per object
  });

  it('labels are a map: a key is there only as an own property', () => {
    expect(matchesLabels(parseLabelSelector('constructor'), {})).toBe(false);
    expect(matchesLabels(parseLabelSelector('!toString'), {})).toBe(true);
    expect(matchesLabels(parseLabelSelector('app in (web),tier notin (db)'), { app: 'web', tier: 'fe' })).toBe(true);
    expect(matchesSet({ app: 'web' }, { app: 'web', tier: 'db' })).toBe(true);
    expect(matchesSet({ app: 'web' }, undefined)).toBe(false);
    expect(matchesSet({}, undefined)).toBe(true);
    expect(matchesSet({ constructor: 'x' }, {})).toBe(false);
  });
});
