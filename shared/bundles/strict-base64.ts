/**
 * Strict base64 decoding of `bundle_b64`: the standard alphabet, padded to a multiple of four, no whitespace — the
 * reference decodes with validation on, and Node's own decoder silently skips bad characters.
 *
 * @see docs/bundles.md#whole-bundle-transports
 */
import { InvalidBase64 } from '../errors/index.js';

const STRICT_BASE64 = /^(?:[A-Za-z0-9+/]{4})*(?:[A-Za-z0-9+/]{2}==|[A-Za-z0-9+/]{3}=)?$/;

/**
 * Decode strict base64.
 * @param text - the `bundle_b64` value
 * @returns the decoded bytes
 * @throws InvalidBase64 (400) when `text` is not strict base64
 */
export function decodeStrictBase64(text: string): Buffer {
  if (!STRICT_BASE64.test(text)) throw new InvalidBase64('bundle_b64 is not valid base64.');
  return Buffer.from(text, 'base64');
}
