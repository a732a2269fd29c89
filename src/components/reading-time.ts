/**
 * Minutes a chapter takes to read, from its MDX source: prose words at 230 a minute, plus code and
 * tables skimmed at a third of that. Imports, components' tags and attributes are left out.
 */
export function readingMinutes(mdx: string): number {
  const words = (s: string) => (s.match(/[\p{L}\p{N}][\p{L}\p{N}'’.-]*/gu) ?? []).length;
  const code = [...mdx.matchAll(/```[\s\S]*?```/g)].map((m) => m[0]).join(' ');
  const prose = mdx
    .replace(/```[\s\S]*?```/g, ' ')
    .replace(/^import .*$/gm, ' ')
    .replace(/<[A-Z][\s\S]*?>/g, ' ')
    .replace(/<\/[A-Z]\w*>/g, ' ');
  return Math.max(1, Math.round(words(prose) / 230 + words(code) / 700));
}
