/**
 * A Sätteri hast plugin for the articles' code blocks, run after Prism. It tells a command from its
 * output, so a reader can see (and copy) what to type:
 * - a `shell` block is commands: each line becomes <span class="cmd">, drawn with a "$ " prompt by
 *   CSS (the prompt is never selected or copied), and Prism's token colours are dropped, since they
 *   marked ordinary words such as `node` or `grep` as keywords;
 * - a `text` block whose lines start with "$ " is a terminal session: those lines become commands,
 *   the rest stays output;
 * - a `text` block right after a `shell` block is that command's output.
 * The kind goes on the <pre> as data-kind, which src/components/Pre.astro turns into a label and,
 * for commands, a copy button.
 */
const COMMAND_LANGS = new Set(['shell', 'sh', 'bash', 'console']);

const text = (value) => ({ type: 'text', value });
const span = (className, value) => ({
  type: 'element',
  tagName: 'span',
  properties: { className: [className] },
  children: [text(value)],
});

/** The language Prism recorded on the block, or '' for none. */
function langOf(node) {
  return typeof node?.properties?.dataLanguage === 'string' ? node.properties.dataLanguage : '';
}

/** Lines as hast children: commands as .cmd spans, shell comments as .cmt, everything else plain. */
export function lines(source, isCommand) {
  const out = [];
  source.split('\n').forEach((line, i) => {
    if (i > 0) out.push(text('\n'));
    const cmd = isCommand(line);
    if (cmd === null) out.push(text(line));
    else if (cmd.startsWith('# ')) out.push(span('cmt', cmd));
    else out.push(span('cmd', cmd));
  });
  return out;
}

/** @type {import('satteri').HastPluginDefinition} */
export const codeBlocks = {
  name: 'code-blocks',
  element: {
    filter: ['pre'],
    visit(node, ctx) {
      const lang = langOf(node);
      const source = ctx.textContent(node).replace(/\n$/, '');
      const rebuild = (/** @type {string} */ kind, /** @type {any[]} */ children) =>
        /** @type {any} */ ({
          type: 'element',
          tagName: 'pre',
          properties: { ...node.properties, dataKind: kind },
          children: [{ type: 'element', tagName: 'code', properties: { className: [`language-${lang}`] }, children }],
        });
      if (COMMAND_LANGS.has(lang))
        return rebuild(
          'command',
          lines(source, (l) => l),
        );
      if (lang === 'text' && /^\$ /m.test(source))
        return rebuild(
          'session',
          lines(source, (l) => (l.startsWith('$ ') ? l.slice(2) : null)),
        );
      const parent = ctx.parent(node);
      const before = parent.children
        .slice(0, ctx.indexOf(node))
        .reverse()
        .find((c) => c.type !== 'text' || c.value.trim());
      const kind =
        lang === 'text' && before?.type === 'element' && before.tagName === 'pre' && COMMAND_LANGS.has(langOf(before))
          ? 'output'
          : lang || 'text';
      ctx.setProperty(node, 'dataKind', kind);
    },
  },
};
