/**
 * TOML syntax and key-rule checks for the editor routes, with positions: the text is parsed by `toml-eslint-parser`
 * (an AST with source ranges), then by smol-toml (the parser the runtime uses), so a clean result means the runtime
 * reads the file too.
 *
 * @see docs/api.md#post-v1lint, docs/rules.md
 */
import { type AST, ParseError, parseTOML } from 'toml-eslint-parser';
import { MthdsParserError } from '../errors/index.js';
import { parseToml, tomlDepthError } from '../mthds/parse/parse-toml.js';
import { scanToml } from '../mthds/parse/toml-scan.js';
import type { Diagnostic } from './diagnostic.js';
import { LONG_TOKEN_CHARS, maskLongTokens } from './mask-long-tokens.js';
import type { SourceText } from './source-text.js';

/** `toml-eslint-parser`'s message for a key defined twice (its `dupe-keys` code), the one TOML key rule. */
const DUPLICATE_KEY = 'Defining a key multiple times is invalid';

/** A parsed document, or the diagnostic of why it is not one. */
export type TomlCheck = { ast: AST.TOMLProgram; data: Record<string, unknown> } | { diagnostic: Diagnostic };

/**
 * Parse a `.mthds` text.
 * @param content - the text
 * @param text - the same text, for ranges
 * @returns the AST and the data, or one diagnostic: `semantic` for a key defined twice, `syntax` otherwise (the first
 *   error; its range is the point where parsing stopped; a text nesting past `MAX_TOML_DEPTH` is a `syntax`
 *   diagnostic at the key, header or bracket opening the level, found before either parser runs)
 */
export function checkToml(content: string, text: SourceText): TomlCheck {
  const scan = scanToml(content, { longToken: LONG_TOKEN_CHARS });
  if (scan.tooDeep) return { diagnostic: parserDiagnostic(tomlDepthError(content, scan.tooDeep, null), text) };
  let ast: AST.TOMLProgram;
  try {
    ast = parseTOML(maskLongTokens(content, scan.longTokens));
  } catch (error) {
    if (!(error instanceof ParseError)) throw error;
    const kind = error.message === DUPLICATE_KEY ? 'semantic' : 'syntax';
    return {
      diagnostic: {
        kind,
        severity: 'error',
        message: error.message,
        location: null,
        range: text.range(error.index, error.index),
      },
    };
  }
  try {
    return { ast, data: parseToml(content, null) };
  } catch (error) {
    if (!(error instanceof MthdsParserError)) throw error;
    return { diagnostic: parserDiagnostic(error, text) };
  }
}

function parserDiagnostic(error: MthdsParserError, text: SourceText): Diagnostic {
  const at = error.position ? text.indexAt(error.position.line, error.position.column) : 0;
  return { kind: 'syntax', severity: 'error', message: error.message, location: null, range: text.range(at, at) };
}
