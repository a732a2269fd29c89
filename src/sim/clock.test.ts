import { describe, expect, it } from 'vitest';
import { createQueue, pop, push, size } from './clock.ts';
import { createRng, int } from './rng.ts';

describe('event queue', () => {
  it('pops in (at, seq) order, ties by insertion', () => {
    const q = createQueue<string>();
    push(q, 5, 'a', 'x1');
    push(q, 1, 'a', 'x2');
    push(q, 5, 'a', 'x3');
    push(q, 0, 'a', 'x4');
    expect([pop(q), pop(q), pop(q), pop(q)].map((e) => e!.event)).toEqual(['x4', 'x2', 'x1', 'x3']);
    expect(pop(q)).toBeUndefined();
  });
  it('sorts many random entries like a stable sort', () => {
    const rng = createRng(7);
    const q = createQueue<number>();
    const ats: { at: number; i: number }[] = [];
    for (let i = 0; i < 5000; i++) {
      const at = int(rng, 100);
      ats.push({ at, i });
      push(q, at, 't', i);
    }
    ats.sort((a, b) => a.at - b.at || a.i - b.i);
    const out: number[] = [];
    while (size(q)) out.push(pop(q)!.event);
    expect(out).toEqual(ats.map((x) => x.i));
  });
  it('counts pending (non-recurring) entries', () => {
    const q = createQueue();
    push(q, 1, 't', 'a', true);
    push(q, 2, 't', 'b');
    expect(q.pending).toBe(1);
    pop(q);
    pop(q);
    expect(q.pending).toBe(0);
  });
  it('handles 300k entries quickly', () => {
    const q = createQueue<number>();
    const rng = createRng(1);
    for (let i = 0; i < 300_000; i++) push(q, int(rng, 1e6), 't', i);
    let last = -1;
    let sorted = true;
    while (size(q)) {
      const e = pop(q)!;
      if (e.at < last) sorted = false;
      last = e.at;
    }
    expect(sorted).toBe(true);
  });
});

describe('removeWhere', () => {
  it('drops matching entries and keeps the rest in (at, seq) order', async () => {
    const { createQueue, push, pop, removeWhere } = await import('./clock.ts');
    const q = createQueue<string>();
    push(q, 30, 'a', 'a30');
    push(q, 10, 'b', 'b10');
    push(q, 20, 'a', 'a20', true);
    push(q, 10, 'c', 'c10');
    expect(removeWhere(q, (e) => e.target === 'a')).toBe(2);
    expect(q.pending).toBe(2);
    expect([pop(q)?.event, pop(q)?.event, pop(q)]).toEqual(['b10', 'c10', undefined]);
  });
});
