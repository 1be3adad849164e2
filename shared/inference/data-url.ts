/**
 * Base64 `data:` URLs as the provider wires send them inline (images and documents;
 * docs/inference.md#provider-wire-formats).
 */

const BASE64_DATA_URL = /^data:([^;,]+);base64,(.*)$/s;

/**
 * Split a base64 `data:` URL.
 * @param url - any URL
 * @returns its media type and base64 payload, or undefined for another URL (http(s), or a `data:` URL without a type
 *   or not in base64)
 */
export function parseBase64DataUrl(url: string): { mimeType: string; base64: string } | undefined {
  const match = BASE64_DATA_URL.exec(url);
  return match ? { mimeType: match[1]!, base64: match[2]! } : undefined;
}
