/**
 * Decoding a JSON request body from its raw bytes: charset, nesting depth, `JSON.parse` (spec §8, docs/limits.md).
 *
 * A pure function of plain data, so it runs wherever the body is decoded: on the event loop for the small bodies of
 * the run routes, in a diagnostics thread for the large ones and for every diagnostic route (docs/isolation.md
 * "Request bodies"). Either way the caller sees the same errors with the same details.
 */
import { TextDecoder } from 'node:util';
import { InvalidJSON, type MthdsError, ValidationError } from '../../shared/errors/index.js';
import { jsonDepthExceeds } from './json-depth.js';

/**
 * Which error a malformed body gives: the run routes answer `InvalidJSON`, typed-body routes `ValidationError`
 * (API-CONTRACT.md §1.8, §3.5).
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
 * The detail of a body nested too deeply.
 * @param maxJsonDepth - the limit (`MAX_JSON_DEPTH`)
 */
function jsonDepthDetail(maxJsonDepth: number): string {
  return `JSON nesting depth exceeds ${maxJsonDepth} (MAX_JSON_DEPTH)`;
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

function tooDeep(maxJsonDepth: number, kind: BodyKind): MthdsError {
  const detail = jsonDepthDetail(maxJsonDepth);
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

/**
 * Decode a body. An empty body is `{}` (a common client mistake, as body-parser reads it); any JSON value is accepted
 * at the top level (the route's schema judges it); an absent body (no `Content-Length`, no chunked encoding) is
 * `undefined`.
 * @param body - the raw body, or undefined when the request has none
 * @param maxJsonDepth - the deepest nesting accepted (`MAX_JSON_DEPTH`); `{}` is depth 1
 * @param kind - which error class a bad body maps to
 * @returns the parsed value
 * @throws InvalidJSON (`run`) or ValidationError (`typed`), 422, for a body nested deeper than `maxJsonDepth`
 *   (detail `JSON nesting depth exceeds 64 (MAX_JSON_DEPTH)`), for a charset other than UTF-8/16 and for malformed
 *   JSON (the detail quotes the parser's message)
 */
export function decodeJsonBody(body: RawJsonBody | undefined, maxJsonDepth: number, kind: BodyKind): unknown {
  if (body === undefined) return undefined;
  const textDecoder = decoder(body.charset);
  if (!textDecoder) throw malformedBodyError(kind, `unsupported charset "${body.charset.toUpperCase()}"`);
  const isUtf8 = textDecoder.encoding === 'utf-8';
  if (isUtf8 && jsonDepthExceeds(body.bytes, maxJsonDepth)) throw tooDeep(maxJsonDepth, kind);
  const text = textDecoder.decode(body.bytes);
  if (!isUtf8 && jsonDepthExceeds(Buffer.from(text, 'utf8'), maxJsonDepth)) throw tooDeep(maxJsonDepth, kind);
  if (text.length === 0) return {};
  try {
    return JSON.parse(text) as unknown;
  } catch (error) {
    throw malformedBodyError(kind, (error as Error).message);
  }
}
