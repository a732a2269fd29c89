/** A figure's row as the scripts and browser tests see it. */
export interface FigureRowText {
  id: string;
  kind: 'figure' | 'widget';
  title: string;
  chapter: string;
  anchor: string;
}
/** Every figure's row, in the table's order, from the text of embeds.ts. */
export function parseFigureRows(text: string): FigureRowText[];
/** The registry's rows, read from src/components/embeds.ts. */
export function figureRows(): FigureRowText[];
