/**
 * Stage S1 (LANGUAGE.md §6): `.mthds` text → TOML data. Duplicate keys and every other TOML error are syntax errors
 * with a 1-based line and column.
 *
 * @see LANGUAGE.md §1.1, §6 S1
 */
import { parse, TomlError } from 'smol-toml';
import { MthdsParserError } from '../../errors/index.js';
import { MESSAGES } from '../messages.js';

/**
 * Parse TOML text into plain JSON data (TOML dates and times become ISO strings, as content is JSON).
 * @param content - the file text
 * @param source - its logical file name (`mthds_sources[i]`), or null; named in the message
 * @returns the top-level table
 * @throws MthdsParserError (`error_type` `MthdsParserError`) whose message starts `TOML syntax error (<source>, line L,
 *   column C)` and whose `position` holds the 1-based line and column
 * @example parseToml('domain = "x"', 'x.mthds') // → { domain: 'x' }
 */
export function parseToml(content: string, source: string | null): Record<string, unknown> {
  let data: Record<string, unknown>;
  try {
    data = parse(content);
  } catch (error) {
    if (!(error instanceof TomlError)) throw error;
    const reason = (error.message.split('\n')[0] ?? '').trim();
    const message = MESSAGES.toml_syntax({ source, line: error.line, column: error.column, reason });
    throw new MthdsParserError(message, { source, line: error.line, column: error.column }, { cause: error });
  }
  return JSON.parse(JSON.stringify(data)) as Record<string, unknown>;
}
