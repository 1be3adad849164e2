/**
 * The diagnostic routes' answers by content (docs/isolation.md#answer-cache): validate, resolve, codegen, build,
 * lint and format answer a pure function of the request body and the deployment, so the same body from the same
 * caller is answered from the cache without a thread. Only 200 answers of inline requests are kept (a `method_ref`
 * names a package whose tag may move); errors are computed every time.
 *
 * The key is the SHA-256 of the route, the caller's own id (no caller learns from a hit's speed that another caller
 * sent the same body), the deployment context (limits, orchestration modes, the model deck's names) and the body's
 * charset and bytes. Entries are bounded by their bytes (`DIAGNOSTIC_CACHE_MIB`), the least recently used dropped
 * first; 0 turns the cache off.
 */
import { createHash } from 'node:crypto';
import { LRUCache } from 'lru-cache';
import type { RawJsonBody } from '../body/decode-json.js';
import type { EncodedJson } from './encode-json.js';

/** Bytes an entry costs beyond its answer: the key and the cache's own bookkeeping, about. */
const ENTRY_OVERHEAD_BYTES = 256;

/** Where a request's answer is looked for, and kept. */
export interface AnswerKeyParts {
  /** The diagnostic route (e.g. `validate`). */
  route: string;
  /** The caller's own id (`Identity.userId`). */
  owner: string;
  /** Everything of the deployment the answer depends on, serialised (limits, modes, model deck names). */
  context: string;
  /** The undecoded request body; undefined when the request has none. */
  body: RawJsonBody | undefined;
}

/** The answers of one API process, by request content. */
export class AnswerCache {
  private readonly answers: LRUCache<string, EncodedJson> | null;

  /**
   * @param maxBytes - the most bytes the kept answers may hold; 0 keeps none
   */
  constructor(maxBytes: number) {
    this.answers =
      maxBytes > 0
        ? new LRUCache<string, EncodedJson>({
            maxSize: maxBytes,
            sizeCalculation: (answer) => answer.byteLength + ENTRY_OVERHEAD_BYTES,
          })
        : null;
  }

  /**
   * The key of a request: a hex SHA-256 over its parts, each length-prefixed so that no two requests share one.
   * @param parts - route, owner, deployment context and body
   */
  static key(parts: AnswerKeyParts): string {
    const hash = createHash('sha256');
    for (const text of [parts.route, parts.owner, parts.context, parts.body?.charset ?? '']) {
      hash.update(`${Buffer.byteLength(text)}:${text}\n`);
    }
    if (parts.body) hash.update(parts.body.bytes);
    return hash.digest('hex');
  }

  /**
   * The kept answer of a key, marked recently used.
   * @param key - from {@link AnswerCache.key}
   * @returns the answer's bytes, or undefined when none is kept (or the cache is off)
   */
  get(key: string): EncodedJson | undefined {
    return this.answers?.get(key);
  }

  /**
   * Keep an answer. One larger than the whole cache is not kept.
   * @param key - from {@link AnswerCache.key}
   * @param answer - the 200 body, encoded
   */
  set(key: string, answer: EncodedJson): void {
    if (this.answers && answer.byteLength + ENTRY_OVERHEAD_BYTES <= this.answers.maxSize) this.answers.set(key, answer);
  }
}
