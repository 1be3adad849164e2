/**
 * Position arithmetic over one text: JavaScript string indices (UTF-16 code units, what the TOML parser reports) to
 * the byte offsets, lines and columns of a {@link Range}.
 *
 * @see API-CONTRACT.md §3.13 (Range)
 */
import type { Range } from './diagnostic.js';

interface Point {
  offset: number;
  line: number;
  col: number;
}

/** A text with its line starts, answering positions in the units of the wire. */
export class SourceText {
  private readonly lineStarts: number[] = [0];

  /** @param text - the whole `.mthds` text */
  constructor(private readonly text: string) {
    for (let index = 0; index < text.length; index += 1) if (text.charCodeAt(index) === 10) this.lineStarts.push(index + 1);
  }

  /**
   * The range between two string indices.
   * @param start - UTF-16 index of the first character (clamped to the text)
   * @param end - UTF-16 index just past the last character (clamped; never before `start`)
   * @returns byte offsets (0-based) and 1-based lines and code-point columns
   */
  range(start: number, end: number): Range {
    const from = this.point(start);
    const to = this.point(Math.max(start, end));
    return { start_offset: from.offset, end_offset: to.offset, start_line: from.line, start_col: from.col, end_line: to.line, end_col: to.col };
  }

  private point(rawIndex: number): Point {
    const index = Math.min(Math.max(0, rawIndex), this.text.length);
    let line = 0;
    let high = this.lineStarts.length - 1;
    while (line < high) {
      const middle = Math.ceil((line + high) / 2);
      if ((this.lineStarts[middle] ?? 0) <= index) line = middle;
      else high = middle - 1;
    }
    const lineStart = this.lineStarts[line] ?? 0;
    const before = this.text.slice(0, index);
    return { offset: Buffer.byteLength(before, 'utf8'), line: line + 1, col: [...this.text.slice(lineStart, index)].length + 1 };
  }
}
