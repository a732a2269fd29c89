import { describe, expect, it } from 'vitest';
import { scrollTopFor } from './follow.ts';

describe("a widget's picture follows what a step changed", () => {
  it('stays put when nothing changed or the changes are in view', () => {
    expect(scrollTopFor([], 0, 100)).toBeUndefined();
    expect(scrollTopFor([{ top: 10, bottom: 30 }, { top: 60, bottom: 90 }], 0, 100)).toBeUndefined();
  });
  it('scrolls down just enough to show a row added below, and up to one changed above', () => {
    expect(scrollTopFor([{ top: 250, bottom: 270 }], 0, 100)).toBe(170);
    expect(scrollTopFor([{ top: 20, bottom: 40 }], 150, 100)).toBe(20);
  });
  it('shows the first and the last change together when they fit, else as many of the last as fit (a counter at the top, a new row of three lines far below)', () => {
    expect(scrollTopFor([{ top: 120, bottom: 140 }, { top: 190, bottom: 210 }], 0, 100)).toBe(110);
    expect(scrollTopFor([{ top: 0, bottom: 20 }, { top: 400, bottom: 420 }], 0, 100)).toBe(320);
    expect(scrollTopFor([{ top: 0, bottom: 20 }, { top: 400, bottom: 420 }, { top: 420, bottom: 440 }, { top: 440, bottom: 460 }], 0, 100)).toBe(360);
    // A row taller than the box: its last lines.
    expect(scrollTopFor([{ top: 0, bottom: 20 }, { top: 400, bottom: 450 }, { top: 450, bottom: 520 }], 0, 100)).toBe(420);
  });
  it('shows the top of a change taller than the box', () => {
    expect(scrollTopFor([{ top: 300, bottom: 600 }], 0, 100)).toBe(300);
  });
});
