// A script line split into words as a POSIX shell would (quotes and backslashes; no expansion),
// for handing a `kubectl …` line to the real kubectl's argv.

/** Words of one command line. */
export function shellWords(line: string): string[] {
  const out: string[] = [];
  let cur = '';
  let has = false;
  for (let i = 0; i < line.length; i++) {
    const c = line[i];
    if (c === "'") {
      const j = line.indexOf("'", i + 1);
      if (j < 0) throw new Error(`unterminated ' in: ${line}`);
      cur += line.slice(i + 1, j); i = j; has = true;
    } else if (c === '"') {
      i++;
      for (; i < line.length && line[i] !== '"'; i++) {
        if (line[i] === '\\' && i + 1 < line.length && '"\\$`'.includes(line[i + 1])) i++;
        cur += line[i];
      }
      if (i >= line.length) throw new Error(`unterminated " in: ${line}`);
      has = true;
    } else if (c === '\\' && i + 1 < line.length) {
      cur += line[++i]; has = true;
    } else if (/\s/.test(c)) {
      if (has) out.push(cur);
      cur = ''; has = false;
    } else { cur += c; has = true; }
  }
  if (has) out.push(cur);
  return out;
}
