import { describe, expect, it } from 'vitest';
import { couldNotStart } from './figure-state.ts';

describe('couldNotStart', () => {
  it('says what failed and what to do, as one sentence', () => {
    expect(couldNotStart('its simulation failed to load (the browser could not load its worker script)')).toBe(
      'This figure could not start: its simulation failed to load (the browser could not load its worker script). Reload the page to try again.',
    );
    expect(couldNotStart('no figure "x"')).toBe(
      'This figure could not start: no figure "x". Reload the page to try again.',
    );
    expect(couldNotStart(null)).toBe(
      'This figure could not start: its simulation did not load. Reload the page to try again.',
    );
    expect(couldNotStart('')).toBe(
      'This figure could not start: its simulation did not load. Reload the page to try again.',
    );
  });
});
