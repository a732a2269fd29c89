/**
 * A Sätteri hast plugin for the articles' tables: every body cell gets data-label, its column's
 * header, and a table whose text would be cramped on a phone gets the class table--stack, which
 * the stylesheet turns into one card per row (header beside each value) below 40rem. Short,
 * numeric tables stay tables and scroll with a visible cue instead.
 */
const elements = (node, tag) =>
  (node.children ?? []).filter((c) => c.type === 'element' && (!tag || c.tagName === tag));
const textOf = (node) => (node.type === 'text' ? node.value : (node.children ?? []).map(textOf).join(''));

/** Worth stacking: at least three columns and some cell too long to share a 320 px row, or five columns. */
export function shouldStack(headers, rows) {
  const longest = Math.max(0, ...rows.flat().map((c) => c.length), ...headers.map((h) => h.length));
  return headers.length >= 5 || (headers.length >= 3 && longest > 24);
}

/** @type {import('satteri').HastPluginDefinition} */
export const tables = {
  name: 'tables',
  element: {
    filter: ['table'],
    visit(node) {
      const thead = elements(node, 'thead')[0];
      const tbody = elements(node, 'tbody')[0];
      if (!thead || !tbody) return;
      const headers = elements(elements(thead, 'tr')[0] ?? {}, 'th').map((th) => textOf(th).trim());
      const bodyRows = elements(tbody, 'tr');
      const rows = bodyRows.map((tr) => elements(tr).map((cell) => textOf(cell).trim()));
      // The value goes in one span, so a stacked cell is two grid items: the label and the value.
      const label = (cell, i) => ({
        ...cell,
        properties: { ...cell.properties, dataLabel: headers[i] ?? '' },
        children: [{ type: 'element', tagName: 'span', properties: { className: ['cell'] }, children: cell.children }],
      });
      const newBody = {
        ...tbody,
        children: tbody.children.map((tr) => {
          if (tr.type !== 'element' || tr.tagName !== 'tr') return tr;
          let i = 0;
          return {
            ...tr,
            children: tr.children.map((cell) =>
              cell.type === 'element' && (cell.tagName === 'td' || cell.tagName === 'th') ? label(cell, i++) : cell,
            ),
          };
        }),
      };
      const className = shouldStack(headers, rows) ? ['table--stack'] : [];
      return /** @type {any} */ ({
        ...node,
        properties: { ...node.properties, className },
        children: node.children.map((c) => (c === tbody ? newBody : c)),
      });
    },
  },
};
