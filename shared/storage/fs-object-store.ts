/**
 * The filesystem backend of the object store (`STORAGE_BACKEND=fs`, the embedded default): one file per object at
 * `STORAGE_DIR/<scope>/<leaf>/<name>`. Writes are atomic: the bytes go to a temporary file in the same directory,
 * which is then renamed over the object. Content types follow the name's extension.
 */
import { randomUUID } from 'node:crypto';
import { link as linkFile, rename as renameFile, writeFile as writeWholeFile } from 'node:fs';
import { mkdir, readdir, readFile, rm, stat } from 'node:fs/promises';
import path from 'node:path';
import { promisify } from 'node:util';
import { lookup } from 'mime-types';
import { StoragePathError, StorageUnavailableError } from '../errors/index.js';
import { type ObjectKey, objectPath, parseObjectPath } from './object-key.js';
import type { ObjectInfo, ObjectStore, StoredObject } from './object-store.js';

/** Temporary files of writes in progress start with this (never a valid object name: names cannot start with a dot). */
const TEMP_PREFIX = '.tmp-';

/**
 * The write of every object goes through the callback API of `node:fs`: on Node 20 a `fs/promises` write opens a
 * `FileHandle` object per file and spends about twice the event-loop time per write and rename (each finished run
 * keeps one object, so this is on every run's path).
 */
const writeFile = promisify(writeWholeFile);
const rename = promisify(renameFile);
const link = promisify(linkFile);

/** How many made directories a store remembers before it forgets them all (one per scope and leaf in use). */
const MAX_REMEMBERED_DIRECTORIES = 4096;

function unavailable(error: unknown): StorageUnavailableError {
  return new StorageUnavailableError(`The object store (STORAGE_DIR) failed: ${(error as Error).message}`, {
    cause: error,
    retryable: true,
  });
}

function isMissing(error: unknown): boolean {
  return (error as NodeJS.ErrnoException).code === 'ENOENT';
}

/** Objects in a directory. */
export class FsObjectStore implements ObjectStore {
  readonly backend = 'fs';
  private readonly root: string;
  /** Directories this store made (or found made), so writes into them skip `mkdir`. */
  private readonly madeDirectories = new Set<string>();

  /** @param root - the directory (`STORAGE_DIR`); created on the first write */
  constructor(root: string) {
    this.root = path.resolve(root);
  }

  /**
   * The file of a key, checked to lie under the root (the key's patterns already exclude any escape; this is the
   * second line of defence).
   * @throws StoragePathError (422) for a key outside its patterns
   */
  private fileOf(key: ObjectKey): string {
    const file = path.resolve(this.root, objectPath(key));
    if (!file.startsWith(this.root + path.sep)) throw new StoragePathError('object path escapes the storage root');
    return file;
  }

  /**
   * Write an object atomically. The directories this store made are remembered, so a write into one skips the
   * `mkdir`; one removed since (by an operator) is made again when the write finds it missing.
   */
  async put(key: ObjectKey, body: Uint8Array, _contentType: string): Promise<void> {
    const file = this.fileOf(key);
    const directory = path.dirname(file);
    const temporary = path.join(directory, `${TEMP_PREFIX}${randomUUID()}`);
    try {
      if (!this.madeDirectories.has(directory)) await this.makeDirectory(directory);
      await writeFile(temporary, body).catch(async (error: unknown) => {
        if (!isMissing(error)) throw error;
        await this.makeDirectory(directory);
        await writeFile(temporary, body);
      });
      await rename(temporary, file);
    } catch (error) {
      await rm(temporary, { force: true }).catch(() => undefined);
      throw unavailable(error);
    }
  }

  /**
   * Write an object unless one is there: the bytes go to a temporary file, hard-linked to the object's name (which fails
   * when the name exists, atomically), then the temporary name is removed.
   */
  async create(key: ObjectKey, body: Uint8Array, _contentType: string): Promise<boolean> {
    const file = this.fileOf(key);
    const directory = path.dirname(file);
    const temporary = path.join(directory, `${TEMP_PREFIX}${randomUUID()}`);
    try {
      await this.makeDirectory(directory);
      await writeFile(temporary, body);
      await link(temporary, file);
      return true;
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'EEXIST') return false;
      throw unavailable(error);
    } finally {
      await rm(temporary, { force: true }).catch(() => undefined);
    }
  }

  /** Make a directory (and its parents) and remember it; the memory is dropped whole past 4,096 directories. */
  private async makeDirectory(directory: string): Promise<void> {
    await mkdir(directory, { recursive: true });
    if (this.madeDirectories.size >= MAX_REMEMBERED_DIRECTORIES) this.madeDirectories.clear();
    this.madeDirectories.add(directory);
  }

  async get(key: ObjectKey): Promise<StoredObject | undefined> {
    const file = this.fileOf(key);
    try {
      const body = await readFile(file);
      return { body: new Uint8Array(body), contentType: lookup(key.name) || 'application/octet-stream' };
    } catch (error) {
      if (isMissing(error)) return undefined;
      throw unavailable(error);
    }
  }

  async delete(key: ObjectKey): Promise<void> {
    const file = this.fileOf(key);
    await rm(file, { force: true }).catch((error: unknown) => {
      throw unavailable(error);
    });
  }

  async *list(): AsyncIterable<ObjectInfo> {
    let entries: string[];
    try {
      entries = await readdir(this.root, { recursive: true });
    } catch (error) {
      if (isMissing(error)) return;
      throw unavailable(error);
    }
    for (const entry of entries) {
      const relative = entry.split(path.sep).join('/');
      let key: ObjectKey;
      try {
        key = parseObjectPath(relative);
      } catch {
        continue;
      }
      const info = await stat(path.join(this.root, entry)).catch(() => undefined);
      if (info?.isFile()) yield { key, modifiedAt: info.mtimeMs, size: info.size };
    }
  }

  signedUrl(): Promise<undefined> {
    return Promise.resolve(undefined);
  }

  signedPut(): Promise<undefined> {
    return Promise.resolve(undefined);
  }

  close(): void {}
}
