import { describe, expect, it } from 'vitest';
import { staleFiles } from './gen-islands.mjs';

describe('gen-islands', () => {
  it('the islands wrapper and the chapter figures’ embed pages are as the registry makes them (node scripts/gen-islands.mjs)', () => {
    expect(staleFiles()).toEqual([]);
  });
});
