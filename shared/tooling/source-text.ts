/**
 * Position arithmetic over one text: JavaScript string indices (UTF-16 code units, what the TOML parser reports) to
 * the byte offsets, lines and columns of a {@link Range}.
 *
 * @see docs/api.md#post-v1lint (Range)
 */
import type { Range } from './diagnostic.js';

interface Point {
  offset: number;
  line: number;
  col: number;
}

/** A text with its line starts, answering positions in the units of the wire. */
export class SourceText {
  /** UTF-16 index of each line's first character. */
  private readonly lineStarts: number[] = [0];
  /** UTF-8 byte offset of each line's first character. */
  private readonly lineByteStarts: number[] = [0];

  /** @param text - the whole `.mthds` text */
  constructor(private readonly text: string) {
    let lineStart = 0;
    for (let index = 0; index < text.length; index += 1) {
      if (text.charCodeAt(index) !== 10) continue;
      this.lineByteStarts.push(
        this.lineByteStarts.at(-1)! + Buffer.byteLength(text.slice(lineStart, index + 1), 'utf8'),
      );
      lineStart = index + 1;
      this.lineStarts.push(lineStart);
    }
  }

  /**
   * The string index of a 1-based line and code-point column (as parsers report them).
   * @param line - 1-based line (clamped to the text)
   * @param column - 1-based column in code points
   */
  indexAt(line: number, column: number): number {
    const start = this.lineStarts[Math.min(Math.max(1, line), this.lineStarts.length) - 1] ?? 0;
    return start + [...this.text.slice(start)].slice(0, Math.max(0, column - 1)).join('').length;
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
    return {
      start_offset: from.offset,
      end_offset: to.offset,
      start_line: from.line,
      start_col: from.col,
      end_line: to.line,
      end_col: to.col,
    };
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
    const inLine = this.text.slice(lineStart, index);
    return {
      offset: (this.lineByteStarts[line] ?? 0) + Buffer.byteLength(inLine, 'utf8'),
      line: line + 1,
      col: [...inLine].length + 1,
    };
  }
}
