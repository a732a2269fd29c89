// kubectl's -o jsonpath templates (k8s.io/client-go/util/jsonpath), the parts people use: text
// outside braces; {.a.b}, {.a[0]}, {.a[*]}, {.a['b.c']}, {..name}, {.a[?(@.type=="Ready")]},
// {range …}…{end}, {"literal\n"}; missing keys print nothing (kubectl allows them). Strings print
// as they are, other values as JSON; several results of one expression are joined by spaces.

/** A template that cannot be read, with kubectl's kind of message. */
export class JsonPathError extends Error {}

/** A template that fails on the data (FindResults' error: an index out of bounds). */
export class JsonPathExecError extends Error {}

type Step =
  | { k: 'field'; name: string }
  | { k: 'recursive'; name: string }
  | { k: 'index'; i: number }
  | { k: 'all' }
  | { k: 'filter'; path: Step[]; op: '==' | '!=' | 'exists'; value?: string | number | boolean };

type Node = { k: 'text'; text: string } | { k: 'expr'; steps: Step[] } | { k: 'range'; steps: Step[]; body: Node[] };

/** Split `{…}` pieces from literal text, then build the tree (range … end). */
export function parseJsonPath(template: string): Node[] {
  const tokens: ({ text: string } | { expr: string })[] = [];
  let i = 0;
  while (i < template.length) {
    const open = template.indexOf('{', i);
    if (open === -1) {
      tokens.push({ text: template.slice(i) });
      break;
    }
    if (open > i) tokens.push({ text: template.slice(i, open) });
    const close = closingBrace(template, open);
    if (close === -1) {
      // The parser reads the action before it finds no end: a character it cannot read is named first.
      const rest = template
        .slice(open + 1)
        .trim()
        .replace(/^range /, '');
      try {
        if (rest && !/^["']/.test(rest)) parsePath(rest);
      } catch (e) {
        if (e instanceof JsonPathError && e.message.startsWith('unrecognized character')) throw e;
      }
      throw new JsonPathError(`unclosed action`);
    }
    tokens.push({ expr: template.slice(open + 1, close).trim() });
    i = close + 1;
  }
  const stack: Node[][] = [[]];
  const ranges: Extract<Node, { k: 'range' }>[] = [];
  for (const t of tokens) {
    const top = stack[stack.length - 1];
    if ('text' in t) {
      top.push({ k: 'text', text: t.text });
      continue;
    }
    const e = t.expr;
    if (e === 'end') {
      if (!ranges.length) throw new JsonPathError('not in range, nothing to end');
      ranges.pop();
      stack.pop();
      continue;
    }
    if (e.startsWith('range ')) {
      const node: Extract<Node, { k: 'range' }> = { k: 'range', steps: parsePath(e.slice(6).trim()), body: [] };
      top.push(node);
      ranges.push(node);
      stack.push(node.body);
      continue;
    }
    if (e.startsWith('"')) {
      top.push({ k: 'text', text: unquote(e) });
      continue;
    }
    top.push({ k: 'expr', steps: parsePath(e) });
  }
  // A range left open runs to the end of the template (client-go's parser does not refuse it).
  return stack[0];
}

function closingBrace(s: string, open: number): number {
  let quote = '';
  for (let i = open + 1; i < s.length; i++) {
    const ch = s[i];
    if (quote) {
      if (ch === '\\') i++;
      else if (ch === quote) quote = '';
      continue;
    }
    if (ch === '"' || ch === "'") quote = ch;
    else if (ch === '}') return i;
  }
  return -1;
}

function unquote(s: string): string {
  if (!s.endsWith('"') || s.length < 2) throw new JsonPathError(`unterminated quoted string`);
  return s.slice(1, -1).replace(/\\(.)/g, (_, c: string) => (c === 'n' ? '\n' : c === 't' ? '\t' : c));
}

function parsePath(src: string): Step[] {
  let s = src;
  if (s === '@' || s === '$') return [];
  if (s.startsWith('$') || s.startsWith('@')) s = s.slice(1);
  const steps: Step[] = [];
  let i = 0;
  const name = () => {
    const m = /^[A-Za-z0-9_-]+/.exec(s.slice(i));
    if (!m) throw new JsonPathError(`unrecognized character in action: ${goRune(s.slice(i, i + 1))}`);
    i += m[0].length;
    return m[0];
  };
  while (i < s.length) {
    if (s.startsWith('..', i)) {
      i += 2;
      steps.push({ k: 'recursive', name: name() });
      continue;
    }
    if (s[i] === '.') {
      i++;
      if (i < s.length && s[i] !== '[' && s[i] !== '.') steps.push({ k: 'field', name: name() });
      continue;
    }
    if (s[i] === '[') {
      const close = s.indexOf(']', s[i + 1] === '?' ? s.indexOf(')', i) : i);
      if (close === -1) throw new JsonPathError('unterminated array');
      const inner = s.slice(i + 1, close).trim();
      i = close + 1;
      if (inner === '*') steps.push({ k: 'all' });
      else if (/^-?\d+$/.test(inner)) steps.push({ k: 'index', i: Number(inner) });
      else if (/^'[^']*'$/.test(inner) || /^"[^"]*"$/.test(inner)) steps.push({ k: 'field', name: inner.slice(1, -1) });
      else if (inner.startsWith('?(') && inner.endsWith(')')) steps.push(parseFilter(inner.slice(2, -1).trim()));
      else throw new JsonPathError(`invalid array index ${inner}`);
      continue;
    }
    // A bare name at the start (`{metadata.name}` is allowed by kubectl's relaxed syntax).
    if (steps.length === 0 && i === 0) {
      steps.push({ k: 'field', name: name() });
      continue;
    }
    throw new JsonPathError(`unrecognized character in action: ${goRune(s[i])}`);
  }
  return steps;
}

function parseFilter(src: string): Step {
  const m = /^@((?:\.[A-Za-z0-9_-]+|\[[^\]]+\])+)\s*(==|!=)\s*(.+)$/.exec(src);
  if (!m) {
    const e = /^@((?:\.[A-Za-z0-9_-]+)+)$/.exec(src);
    if (e) return { k: 'filter', path: parsePath(e[1]), op: 'exists' };
    throw new JsonPathError(`unrecognized filter ${src}`);
  }
  const raw = m[3].trim();
  let value: string | number | boolean;
  if (/^(['"]).*\1$/.test(raw)) value = raw.slice(1, -1);
  else if (raw === 'true' || raw === 'false') value = raw === 'true';
  else if (/^-?\d+(\.\d+)?$/.test(raw)) value = Number(raw);
  else throw new JsonPathError(`unrecognized filter value ${raw}`);
  return { k: 'filter', path: parsePath(m[1]), op: m[2] as '==' | '!=', value };
}

/** Apply path steps to a list of current values (each step maps every value to zero or more). */
function walk(values: unknown[], steps: Step[], strict = false): unknown[] {
  let cur = values;
  for (const st of steps) {
    const next: unknown[] = [];
    for (const v of cur) {
      if (v === null || typeof v !== 'object') continue;
      switch (st.k) {
        case 'field':
          if (!Array.isArray(v) && st.name in v) next.push((v as Record<string, unknown>)[st.name]);
          break;
        case 'index':
          if (Array.isArray(v)) {
            const at = st.i < 0 ? v.length + st.i : st.i;
            // evalArray: an index outside the array fails the whole template (printing nothing).
            if (strict && (at < 0 || at >= v.length))
              throw new JsonPathExecError(`array index out of bounds: index ${at}, length ${v.length}`);
            const x: unknown = v[at];
            if (x !== undefined) next.push(x);
          }
          break;
        case 'all':
          if (Array.isArray(v)) next.push(...(v as unknown[]));
          else next.push(...Object.values(v as Record<string, unknown>));
          break;
        case 'recursive':
          collect(v, st.name, next);
          break;
        case 'filter': {
          const items = Array.isArray(v) ? v : [v];
          for (const item of items) {
            const got = walk([item], st.path, strict);
            if (
              st.op === 'exists' ? got.length > 0 : got.some((g) => (st.op === '==' ? g === st.value : g !== st.value))
            )
              next.push(item);
          }
          break;
        }
      }
    }
    cur = next;
  }
  return cur;
}

function collect(v: unknown, name: string, out: unknown[]): void {
  if (v === null || typeof v !== 'object') return;
  if (!Array.isArray(v) && name in v) out.push((v as Record<string, unknown>)[name]);
  for (const x of Object.values(v)) collect(x, name, out);
}

/** Go's %#U of a character: `U+005D ']'` (U+FFFD for the end of the text). */
function goRune(ch: string | undefined): string {
  const c = ch === undefined || ch === '' ? 0xfffd : ch.codePointAt(0)!;
  return `U+${c.toString(16).toUpperCase().padStart(4, '0')} '${String.fromCodePoint(c)}'`;
}

/** A value as the JSONPath printer prints it: strings as they are, the rest as encoding/json does (map keys sorted, <>& escaped). */
function text(v: unknown): string {
  if (typeof v === 'string') return v;
  return JSON.stringify(sortedKeys(v)).replace(
    /[<>&\u2028\u2029]/g,
    (c) => '\\u' + c.charCodeAt(0).toString(16).padStart(4, '0'),
  );
}

function sortedKeys(v: unknown): unknown {
  if (Array.isArray(v)) return v.map(sortedKeys);
  if (v && typeof v === 'object')
    return Object.fromEntries(
      Object.keys(v)
        .sort()
        .map((k) => [k, sortedKeys((v as Record<string, unknown>)[k])]),
    );
  return v;
}

function run(nodes: Node[], data: unknown, out: string[]): void {
  for (const n of nodes) {
    if (n.k === 'text') out.push(n.text);
    else if (n.k === 'expr') out.push(walk([data], n.steps, true).map(text).join(' '));
    else
      for (const item of walk([data], n.steps, true).flatMap((v): unknown[] => (Array.isArray(v) ? v : [v])))
        run(n.body, item, out);
  }
}

/** Go's strconv.Quote of a string (what %#v prints for one). */
function goQuote(s: string): string {
  const named: Record<string, string> = {
    '"': '\\"',
    '\\': '\\\\',
    '\n': '\\n',
    '\t': '\\t',
    '\r': '\\r',
    '\x07': '\\a',
    '\b': '\\b',
    '\f': '\\f',
    '\v': '\\v',
  };
  let out = '"';
  for (const c of s) {
    const code = c.codePointAt(0)!;
    if (named[c]) out += named[c];
    else if (code < 0x20 || code === 0x7f) out += `\\x${code.toString(16).padStart(2, '0')}`;
    else if (code === 0x2028 || code === 0x2029) out += `\\u${code.toString(16)}`;
    else out += c;
  }
  return out + '"';
}

/** fmt's %#v of a value decoded from JSON into interface{} (maps with sorted keys, int64 and float64 numbers). */
export function goSharpV(v: unknown): string {
  if (v === null || v === undefined) return 'interface {}(nil)';
  if (typeof v === 'string') return goQuote(v);
  if (typeof v === 'number' || typeof v === 'boolean') return String(v);
  if (Array.isArray(v)) return `[]interface {}{${v.map(goSharpV).join(', ')}}`;
  const o = v as Record<string, unknown>;
  return `map[string]interface {}{${Object.keys(o)
    .sort()
    .map((k) => `${goQuote(k)}:${goSharpV(o[k])}`)
    .join(', ')}}`;
}

/** JSONPathPrinter.PrintObj's error for a template that failed on `data`, as kubectl prints it. */
function jsonPathExecFailure(template: string, data: unknown, err: JsonPathExecError): string {
  return (
    `error: error executing jsonpath ${goQuote(template)}: Error executing template: ${err.message}. Printing more information for debugging the template:\n` +
    `\ttemplate was:\n\t\t${template}\n\tobject given to jsonpath engine was:\n\t\t${goSharpV(data)}\n\n\n`
  );
}

/**
 * FindResults: for each top-level piece of a template, the values it finds in `data` (a text piece
 * finds its text), as kubectl's sorter reads them; missing keys find nothing.
 */
export function jsonPathResults(template: string, data: unknown): unknown[][] {
  return parseJsonPath(template).map((n) => (n.k === 'text' ? [n.text] : walk([data], n.steps)));
}

/** Render a template against an object (a single object, or a List); a JsonPathExecError when it fails on it. */
export function renderJsonPath(template: string, data: unknown): string {
  const out: string[] = [];
  run(parseJsonPath(template), data, out);
  return out.join('');
}

/** The text a template prints for `data`, or kubectl's whole error when it fails on it. */
export function executeJsonPath(template: string, data: unknown): { text: string } | { error: string } {
  try {
    return { text: renderJsonPath(template, data) };
  } catch (e) {
    if (e instanceof JsonPathExecError) return { error: jsonPathExecFailure(template, data, e) };
    throw e;
  }
}
