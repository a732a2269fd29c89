/** One link of a Markdown text: its target and the line it is on. */
export interface DocLink {
  line: number;
  target: string;
}
/** A link that does not resolve to a file the repository holds, and why. */
export interface BrokenDocLink {
  file: string;
  line: number;
  link: string;
  why: string;
}
/** The documents checked, as repository-relative POSIX paths: README.md, docs/*.md, src/sim/*.md. */
export function docFiles(root: string): string[];
/** Every link target of a Markdown text with its line: inline links and images, reference definitions, `<a href>` and `<img src>`. */
export function linksOf(text: string): DocLink[];
/** Checks the documents under root. */
export function checkDocLinks(root: string): { files: string[]; links: number; broken: BrokenDocLink[] };
