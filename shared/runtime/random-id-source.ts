/**
 * The production {@link IdSource}: short random ids for stuff codes (RUNTIME.md §1.4 uses 5-character shortuuids).
 * Tests inject a deterministic source instead.
 */
import { randomBytes } from 'node:crypto';
import type { IdSource } from './ports.js';

const ALPHABET = '23456789ABCDEFGHJKLMNPQRSTUVWXYZabcdefghijkmnopqrstuvwxyz';

/**
 * Create an id source.
 * @param length - characters per id (default 8, about 46 bits)
 */
export function randomIdSource(length = 8): IdSource {
  return {
    next(): string {
      const bytes = randomBytes(length);
      let id = '';
      for (const byte of bytes) id += ALPHABET[byte % ALPHABET.length];
      return id;
    },
  };
}
