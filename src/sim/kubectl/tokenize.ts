// A shell-like splitter for one kubectl command line: quotes, backslash escapes, no expansion.

/** Thrown for an unterminated quote (the CLI reports it as a kubectl-style error). */
export class TokenizeError extends Error {}

/** Split a command line into words as a POSIX shell would (single/double quotes, backslashes). */
export function tokenize(line: string): string[] {
  const out: string[] = [];
  let cur = '';
  let inWord = false;
  let i = 0;
  while (i < line.length) {
    const ch = line[i];
    if (ch === ' ' || ch === '\t' || ch === '\n' || ch === '\r') {
      if (inWord) {
        out.push(cur);
        cur = '';
        inWord = false;
      }
      i++;
    } else if (ch === "'") {
      const end = line.indexOf("'", i + 1);
      if (end < 0) throw new TokenizeError('unterminated quoted string');
      cur += line.slice(i + 1, end);
      inWord = true;
      i = end + 1;
    } else if (ch === '"') {
      inWord = true;
      i++;
      for (;;) {
        if (i >= line.length) throw new TokenizeError('unterminated quoted string');
        const c = line[i];
        if (c === '"') {
          i++;
          break;
        }
        if (c === '\\' && i + 1 < line.length && '"\\$`\n'.includes(line[i + 1])) {
          cur += line[i + 1];
          i += 2;
          continue;
        }
        cur += c;
        i++;
      }
    } else if (ch === '\\') {
      // A backslash at the very end is a line continuation with nothing after it: no word of its own.
      if (i + 1 < line.length) {
        cur += line[i + 1];
        i += 2;
        inWord = true;
      } else i++;
    } else {
      cur += ch;
      inWord = true;
      i++;
    }
  }
  if (inWord) out.push(cur);
  return out;
}
