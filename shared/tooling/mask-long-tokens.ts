/**
 * A copy of a `.mthds` text that `toml-eslint-parser` can tokenize whatever its token lengths: its tokenizer builds
 * each string, quoted key and number with `String.fromCodePoint(...codePoints)`, one call argument per character, and
 * overflows the stack past about 100,000 characters (a 200 KB prompt). The copy has the same length and the same
 * string indices, so the AST's ranges are ranges of the original text.
 *
 * Only the editor routes use the copy, for positions (syntax errors, key ranges); the data always comes from the
 * original text (smol-toml), so nothing a caller sees is read from a masked token.
 *
 * @see docs/api.md#post-v1lint, shared/mthds/parse/toml-scan.ts
 */
import type { LongToken } from '../mthds/parse/toml-scan.js';

/** Tokens longer than this many UTF-16 code units are masked. */
export const LONG_TOKEN_CHARS = 4096;

function emptyString(text: string, start: number, length: number): string {
  const quote = text[start] ?? '"';
  const delimiter = text[start + 1] === quote && text[start + 2] === quote ? quote.repeat(3) : quote;
  return `${delimiter}${delimiter}`.padEnd(length, ' ');
}

function masked(text: string, token: LongToken, ordinal: number): string {
  const length = token.end - token.start;
  switch (token.kind) {
    case 'string':
      return emptyString(text, token.start, length);
    case 'key':
      return `k${ordinal}`.padEnd(length, ' ');
    case 'bare':
      return '0'.padEnd(length, ' ');
  }
}

/**
 * Mask long tokens, keeping every index: a string becomes an empty string of the same kind padded with spaces
 * (`""    `, `''''''    `), a quoted key a distinct bare key padded with spaces (`k3    `), another value run `0`
 * padded with spaces. A masked text parses as the original does, except that errors inside a masked token are left
 * to smol-toml, which reads the original; the range of a masked value covers its empty string only.
 * @param text - the `.mthds` text
 * @param tokens - its long tokens, in text order ({@link scanToml} with `longToken: LONG_TOKEN_CHARS`)
 * @returns the masked copy, or `text` itself when there is nothing to mask
 */
export function maskLongTokens(text: string, tokens: readonly LongToken[]): string {
  if (tokens.length === 0) return text;
  const parts: string[] = [];
  let cursor = 0;
  tokens.forEach((token, ordinal) => {
    parts.push(text.slice(cursor, token.start), masked(text, token, ordinal));
    cursor = token.end;
  });
  parts.push(text.slice(cursor));
  return parts.join('');
}
