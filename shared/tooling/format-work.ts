/**
 * What laying out a text costs the formatter (docs/limits.md#formatting). taplo lays out the items of each table,
 * inline table and array in time that grows with the square of their count: one array of 4,000 numbers (8 KiB) takes
 * about 3 s, 4,000 dotted keys at the top level about 12 s, where forty arrays of 100 numbers take 0.2 s. So the work
 * of a text is counted as the sum, over every table (the top level included), inline table and array, of the square
 * of its items, and a text over {@link MAX_FORMAT_WORK} is refused before taplo sees it.
 */
import type { AST } from 'toml-eslint-parser';

/**
 * Most formatting work a text may ask, counted as {@link formatWork} counts it: one container of about 700 items, or
 * fifty of 100. At this bound the slowest layout measured (dotted keys at the top level) takes under 1 s on a
 * 2-core box; the reference corpus's bundles ask about 1,100 at most.
 */
export const MAX_FORMAT_WORK = 500_000;

/** The formatting work of a text, and its largest container. */
export interface FormatWork {
  /** The sum over every table, inline table and array of the square of its items. */
  work: number;
  /** The container with the most items: their count and the line (from 1) where it opens. */
  largest: { items: number; line: number };
}

/**
 * Count the formatting work of a parsed text.
 * @param program - the text's AST (`toml-eslint-parser`)
 * @returns its work and its largest container
 */
export function formatWork(program: AST.TOMLProgram): FormatWork {
  const result: FormatWork = { work: 0, largest: { items: 0, line: 1 } };
  const count = (items: number, node: AST.TOMLNode) => {
    result.work += items * items;
    if (items > result.largest.items) result.largest = { items, line: node.loc.start.line };
  };
  const pending: AST.TOMLNode[] = [program.body[0]];
  for (let node = pending.pop(); node !== undefined; node = pending.pop()) {
    if (node.type === 'TOMLTopLevelTable' || node.type === 'TOMLTable' || node.type === 'TOMLInlineTable') {
      count(node.body.length, node);
      for (const child of node.body) pending.push(child);
    } else if (node.type === 'TOMLArray') {
      count(node.elements.length, node);
      for (const element of node.elements) pending.push(element);
    } else if (node.type === 'TOMLKeyValue') pending.push(node.value);
  }
  return result;
}
