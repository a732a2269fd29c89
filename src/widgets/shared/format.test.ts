import { describe, expect, it } from 'vitest';
import {
  shortPodName,
  formatClock,
  formatSeconds,
  leaseAge,
  outcomeText,
  shortTaintKey,
  slashPieces,
  spokenClock,
} from './format.ts';

describe('format', () => {
  it('prints log times as the CLI does', () => {
    expect(formatSeconds(12_004)).toBe('12.004s');
    expect(formatSeconds(0)).toBe('0.000s');
  });

  it('shows the clock as m:ss.s and says it in words', () => {
    expect(formatClock(72_400)).toBe('1:12.4');
    expect(formatClock(5_000)).toBe('0:05.0');
    expect(formatClock(59_990)).toBe('0:59.9');
    expect(formatClock(-5)).toBe('0:00.0');
    expect(spokenClock(72_400)).toBe('1 minute 12.4 seconds');
    expect(spokenClock(125_000)).toBe('2 minutes 5 seconds');
    expect(spokenClock(1_000)).toBe('1 second');
    expect(spokenClock(0)).toBe('0 seconds');
  });

  it('says a lease age', () => {
    expect(leaseAge(3_200)).toBe('lease 3s ago');
    expect(leaseAge(65_000)).toBe('lease 1m 5s ago');
    expect(leaseAge(null)).toBe('no lease yet');
  });

  it('shortens only the built-in taint prefix', () => {
    expect(shortTaintKey('node.kubernetes.io/unreachable')).toBe('unreachable');
    expect(shortTaintKey('dedicated')).toBe('dedicated');
  });

  it('shows an outcome only when a request did not simply succeed', () => {
    expect(outcomeText({ kind: 'write', code: 201 })).toBeNull();
    expect(outcomeText({ kind: 'read', code: 200 })).toBeNull();
    expect(outcomeText({ kind: 'write', code: 409 })).toBe('409');
    expect(outcomeText({ kind: 'read', code: 0 })).toBe('refused');
    expect(outcomeText({ kind: 'cri', code: 0 })).toBeNull();
    expect(outcomeText({ kind: 'cri', code: 5 })).toBe('NotFound');
  });

  it('cuts a path after each slash, keeping every character', () => {
    expect(slashPieces('/registry/deployments/default/web')).toEqual([
      '/',
      'registry/',
      'deployments/',
      'default/',
      'web',
    ]);
    expect(slashPieces('revision 36, /registry/pods').join('')).toBe('revision 36, /registry/pods');
    expect(slashPieces('web')).toEqual(['web']);
  });
});

describe('shortPodName', () => {
  it('keeps the first word and the generated suffix of a generated name, and short names whole', () => {
    expect(shortPodName('web-c68c68797-lkdzk')).toBe('…-lkdzk');
    expect(shortPodName('big-pod-x7k2p')).toBe('…-x7k2p');
    expect(shortPodName('web-0')).toBe('web-0');
    expect(shortPodName('nginx')).toBe('nginx');
  });
});
