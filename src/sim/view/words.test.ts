import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { runs } from '../../test/fc.ts';
import { agree, count, listOf, pluralOf } from './words.ts';

describe('words', () => {
  it.each([
    ['pod', 'pods'],
    ['address', 'addresses'],
    ['node', 'nodes'],
    ['policy', 'policies'],
    ['key', 'keys'],
    ['box', 'boxes'],
    ['match', 'matches'],
    ['new pod', 'new pods'],
    ['replica', 'replicas'],
    ['entry', 'entries'],
  ])('pluralises %s as %s', (one, many) => {
    expect(pluralOf(one)).toBe(many);
  });

  it('counts with a noun that agrees, and says "no" for zero', () => {
    expect(count(0, 'address')).toBe('no addresses');
    expect(count(1, 'address')).toBe('1 address');
    expect(count(2, 'address')).toBe('2 addresses');
    expect(`${count(1, 'pod')} ${agree(1, 'runs', 'run')}`).toBe('1 pod runs');
    expect(`${count(0, 'pod')} ${agree(0, 'runs', 'run')}`).toBe('no pods run');
  });

  it('never writes a bare 0 or a 1 with a plural noun', () => {
    fc.assert(
      fc.property(fc.nat(1000), fc.constantFrom('pod', 'node', 'address', 'replica', 'request'), (n, w) => {
        const s = count(n, w);
        expect(s).not.toMatch(/^0 /);
        if (n === 1) expect(s).toBe(`1 ${w}`);
        else expect(s.endsWith(pluralOf(w))).toBe(true);
      }),
      { numRuns: runs(1) },
    );
  });

  it('lists names as a sentence does', () => {
    expect(listOf([])).toBe('');
    expect(listOf(['a'])).toBe('a');
    expect(listOf(['a', 'b'])).toBe('a and b');
    expect(listOf(['a', 'b', 'c'])).toBe('a, b and c');
  });
});
