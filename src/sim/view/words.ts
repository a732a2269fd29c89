// The one place a sentence's counted words are made: a noun's plural, a count with its noun ("no
// pods", "1 pod", "3 addresses"), a verb that agrees with a count, and a list of names. Every
// figure text in the core takes its plurals from here, so "addresss" or "1 pods" cannot come back.

/** The plural of an English noun ("pod" → "pods", "address" → "addresses", "policy" → "policies"); a multi-word noun pluralises its last word. */
export function pluralOf(noun: string): string {
  const sp = noun.lastIndexOf(' ');
  if (sp >= 0) return noun.slice(0, sp + 1) + pluralOf(noun.slice(sp + 1));
  if (/(s|x|z|ch|sh)$/.test(noun)) return noun + 'es';
  if (/[^aeiou]y$/.test(noun)) return noun.slice(0, -1) + 'ies';
  return noun + 's';
}

/** `n` and its noun, in the number that agrees: "no pods", "1 pod", "3 pods" (never "0 pods" or "1 pods"). */
export function count(n: number, noun: string): string {
  if (n === 0) return `no ${pluralOf(noun)}`;
  return `${n} ${n === 1 ? noun : pluralOf(noun)}`;
}

/** The verb that agrees with a count: agree(1, 'runs', 'run') → "runs", agree(3, 'runs', 'run') → "run" (0 takes the plural: "no pods run"). */
export function agree(n: number, singular: string, plural: string): string {
  return n === 1 ? singular : plural;
}

/** Names as a sentence lists them: "a", "a and b", "a, b and c". */
export function listOf(names: readonly string[]): string {
  if (names.length <= 1) return names[0] ?? '';
  return `${names.slice(0, -1).join(', ')} and ${names[names.length - 1]}`;
}
