import { describe, expect, it } from 'vitest';
import { actionForKey, KEYMAP, nextSpeed } from './keymap.ts';

describe('actionForKey', () => {
  it('maps the shared shortcuts, letters in either case', () => {
    expect(actionForKey({ key: ' ' })).toBe('toggle');
    expect(actionForKey({ key: 'k' })).toBe('toggle');
    expect(actionForKey({ key: 'K' })).toBe('toggle');
    expect(actionForKey({ key: 'ArrowLeft' })).toBe('back');
    expect(actionForKey({ key: 'j' })).toBe('back');
    expect(actionForKey({ key: 'ArrowRight' })).toBe('forward');
    expect(actionForKey({ key: 'L' })).toBe('forward');
    expect(actionForKey({ key: 'n' })).toBe('next');
    expect(actionForKey({ key: 'Home' })).toBe('reset');
    expect(actionForKey({ key: 's', targetTag: 'div' })).toBe('speed');
  });

  it('ignores other keys', () => {
    expect(actionForKey({ key: 'x' })).toBeNull();
    expect(actionForKey({ key: 'Enter' })).toBeNull();
    expect(actionForKey({ key: 'End' })).toBeNull();
  });

  it('leaves keys typed into fields alone', () => {
    for (const tag of ['INPUT', 'select', 'TEXTAREA']) {
      expect(actionForKey({ key: 'k', targetTag: tag })).toBeNull();
      expect(actionForKey({ key: 'ArrowLeft', targetTag: tag })).toBeNull();
    }
    expect(actionForKey({ key: 'n', targetTag: 'DIV', targetEditable: true })).toBeNull();
  });

  it('leaves modified keys to the browser and assistive technology', () => {
    expect(actionForKey({ key: 'k', ctrlKey: true })).toBeNull();
    expect(actionForKey({ key: 'ArrowLeft', metaKey: true })).toBeNull();
    expect(actionForKey({ key: 'n', altKey: true })).toBeNull();
  });

  it('lets Space and Enter click the button, summary or link they are pressed on', () => {
    expect(actionForKey({ key: ' ', targetTag: 'BUTTON' })).toBeNull();
    expect(actionForKey({ key: ' ', targetTag: 'SUMMARY' })).toBeNull();
    expect(actionForKey({ key: 'k', targetTag: 'BUTTON' })).toBe('toggle');
    expect(actionForKey({ key: 'ArrowRight', targetTag: 'BUTTON' })).toBe('forward');
  });

  it('gives each key to one action only', () => {
    const keys = KEYMAP.flatMap((b) => b.keys);
    expect(new Set(keys).size).toBe(keys.length);
  });
});

describe('nextSpeed', () => {
  it('cycles real → fast → compressed → real', () => {
    expect(nextSpeed('real')).toBe('fast');
    expect(nextSpeed('fast')).toBe('compressed');
    expect(nextSpeed('compressed')).toBe('real');
  });
});
