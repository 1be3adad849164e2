/**
 * The editor diagnostic of `/v1/lint` and `/v1/format`, and the text positions it carries.
 *
 * @see docs/api.md#post-v1lint (Diagnostic, Range)
 */

/** What found the problem: the TOML grammar, TOML's key rules (a key defined twice), or the bundle schema. */
export type DiagnosticKind = 'syntax' | 'semantic' | 'schema';

/**
 * A span of the text. Offsets are 0-based UTF-8 byte offsets (end exclusive); lines and columns are 1-based, a column
 * counting characters (Unicode code points) from the start of its line.
 */
export interface Range {
  start_offset: number;
  end_offset: number;
  start_line: number;
  start_col: number;
  end_line: number;
  end_col: number;
}

/**
 * One problem of a `.mthds` text (every member always present, docs/api.md#post-v1lint).
 * `location` is the dotted TOML key path of the offending key or value (e.g. `pipe.summarize.type`), or null when the
 * problem is not at a key (a syntax error).
 */
export interface Diagnostic {
  kind: DiagnosticKind;
  severity: 'error';
  message: string;
  location: string | null;
  range: Range | null;
}
