/**
 * The search page's client: loads Pagefind from the site itself and renders results with DOM
 * calls only (the query and excerpts never pass through innerHTML).
 */

interface PagefindSubResult {
  title: string;
  url: string;
  excerpt: string;
}
interface PagefindResultData {
  url: string;
  excerpt: string;
  meta: { title?: string };
  /** The page split at its headings with ids: the sections that match, best first. */
  sub_results?: PagefindSubResult[];
}

/** The sections worth linking to: those with their own anchor, at most three. */
function sections(d: PagefindResultData): PagefindSubResult[] {
  return (d.sub_results ?? []).filter((s) => s.url.includes('#')).slice(0, 3);
}
interface Pagefind {
  options(o: { baseUrl?: string }): Promise<void>;
  search(q: string): Promise<{ results: { data(): Promise<PagefindResultData> }[] } | null>;
}

/** Turns Pagefind's excerpt (text with <mark> highlights) into nodes without parsing it as live HTML. */
function excerptNodes(excerpt: string, doc: Document): Node[] {
  const nodes: Node[] = [];
  const parts = excerpt.split(/(<mark>|<\/mark>)/);
  let marked = false;
  // An inert document decodes entities; nothing in it runs or reaches the page.
  const parser = new DOMParser();
  for (const part of parts) {
    if (part === '<mark>') {
      marked = true;
      continue;
    }
    if (part === '</mark>') {
      marked = false;
      continue;
    }
    if (!part) continue;
    // (A leading character keeps the parser from dropping the part's leading space.)
    const decoded = (
      parser.parseFromString(`.${part.replace(/<[^>]*>/g, '')}`, 'text/html').documentElement.textContent ?? '.'
    ).slice(1);
    const text = doc.createTextNode(decoded);
    if (marked) {
      const m = doc.createElement('mark');
      m.append(text);
      nodes.push(m);
    } else nodes.push(text);
  }
  return nodes;
}

/** Wires the search form: reads ?q=, runs the query, renders results, keeps the URL in step. */
export async function runSearch(): Promise<void> {
  const form = document.querySelector<HTMLFormElement>('[data-search-form]');
  const input = document.querySelector<HTMLInputElement>('[data-search-input]');
  const status = document.querySelector<HTMLElement>('[data-search-status]');
  const list = document.querySelector<HTMLOListElement>('[data-search-results]');
  if (!form || !input || !status || !list) return;
  const path = form.dataset.pagefindPath ?? '/pagefind/';
  let pagefind: Pagefind | undefined;

  const load = async (): Promise<Pagefind> => {
    if (!pagefind) {
      const url = `${path}pagefind.js`;
      pagefind = (await import(/* @vite-ignore */ url)) as Pagefind;
      await pagefind.options({ baseUrl: path.replace(/pagefind\/$/, '') });
    }
    return pagefind;
  };

  const show = async (q: string) => {
    list.replaceChildren();
    if (!q.trim()) {
      status.textContent = 'Type a word to search for.';
      return;
    }
    status.textContent = 'Searching…';
    try {
      const pf = await load();
      const found = await pf.search(q);
      const data = await Promise.all((found?.results ?? []).slice(0, 20).map((r) => r.data()));
      status.textContent =
        data.length === 0
          ? `No results for “${q}”.`
          : `${data.length} result${data.length === 1 ? '' : 's'} for “${q}”.`;
      for (const d of data) {
        const li = document.createElement('li');
        const a = document.createElement('a');
        a.href = d.url;
        a.className = 'search-results__page';
        a.textContent = d.meta.title ?? d.url;
        li.append(a);
        const subs = sections(d);
        if (subs.length === 0) {
          const p = document.createElement('p');
          p.append(...excerptNodes(d.excerpt, document));
          li.append(p);
        } else {
          // Each matching section links straight to its heading, with its own excerpt.
          const ul = document.createElement('ul');
          ul.className = 'search-results__sections';
          for (const sub of subs) {
            const item = document.createElement('li');
            const link = document.createElement('a');
            link.href = sub.url;
            link.textContent = sub.title;
            const p = document.createElement('p');
            p.append(...excerptNodes(sub.excerpt, document));
            item.append(link, p);
            ul.append(item);
          }
          li.append(ul);
        }
        list.append(li);
      }
    } catch {
      status.textContent = 'Search could not load its index. Reload the page to try again.';
    }
  };

  form.addEventListener('submit', (e) => {
    e.preventDefault();
    const q = input.value;
    history.replaceState(null, '', `?q=${encodeURIComponent(q)}`);
    void show(q);
  });
  const q = new URLSearchParams(location.search).get('q') ?? '';
  input.value = q;
  if (q) void show(q);
  else status.textContent = 'Type a word to search for.';
}
