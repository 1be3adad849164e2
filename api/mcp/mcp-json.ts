/**
 * JSON between the MCP endpoint and the diagnostic routes' answerer, which reads undecoded bodies and answers encoded
 * ones (docs/isolation.md#request-bodies).
 */
import type { RawJsonBody } from '../body/decode-json.js';
import type { EncodedJson } from '../offload/encode-json.js';

/**
 * A value as the body of a diagnostic request.
 * @param value - plain JSON (a tool's checked arguments)
 */
export function rawJson(value: unknown): RawJsonBody {
  return { bytes: new TextEncoder().encode(JSON.stringify(value)), charset: 'utf-8' };
}

/**
 * The value of an encoded answer.
 * @param encoded - a diagnostic route's 200 body
 */
export function encodedJsonValue(encoded: EncodedJson): unknown {
  return JSON.parse(new TextDecoder().decode(encoded));
}
