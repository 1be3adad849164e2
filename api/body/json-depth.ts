/**
 * The nesting depth of a raw JSON body, measured before it is parsed (spec §8, docs/limits.md "JSON depth").
 *
 * Why a scan of the raw bytes: it is one tight loop over bytes the body parser already holds, it stops at the first
 * level past the limit, and it runs before `JSON.parse`, so no deep value is ever built. A `JSON.parse` reviver would
 * need V8's internaliser, which recurses on the depth it is given; a walk of the parsed value would be a second pass
 * over a value that may already be too deep for the code after it (`JSON.stringify`, zod, the runtime).
 *
 * Depth counts the open arrays and objects around a point: `1` and `"a"` are depth 0, `{}` and `[]` depth 1,
 * `{"a":[{}]}` depth 3. Brackets inside strings do not count. A body that is not valid JSON is measured all the same
 * (the parser refuses it next).
 */

const QUOTE = 0x22;
const BACKSLASH = 0x5c;
const OPEN_BRACKET = 0x5b;
const CLOSE_BRACKET = 0x5d;
const OPEN_BRACE = 0x7b;
const CLOSE_BRACE = 0x7d;

/**
 * Whether a JSON text nests deeper than a limit.
 * @param body - the raw body as UTF-8 bytes (every byte the scan looks at is ASCII, and no byte of a multi-byte
 *   UTF-8 character is below 0x80, so the bytes can be scanned without decoding)
 * @param maxDepth - the deepest nesting allowed (`MAX_JSON_DEPTH`)
 * @returns true as soon as an array or object opens at depth `maxDepth + 1`
 */
export function jsonDepthExceeds(body: Uint8Array, maxDepth: number): boolean {
  let depth = 0;
  let inString = false;
  for (let index = 0; index < body.length; index += 1) {
    const byte = body[index];
    if (inString) {
      if (byte === BACKSLASH) index += 1;
      else if (byte === QUOTE) inString = false;
    } else if (byte === QUOTE) {
      inString = true;
    } else if (byte === OPEN_BRACKET || byte === OPEN_BRACE) {
      depth += 1;
      if (depth > maxDepth) return true;
    } else if ((byte === CLOSE_BRACKET || byte === CLOSE_BRACE) && depth > 0) {
      depth -= 1;
    }
  }
  return false;
}
