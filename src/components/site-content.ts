// The chapters and the glossary read from their source files, for the text pages that only list
// them (the glossary, /for-instructors/, 404). A page that imports `astro:content` at all is given
// the stylesheet the chapters' figures share (Astro propagates it to every importer of the content
// runtime), so a text page reading the collections would ship ~4.6 KB of figure CSS it never uses.
// The collections stay the validated source: [slug].astro checks at build that what is read here
// equals them (titles, order, headings).
import GithubSlugger from 'github-slugger';
import { parse } from 'yaml';

/** One section heading as Astro's render() reports it. */
interface SourceHeading {
  depth: number;
  slug: string;
  text: string;
}

/** A chapter as the text pages need it. */
interface SourceChapter {
  id: string;
  data: { title: string; description: string; order: number; summary: string };
  headings: SourceHeading[];
}

/** A glossary term. */
interface SourceTerm {
  id: string;
  data: { term: string; definition: string; explainedAt: string };
}

const mdx = import.meta.glob<string>('../../content/*.mdx', { query: '?raw', import: 'default', eager: true });
const glossaryYaml = import.meta.glob<string>('../../content/glossary.yaml', {
  query: '?raw',
  import: 'default',
  eager: true,
});

/** Straight quotes made typographic, as Astro's Markdown (smartypants) renders a heading's text. */
function curly(text: string): string {
  return text
    .replace(/(\w)'/g, '$1\u2019')
    .replace(/'/g, '\u2018')
    .replace(/(^|[\s([])"/g, '$1\u201c')
    .replace(/"/g, '\u201d');
}

/** The `#`–`######` headings of an MDX body, outside fenced code, in order, slugged as Astro slugs them (github-slugger, one per document). */
export function headingsOf(body: string): SourceHeading[] {
  const slugger = new GithubSlugger();
  const out: SourceHeading[] = [];
  let fence: string | null = null;
  for (const line of body.split('\n')) {
    const f = /^\s*(```+|~~~+)/.exec(line);
    if (f) {
      if (fence === null) fence = f[1][0];
      else if (f[1][0] === fence) fence = null;
      continue;
    }
    if (fence !== null) continue;
    const h = /^(#{1,6})\s+(.+?)\s*#*\s*$/.exec(line);
    if (!h) continue;
    const text = curly(h[2]);
    out.push({ depth: h[1].length, slug: slugger.slug(text), text });
  }
  return out;
}

/** Splits an MDX file into its YAML front matter and its body. */
export function splitFrontmatter(source: string): { data: Record<string, unknown>; body: string } {
  const m = /^---\r?\n([\s\S]*?)\r?\n---\r?\n?/.exec(source);
  if (!m) return { data: {}, body: source };
  return { data: (parse(m[1]) ?? {}) as Record<string, unknown>, body: source.slice(m[0].length) };
}

/** Every chapter in content/, in reading order. */
export function sourceChapters(): SourceChapter[] {
  return Object.entries(mdx)
    .map(([path, source]) => {
      const { data, body } = splitFrontmatter(source);
      return {
        id: path
          .split('/')
          .pop()!
          .replace(/\.mdx$/, ''),
        data: {
          title: String(data.title),
          description: String(data.description),
          order: Number(data.order),
          summary: String(data.summary),
        },
        headings: headingsOf(body),
      };
    })
    .sort((a, b) => a.data.order - b.data.order);
}

/** Every glossary term, in the file's order. */
export function sourceTerms(): SourceTerm[] {
  const text = Object.values(glossaryYaml)[0] ?? '[]';
  return (parse(text) as { id: string; term: string; definition: string; explainedAt: string }[]).map(
    ({ id, ...data }) => ({ id, data }),
  );
}
