/**
 * The production {@link IdSource}: short random ids for stuff codes (docs/runtime.md#working-memory uses 5-character
 * shortuuids).
 * Tests inject a deterministic source instead.
 */
import { randomFillSync } from 'node:crypto';
import type { IdSource } from './ports.js';

const ALPHABET = '23456789ABCDEFGHJKLMNPQRSTUVWXYZabcdefghijkmnopqrstuvwxyz';

/** Random bytes drawn at once: a dry run mints thousands of ids, and one system call per id cost more than the run. */
const POOL_BYTES = 4096;

/**
 * Create an id source.
 * @param length - characters per id (default 8, about 46 bits)
 */
export function randomIdSource(length = 8): IdSource {
  const pool = Buffer.alloc(Math.max(POOL_BYTES, length));
  let used = pool.length;
  return {
    next(): string {
      if (used + length > pool.length) {
        randomFillSync(pool);
        used = 0;
      }
      let id = '';
      for (const byte of pool.subarray(used, used + length)) id += ALPHABET[byte % ALPHABET.length];
      used += length;
      return id;
    },
  };
}
