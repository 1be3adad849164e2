/**
 * Media in run values (docs/storage.md#media): `data:` URLs larger than `STORAGE_INLINE_MEDIA_MAX_BYTES` are moved to
 * the object store and replaced by a storage reference `mthds-storage:<scope>/<leaf>/<name>`, so Redis records, job
 * payloads and stored results hold references, not megabytes. The API turns a reference into a URL the caller can
 * fetch; a worker turns its run's references back into `data:` URLs before the runtime sees them. A reference counts
 * only under the run's own scope: one naming any other scope is left as it is (never read, never signed).
 */
import { createHash } from 'node:crypto';
import { extension } from 'mime-types';
import type { ObjectKey, ObjectStore, StorageLeaf } from '../../storage/index.js';
import { objectPath, parseObjectPath } from '../../storage/index.js';

/** The scheme of a storage reference. */
const STORAGE_REF_SCHEME = 'mthds-storage:';

/**
 * The reference of a stored object.
 * @param key - the object's key
 * @returns `mthds-storage:<scope>/<leaf>/<name>`
 */
function storageRef(key: ObjectKey): string {
  return `${STORAGE_REF_SCHEME}${objectPath(key)}`;
}

/**
 * The key a reference names, when `accept` takes it.
 * @param value - any string
 * @param accept - the run's `storage_scope` (a reference under it), or a test of the key
 * @returns the key, or undefined for anything else (not a reference, malformed, or not accepted)
 */
function refKey(value: string, accept: string | ((key: ObjectKey) => boolean)): ObjectKey | undefined {
  if (!value.startsWith(STORAGE_REF_SCHEME)) return undefined;
  try {
    const key = parseObjectPath(value.slice(STORAGE_REF_SCHEME.length));
    return (typeof accept === 'string' ? key.scope === accept : accept(key)) ? key : undefined;
  } catch {
    return undefined;
  }
}

/** A storage reference inside any string (whole, or embedded in a preview or an HTML rendering of a value). */
const EMBEDDED_REF = /mthds-storage:[A-Za-z0-9_./-]+/g;

/**
 * Every storage reference under `scope` (or that `scope` accepts) in a value's strings, whole or embedded.
 * @param value - plain JSON
 * @param scope - the run's `storage_scope`, or a test of each reference's key
 * @returns the references with their keys
 */
export function refsIn(value: unknown, scope: string | ((key: ObjectKey) => boolean)): Map<string, ObjectKey> {
  const found = new Map<string, ObjectKey>();
  for (const text of collectStrings(value, (item) => item.includes(STORAGE_REF_SCHEME)))
    for (const [ref] of text.matchAll(EMBEDDED_REF)) {
      const key = refKey(ref, scope);
      if (key) found.set(ref, key);
    }
  return found;
}

/**
 * A value with storage references, whole or embedded in its strings, replaced.
 * @param value - plain JSON
 * @param replacements - the replacement of each reference; others are left as they are
 */
export function replaceRefs<T>(value: T, replacements: ReadonlyMap<string, string>): T {
  if (replacements.size === 0) return value;
  return mapStrings(value, (text) =>
    text.includes(STORAGE_REF_SCHEME) ? text.replace(EMBEDDED_REF, (ref) => replacements.get(ref) ?? ref) : undefined,
  ) as T;
}

const DATA_URL = /^data:([^;,]*)((?:;[^;,]*)*),/;

interface DecodedDataUrl {
  mimeType: string;
  body: Uint8Array;
}

function decodeDataUrl(url: string): DecodedDataUrl | undefined {
  const head = DATA_URL.exec(url);
  if (!head) return undefined;
  const payload = url.slice(head[0].length);
  const base64 = (head[2] ?? '').split(';').includes('base64');
  try {
    const body = base64 ? Buffer.from(payload, 'base64') : Buffer.from(decodeURIComponent(payload), 'utf8');
    return { mimeType: head[1] || 'text/plain', body: new Uint8Array(body) };
  } catch {
    return undefined;
  }
}

/**
 * A JSON value with some strings replaced.
 * @param value - plain JSON
 * @param replace - the replacement of a string, or undefined to keep it
 */
function mapStrings(value: unknown, replace: (text: string) => string | undefined): unknown {
  if (typeof value === 'string') return replace(value) ?? value;
  if (Array.isArray(value)) return value.map((item) => mapStrings(item, replace));
  if (value !== null && typeof value === 'object')
    return Object.fromEntries(Object.entries(value).map(([name, item]) => [name, mapStrings(item, replace)]));
  return value;
}

/** Whether any string of a value (plain JSON) passes `test`; the walk stops at the first that does. */
function someString(value: unknown, test: (text: string) => boolean): boolean {
  if (typeof value === 'string') return test(value);
  if (value === null || typeof value !== 'object') return false;
  if (Array.isArray(value)) {
    for (const item of value) if (someString(item, test)) return true;
    return false;
  }
  for (const key in value) if (someString((value as Record<string, unknown>)[key], test)) return true;
  return false;
}

/**
 * Every string of a JSON value that satisfies a test, in the order a depth-first walk meets them.
 * @param value - plain JSON
 * @param test - which strings
 * @param found - where they are gathered (a new set by default; the walk's own recursion passes it down)
 */
function collectStrings(value: unknown, test: (text: string) => boolean, found = new Set<string>()): Set<string> {
  if (typeof value === 'string') {
    if (test(value)) found.add(value);
  } else if (Array.isArray(value)) for (const item of value) collectStrings(item, test, found);
  else if (value !== null && typeof value === 'object')
    for (const key in value) collectStrings((value as Record<string, unknown>)[key], test, found);
  return found;
}

/**
 * A `data:` URL inside any string (a whole value, or embedded in a preview or an HTML rendering of one): its media
 * type and parameters hold no `,`, quote or space, its payload only URL-safe characters.
 */
const EMBEDDED_DATA_URL = /data:[^,;"'\s<>&]*(?:;[^,;"'\s<>&]*)*,[A-Za-z0-9+/=%._~-]*/g;

/** Moves large `data:` URLs of one run into its scope. */
export class MediaOffloader {
  /** References of the URLs stored so far, by URL. */
  readonly refs = new Map<string, string>();

  constructor(
    private readonly store: ObjectStore,
    /** The run's `storage_scope`. */
    private readonly scope: string,
    /** A `data:` URL longer than this (characters) is moved. */
    private readonly maxInlineLength: number,
  ) {}

  /** Whether a string may hold a `data:` URL longer than the inline limit (it is longer, and holds `data:`). */
  private readonly mayHoldLargeUrl = (text: string): boolean =>
    text.length > this.maxInlineLength && text.includes('data:');

  /**
   * Whether a value may hold a large `data:` URL: false means {@link offload} would move nothing from it, so a caller
   * may skip the offload and the {@link replace} (one walk that stops at the first candidate, instead of those walks).
   * @param value - plain JSON
   */
  mayHoldLargeUrls(value: unknown): boolean {
    return someString(value, this.mayHoldLargeUrl);
  }

  /** The large `data:` URLs in a value's strings, whole or embedded. */
  private largeUrls(value: unknown): Set<string> {
    const found = new Set<string>();
    for (const text of collectStrings(value, this.mayHoldLargeUrl))
      for (const match of text.matchAll(EMBEDDED_DATA_URL))
        if (match[0].length > this.maxInlineLength) found.add(match[0]);
    return found;
  }

  /**
   * Store the large `data:` URLs of a value under a leaf (content-addressed: the same bytes are one object).
   * @param value - plain JSON
   * @param leaf - `assets` (what the caller sent) or `generated` (what the run made)
   * @throws StorageUnavailableError (503) when the store fails
   */
  async offload(value: unknown, leaf: StorageLeaf): Promise<void> {
    for (const url of this.largeUrls(value)) {
      if (this.refs.has(url)) continue;
      const decoded = decodeDataUrl(url);
      if (!decoded) continue;
      const digest = createHash('sha256').update(decoded.body).digest('hex');
      const key: ObjectKey = {
        scope: this.scope,
        leaf,
        name: `${digest}.${extension(decoded.mimeType) || 'bin'}`,
      };
      await this.store.put(key, decoded.body, decoded.mimeType);
      this.refs.set(url, storageRef(key));
    }
  }

  /**
   * A value with every stored URL, whole or embedded in a string, replaced by its reference.
   * @param value - plain JSON
   */
  replace<T>(value: T): T {
    if (this.refs.size === 0) return value;
    return mapStrings(value, (text) =>
      text.includes('data:') ? text.replace(EMBEDDED_DATA_URL, (url) => this.refs.get(url) ?? url) : undefined,
    ) as T;
  }
}

/**
 * A value with its run's references to `assets/` and `generated/` turned back into `data:` URLs (what the runtime and
 * the inference providers read).
 * @param value - plain JSON
 * @param store - the object store
 * @param scope - the run's `storage_scope`: references under any other scope, and references whose object is gone (its
 *   retention expired), are left as they are
 * @throws StorageUnavailableError (503) when the store fails
 */
export async function inlineRefs<T>(value: T, store: ObjectStore, scope: string): Promise<T> {
  const urls = new Map<string, string>();
  for (const [ref, key] of refsIn(value, scope)) {
    const object = await store.get(key);
    if (object) urls.set(ref, `data:${object.contentType};base64,${Buffer.from(object.body).toString('base64')}`);
  }
  return replaceRefs(value, urls);
}
