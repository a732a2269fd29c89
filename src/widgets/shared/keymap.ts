// The keyboard shortcuts every figure shares, as plain data, and the one pure function that maps a
// key press to an action. The figure's root listens; KeyboardHelp lists the same table.

/** What a shortcut does to the figure's playback. */
type KeyAction = 'toggle' | 'back' | 'forward' | 'next' | 'reset' | 'speed';

/** One shortcut: `key` is how the help shows it, `keys` the KeyboardEvent.key values that trigger it (letters match either case). */
interface KeyBinding {
  key: string;
  keys: string[];
  action: KeyAction;
  label: string;
}

/** The shared keymap, in the order the help lists it. */
export const KEYMAP: readonly KeyBinding[] = [
  { key: 'Space / K', keys: [' ', 'k'], action: 'toggle', label: 'Play or pause' },
  { key: '← / J', keys: ['ArrowLeft', 'j'], action: 'back', label: 'Step back' },
  { key: '→ / L', keys: ['ArrowRight', 'l'], action: 'forward', label: 'Step forward' },
  { key: 'N', keys: ['n'], action: 'next', label: 'Next event that matters' },
  { key: 'Home', keys: ['Home'], action: 'reset', label: 'Reset to the start' },
  { key: 'S', keys: ['s'], action: 'speed', label: 'Next speed (real time, faster, compressed)' },
];

/** Playback speeds, in the order the S key cycles through them. */
const SPEEDS = ['real', 'fast', 'compressed'] as const;

/** One playback speed. */
export type Speed = (typeof SPEEDS)[number];

/** The speed after `s` when cycling (compressed wraps round to real time). */
export function nextSpeed(s: Speed): Speed {
  return SPEEDS[(SPEEDS.indexOf(s) + 1) % SPEEDS.length];
}

/** The parts of a key press actionForKey looks at (a KeyboardEvent fits; keyInput builds one). */
interface KeyInput {
  key: string;
  ctrlKey?: boolean;
  metaKey?: boolean;
  altKey?: boolean;
  /** The event target's tagName ("INPUT", "BUTTON" …), any case. */
  targetTag?: string | null;
  /** The target is contenteditable. */
  targetEditable?: boolean;
}

// Fields where keys are text or move a value: a shortcut there would steal the reader's typing.
const FIELD_TAGS = new Set(['INPUT', 'SELECT', 'TEXTAREA']);
// Elements that Space or Enter activate themselves.
const ACTIVATED_TAGS = new Set(['BUTTON', 'SUMMARY', 'A']);

/**
 * The action a key press asks for, or null. Keys typed into a field, keys with Ctrl/Cmd/Alt (the
 * browser's and screen readers' own shortcuts) and Space/Enter on a button (or on a summary or link, which they activate) are left alone.
 */
export function actionForKey(e: KeyInput): KeyAction | null {
  if (e.ctrlKey || e.metaKey || e.altKey) return null;
  const tag = (e.targetTag ?? '').toUpperCase();
  if (FIELD_TAGS.has(tag) || e.targetEditable) return null;
  if (ACTIVATED_TAGS.has(tag) && (e.key === ' ' || e.key === 'Enter')) return null;
  const key = e.key.length === 1 ? e.key.toLowerCase() : e.key;
  for (const b of KEYMAP) if (b.keys.includes(key)) return b.action;
  return null;
}

/** The KeyInput of a DOM keyboard event. */
export function keyInput(e: KeyboardEvent): KeyInput {
  const t = e.target as HTMLElement | null;
  return {
    key: e.key,
    ctrlKey: e.ctrlKey,
    metaKey: e.metaKey,
    altKey: e.altKey,
    targetTag: t?.tagName ?? null,
    targetEditable: t?.isContentEditable ?? false,
  };
}
