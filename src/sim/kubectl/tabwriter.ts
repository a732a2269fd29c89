// Go's text/tabwriter (flags 0): cells end at '\t', the text after a line's last tab is not aligned,
// and a column block runs over consecutive lines that have a cell in that column.

/** Options as in tabwriter.NewWriter(out, minwidth, tabwidth, padding, ' ', 0). */
interface TabOptions {
  minwidth: number;
  padding: number;
}

/** kubectl get: printers.GetNewTabWriter (minwidth 6, padding 3). */
export const GET_TABS: TabOptions = { minwidth: 6, padding: 3 };
/** kubectl describe: tabwriter.NewWriter(buf, 0, 8, 2, ' ', 0). */
export const DESCRIBE_TABS: TabOptions = { minwidth: 0, padding: 2 };

/** Align text the way Go's tabwriter does and return it. */
export function tabwrite(text: string, opts: TabOptions): string {
  const endsNl = text.endsWith('\n');
  const lines = (endsNl ? text.slice(0, -1) : text).split('\n').map((l) => l.split('\t'));
  const widths: number[] = [];
  const out: string[] = [];
  const width = (s: string) => [...s].length;
  const writeLines = (l0: number, l1: number) => {
    for (let i = l0; i < l1; i++) {
      const cells = lines[i];
      let s = '';
      for (let j = 0; j < cells.length; j++) {
        s += cells[j];
        if (j < widths.length && j < cells.length - 1) s += ' '.repeat(Math.max(0, widths[j] - width(cells[j])));
      }
      out.push(s);
    }
  };
  const format = (line0: number, line1: number) => {
    const column = widths.length;
    for (let t = line0; t < line1; t++) {
      if (column >= lines[t].length - 1) continue;
      writeLines(line0, t);
      line0 = t;
      let w = opts.minwidth;
      for (; t < line1; t++) {
        const line = lines[t];
        if (column >= line.length - 1) break;
        const cw = width(line[column]) + opts.padding;
        if (cw > w) w = cw;
      }
      widths.push(w);
      format(line0, t);
      widths.pop();
      line0 = t;
      t--; // the for loop's t++ resumes at the line that ended the block
    }
    writeLines(line0, line1);
  };
  format(0, lines.length);
  return out.join('\n') + (endsNl ? '\n' : '');
}
