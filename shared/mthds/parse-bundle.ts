/**
 * Stage 1 (LANGUAGE.md §6 S1): `.mthds` text → TOML data, then → a typed bundle blueprint.
 */
import { parse, TomlError } from 'smol-toml';
import { MthdsParserError, type ValidationErrorItem } from '../errors/index.js';
import type { BundleBlueprint } from './blueprint.js';
import { checkBlueprint } from './blueprint-check.js';

/**
 * Parse TOML text into plain data. Dates become ISO strings (content is JSON).
 * @param content - the file text
 * @param source - its logical name, for the message
 * @throws MthdsParserError with 1-based line and column
 */
export function parseToml(content: string, source: string | null): Record<string, unknown> {
  try {
    return JSON.parse(JSON.stringify(parse(content))) as Record<string, unknown>;
  } catch (error) {
    if (error instanceof TomlError) {
      const where = `${source ?? 'bundle'}, line ${error.line}, column ${error.column}`;
      const reason = error.message.split('\n')[0]!.trim();
      throw new MthdsParserError(`TOML syntax error (${where}): ${reason}`, { source, line: error.line, column: error.column }, { cause: error });
    }
    throw new MthdsParserError(`TOML syntax error (${source ?? 'bundle'}): ${(error as Error).message}`, undefined, { cause: error });
  }
}

/**
 * Parse one bundle into its blueprint.
 * @param content - the `.mthds` text
 * @param source - its logical file name, or null
 * @returns the typed blueprint
 * @throws MthdsParserError for TOML syntax errors and for data that is not a bundle (the message lists every problem)
 */
export function parseBundle(content: string, source: string | null): BundleBlueprint {
  const checked = checkBlueprint(parseToml(content, source), source);
  if (!checked.blueprint) {
    throw new MthdsParserError(`Invalid bundle ${source ?? ''}: ${checked.items.map((item: ValidationErrorItem) => item.message).join('; ')}`.replace(/ {2}/, ' '));
  }
  return checked.blueprint;
}
