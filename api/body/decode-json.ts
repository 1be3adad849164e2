/**
 * Decoding a JSON request body from its raw bytes: charset, the pre-scan of its depth, values and lone surrogates,
 * `JSON.parse` (spec §8, docs/limits.md).
 *
 * A pure function of plain data, so it runs wherever the body is decoded: on the event loop for the small bodies of
 * the run routes, in a diagnostics thread for the large ones and for every diagnostic route (docs/isolation.md
 * "Request bodies"). Either way the caller sees the same errors with the same details.
 */
import { TextDecoder } from 'node:util';
import { InvalidJSON, type MthdsError, ValidationError } from '../../shared/errors/index.js';
import { type JsonLimits, scanJson } from './json-scan.js';

/**
 * Which error a malformed body gives: the run routes answer `InvalidJSON`, typed-body routes `ValidationError`
 * (docs/api.md#request-validation, docs/api.md#post-v1execute).
 */
export type BodyKind = 'run' | 'typed';

/** A request body as read from the socket, before decoding: structured-clonable, so it can cross to a thread. */
export interface RawJsonBody {
  /** The body's bytes, after any `Content-Encoding` was undone. */
  bytes: Uint8Array;
  /** The `charset` parameter of the request's `Content-Type`, lower-cased; `utf-8` when absent. */
  charset: string;
}

/**
 * The error of a body that cannot be read or decoded.
 * @param kind - the route's body kind
 * @param reason - what is wrong, for the detail
 * @returns InvalidJSON (`run`) or ValidationError (`typed`), both 422
 */
export function malformedBodyError(kind: BodyKind, reason: string): MthdsError {
  return kind === 'run'
    ? new InvalidJSON(`Request body is not valid JSON: ${reason}`)
    : new ValidationError(`body: JSON decode error: ${reason}`);
}

/**
 * The error of a body past a structural limit.
 * @param verdict - the limit the pre-scan found passed
 * @param limits - the limits it was scanned against
 * @param kind - the route's body kind
 * @returns InvalidJSON (`run`) or ValidationError (`typed`), both 422, naming the limit and its setting
 */
function overLimit(verdict: 'too_deep' | 'too_many_values', limits: JsonLimits, kind: BodyKind): MthdsError {
  const detail =
    verdict === 'too_deep'
      ? `JSON nesting depth exceeds ${limits.maxJsonDepth} (MAX_JSON_DEPTH)`
      : `JSON body holds more than ${limits.maxJsonValues} values (MAX_JSON_VALUES); each string, object key, number, true, false, null, array and object counts one`;
  return kind === 'run' ? new InvalidJSON(detail) : new ValidationError(detail);
}

function decoder(charset: string): TextDecoder | undefined {
  // RFC 8259 §8.1: JSON is Unicode; only the UTF encodings a TextDecoder knows are read (utf-8, utf-16le, utf-16be).
  if (!charset.startsWith('utf-')) return undefined;
  try {
    return new TextDecoder(charset);
  } catch {
    return undefined;
  }
}

/** A lone surrogate: a code point U+D800–U+DFFF, which a well-formed string holds only as half of a pair. */
const LONE_SURROGATE = /\p{Cs}/u;

/** Longest key printed in a path; a longer one is cut with `…`. */
const MAX_PRINTED_KEY = 64;

/** Where a parsed value holds a lone surrogate: the path to the string, and whether it is a key of that path. */
interface SurrogateSite {
  path: (string | number)[];
  inKey: boolean;
  surrogate: string;
}

/**
 * The first lone surrogate in a parsed value, depth first (its depth and size are bounded by the pre-scan).
 * @param value - the value
 * @param path - the path to it, extended and restored as the walk goes down (copied into a site found)
 */
function loneSurrogateSite(value: unknown, path: (string | number)[]): SurrogateSite | undefined {
  if (typeof value === 'string') {
    const found = LONE_SURROGATE.exec(value);
    return found ? { path: [...path], inKey: false, surrogate: found[0] } : undefined;
  }
  if (value === null || typeof value !== 'object') return undefined;
  const entries: [string | number, unknown][] = Array.isArray(value) ? [...value.entries()] : Object.entries(value);
  for (const [key, item] of entries) {
    const found = typeof key === 'string' ? LONE_SURROGATE.exec(key) : null;
    if (found) return { path: [...path], inKey: true, surrogate: found[0] };
    path.push(key);
    const site = loneSurrogateSite(item, path);
    path.pop();
    if (site) return site;
  }
  return undefined;
}

/** A path segment as printed: a key longer than {@link MAX_PRINTED_KEY} is cut, never between a surrogate pair. */
function printedSegment(segment: string | number): string | number {
  if (typeof segment === 'number' || segment.length <= MAX_PRINTED_KEY) return segment;
  const cut = segment.slice(0, MAX_PRINTED_KEY);
  return `${/[\uD800-\uDBFF]$/.test(cut) ? cut.slice(0, -1) : cut}…`;
}

/** The 422 of a body holding a lone surrogate, naming where (docs/limits.md#lone-surrogates). */
function loneSurrogateError(site: SurrogateSite): ValidationError {
  const path = ['body', ...site.path].map(printedSegment).join('.');
  const spelled = `\\u${site.surrogate.charCodeAt(0).toString(16).toUpperCase()}`;
  const where = site.inKey ? `${path}: an object key` : `${path}: the string`;
  return new ValidationError(
    `${where} holds a lone UTF-16 surrogate (${spelled}), which is not Unicode text: escape a character outside the Basic Multilingual Plane as a high and low surrogate pair (\\uD83D\\uDE00), or send it unescaped`,
  );
}

/**
 * Decode a body. An empty body is `{}` (a common client mistake, as body-parser reads it); any JSON value is accepted
 * at the top level (the route's schema judges it); an absent body (no `Content-Length`, no chunked encoding) is
 * `undefined`. Every string of the value, keys included, is well-formed Unicode text.
 * @param body - the raw body, or undefined when the request has none
 * @param limits - the deepest nesting (`MAX_JSON_DEPTH`; `{}` is depth 1) and the most values (`MAX_JSON_VALUES`)
 *   accepted
 * @param kind - which error class a bad body maps to
 * @returns the parsed value
 * @throws InvalidJSON (`run`) or ValidationError (`typed`), 422, before any parse, for a body nested deeper than
 *   `limits.maxJsonDepth` (detail `JSON nesting depth exceeds 64 (MAX_JSON_DEPTH)`) or holding more values than
 *   `limits.maxJsonValues` (detail `JSON body holds more than 100000 values (MAX_JSON_VALUES); …`); the same for a
 *   charset other than UTF-8/16 and for malformed JSON (the detail quotes the parser's message); ValidationError (422)
 *   for a string or key holding a lone UTF-16 surrogate, the detail naming its path (`body.inputs.name: the string
 *   holds a lone UTF-16 surrogate (\uD800), …`)
 */
export function decodeJsonBody(body: RawJsonBody | undefined, limits: JsonLimits, kind: BodyKind): unknown {
  if (body === undefined) return undefined;
  const textDecoder = decoder(body.charset);
  if (!textDecoder) throw malformedBodyError(kind, `unsupported charset "${body.charset.toUpperCase()}"`);
  const isUtf8 = textDecoder.encoding === 'utf-8';
  let verdict = isUtf8 ? scanJson(body.bytes, limits) : 'ok';
  if (verdict === 'too_deep' || verdict === 'too_many_values') throw overLimit(verdict, limits, kind);
  const text = textDecoder.decode(body.bytes);
  if (!isUtf8) verdict = scanJson(Buffer.from(text, 'utf8'), limits);
  if (verdict === 'too_deep' || verdict === 'too_many_values') throw overLimit(verdict, limits, kind);
  if (text.length === 0) return {};
  let value: unknown;
  try {
    value = JSON.parse(text) as unknown;
  } catch (error) {
    throw malformedBodyError(kind, (error as Error).message);
  }
  const site = verdict === 'lone_surrogate' ? loneSurrogateSite(value, []) : undefined;
  if (site) throw loneSurrogateError(site);
  return value;
}
