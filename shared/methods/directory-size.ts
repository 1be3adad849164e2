/**
 * The bytes a directory tree holds on disk (file sizes, symlinks not followed), for the clone cache's size limit and
 * the clone-size guard.
 */
import { lstat, readdir } from 'node:fs/promises';
import path from 'node:path';

/**
 * Sum the sizes of every file below `target` (or of `target` itself when it is a file).
 * @param target - a path
 * @returns bytes; 0 for a path that vanished while it was walked (a clone being written or evicted)
 */
export async function directorySize(target: string): Promise<number> {
  const info = await lstat(target).catch(() => undefined);
  if (!info) return 0;
  if (!info.isDirectory()) return info.size;
  const names = await readdir(target).catch(() => [] as string[]);
  let total = 0;
  for (const name of names) total += await directorySize(path.join(target, name));
  return total;
}
