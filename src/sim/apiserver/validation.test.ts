import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { isDNS1123Subdomain } from './validation.ts';
import { runs } from '../../test/fc.ts';

describe('names', () => {
  it('isDNS1123Subdomain accepts exactly what the regular expression accepts', () => {
    const re = /^[a-z0-9]([-a-z0-9]*[a-z0-9])?(\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*$/;
    for (const s of ['', 'a', 'a-', '-a', 'a.b', 'a..b', '.a', 'a.', 'a-.b', 'a.-b', 'a--b', 'web-1.18b2c', 'Web', 'a_b', '0', '0.0', 'a-b.c-d']) {
      expect(isDNS1123Subdomain(s)).toBe(re.test(s));
    }
    fc.assert(fc.property(fc.stringMatching(/^[a-z0-9.\-A_]{0,12}$/), (s) => { expect(isDNS1123Subdomain(s)).toBe(re.test(s)); }), { numRuns: runs(20) });
    fc.assert(fc.property(fc.string(), (s) => { expect(isDNS1123Subdomain(s)).toBe(re.test(s)); }));
  });
});
