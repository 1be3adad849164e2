/**
 * The pre-scan of a raw JSON body, before it is parsed (spec §8, docs/limits.md#json-depth, "JSON values", "Lone
 * surrogates"): its nesting depth, how many values it holds, and whether a string escapes a lone UTF-16 surrogate.
 *
 * Why a scan of the raw bytes: it is one tight loop over bytes the body parser already holds, it stops at the first
 * level or value past a limit, and it runs before `JSON.parse`, so no deep or oversized value is ever built. A
 * `JSON.parse` reviver would need V8's internaliser, which recurses on the depth it is given and builds every value
 * first; a walk of the parsed value would be a second pass over a value that may already be too large or too deep for
 * the code after it (the structured clone back from a thread, `JSON.stringify`, zod, the runtime).
 *
 * - Depth counts the open arrays and objects around a point: `1` and `"a"` are depth 0, `{}` and `[]` depth 1,
 *   `{"a":[{}]}` depth 3.
 * - Values: each string (an object's keys included), number, `true`, `false`, `null`, array and object counts one, at
 *   every depth: `{"a":[1,"x"]}` holds 5 (the object, the key, the array and its two items).
 * - A lone surrogate is a `\uD800`–`\uDBFF` escape not followed by a `\uDC00`–`\uDFFF` one, or a `\uDC00`–`\uDFFF`
 *   escape not preceded by one: JSON text may spell it, but it is no Unicode character. Raw bytes cannot carry one (a
 *   UTF-8 decoder reads an encoded surrogate as U+FFFD), so escapes are the only way in.
 *
 * Brackets, quotes and escapes inside strings do not count. A body that is not valid JSON is measured all the same
 * (the parser refuses it next).
 */

/** Structural limits of a JSON body. */
export interface JsonLimits {
  /** The deepest nesting allowed (`MAX_JSON_DEPTH`); `{}` is depth 1. */
  maxJsonDepth: number;
  /** The most values allowed (`MAX_JSON_VALUES`), keys included. */
  maxJsonValues: number;
}

/**
 * What the scan found: `ok`, a limit passed (`too_deep`, `too_many_values`: the scan stopped there), or a lone
 * surrogate escape in a body within both limits.
 */
export type JsonScanVerdict = 'ok' | 'too_deep' | 'too_many_values' | 'lone_surrogate';

const QUOTE = 0x22;
const BACKSLASH = 0x5c;
const LETTER_U = 0x75;
const OPEN_BRACKET = 0x5b;
const CLOSE_BRACKET = 0x5d;
const OPEN_BRACE = 0x7b;
const CLOSE_BRACE = 0x7d;

/** Byte classes outside strings: a byte of a number or literal (`-1.5e3`, `true`), whitespace, or punctuation. */
const BARE = 0;
const SPACE = 1;
const PUNCTUATION = 2;
const CLASS = new Uint8Array(256);
for (const byte of [0x20, 0x09, 0x0a, 0x0d]) CLASS[byte] = SPACE;
for (const char of '{}[],:"') CLASS[char.charCodeAt(0)] = PUNCTUATION;

/** The value of one hexadecimal digit byte, or -1. */
function hexDigit(byte: number | undefined): number {
  if (byte === undefined) return -1;
  if (byte >= 0x30 && byte <= 0x39) return byte - 0x30;
  const lower = byte | 0x20;
  return lower >= 0x61 && lower <= 0x66 ? lower - 0x61 + 10 : -1;
}

/** The code unit of the `\uXXXX` escape whose `u` is at `index`, or -1 when its four digits are not hexadecimal. */
function escapedUnit(body: Uint8Array, index: number): number {
  let unit = 0;
  for (let offset = 1; offset <= 4; offset += 1) {
    const digit = hexDigit(body[index + offset]);
    if (digit < 0) return -1;
    unit = unit * 16 + digit;
  }
  return unit;
}

const isHighSurrogate = (unit: number): boolean => unit >= 0xd800 && unit <= 0xdbff;
const isLowSurrogate = (unit: number): boolean => unit >= 0xdc00 && unit <= 0xdfff;

/**
 * Scan a JSON text against its limits.
 * @param body - the raw body as UTF-8 bytes (every byte the scan looks at is ASCII, and no byte of a multi-byte UTF-8
 *   character is below 0x80, so the bytes can be scanned without decoding)
 * @param limits - `MAX_JSON_DEPTH` and `MAX_JSON_VALUES`
 * @returns `too_deep` as soon as an array or object opens at depth `maxJsonDepth + 1`, `too_many_values` as soon as
 *   value `maxJsonValues + 1` starts, else `lone_surrogate` when a string escapes a lone surrogate, else `ok`
 */
export function scanJson(body: Uint8Array, limits: JsonLimits): JsonScanVerdict {
  const { maxJsonDepth, maxJsonValues } = limits;
  let depth = 0;
  let values = 0;
  let inString = false;
  let inBare = false;
  let loneSurrogate = false;
  const start = body[0] === 0xef && body[1] === 0xbb && body[2] === 0xbf ? 3 : 0; // a UTF-8 byte order mark
  for (let index = start; index < body.length; index += 1) {
    const byte = body[index] as number;
    if (inString) {
      if (byte === QUOTE) inString = false;
      else if (byte === BACKSLASH) {
        index += 1;
        if (body[index] !== LETTER_U) continue;
        const unit = escapedUnit(body, index);
        if (isHighSurrogate(unit)) {
          const pairs = body[index + 5] === BACKSLASH && body[index + 6] === LETTER_U;
          if (pairs && isLowSurrogate(escapedUnit(body, index + 6))) index += 10;
          else loneSurrogate = true;
        } else if (isLowSurrogate(unit)) loneSurrogate = true;
      }
      continue;
    }
    const byteClass = CLASS[byte];
    if (byteClass === BARE) {
      if (inBare) continue;
      inBare = true;
    } else {
      inBare = false;
      if (byteClass === SPACE) continue;
      if (byte === CLOSE_BRACKET || byte === CLOSE_BRACE) {
        if (depth > 0) depth -= 1;
        continue;
      }
      if (byte === QUOTE) inString = true;
      else if (byte === OPEN_BRACKET || byte === OPEN_BRACE) {
        depth += 1;
        if (depth > maxJsonDepth) return 'too_deep';
      } else continue;
    }
    values += 1;
    if (values > maxJsonValues) return 'too_many_values';
  }
  return loneSurrogate ? 'lone_surrogate' : 'ok';
}
