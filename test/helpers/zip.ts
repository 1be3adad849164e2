/**
 * Zip archives for bundle-transport tests, built with `fflate` (which, unlike most writers, lets a test name entries
 * `../x` or `/x` and set Unix symlink attributes), plus one low-level patch: rewriting an entry's declared
 * uncompressed size, to craft an archive whose headers lie about what it inflates to.
 */
import { zipSync, type ZipAttributes } from 'fflate';

/** One entry: its bytes or text, optionally with zip attributes (e.g. `{ os: 3, attrs: mode << 16 }`). */
export type ZipEntry = Uint8Array | string | [Uint8Array | string, ZipAttributes];

const bytesOf = (data: Uint8Array | string) => (typeof data === 'string' ? new Uint8Array(Buffer.from(data, 'utf8')) : data);

/**
 * Build a zip.
 * @param entries - entry name → content (names are taken as written)
 */
export function zipOf(entries: Record<string, ZipEntry>): Buffer {
  const files = Object.fromEntries(
    Object.entries(entries).map(([name, entry]) => [name, Array.isArray(entry) ? ([bytesOf(entry[0]), entry[1]] as const) : bytesOf(entry)]),
  );
  return Buffer.from(zipSync(files as Parameters<typeof zipSync>[0]));
}

/**
 * Build a zip and base64 it, as `bundle_b64` carries it.
 * @param entries - entry name → content
 */
export function bundleB64(entries: Record<string, ZipEntry>): string {
  return zipOf(entries).toString('base64');
}

/** A Unix symlink entry pointing at `target`. */
export function symlinkEntry(target: string): ZipEntry {
  return [target, { os: 3, attrs: (0o120777 << 16) >>> 0 }];
}

/**
 * Rewrite the uncompressed size every header of the archive declares (local headers and central directory), leaving
 * the data as it is: a zip whose entries inflate to more than they declare.
 * @param archive - a zip without zip64 records
 * @param size - the size to declare, in bytes
 */
export function withDeclaredSize(archive: Buffer, size: number): Buffer {
  const patched = Buffer.from(archive);
  for (let offset = 0; offset + 4 <= patched.length; offset += 1) {
    const signature = patched.readUInt32LE(offset);
    if (signature === 0x04034b50) patched.writeUInt32LE(size, offset + 22);
    if (signature === 0x02014b50) patched.writeUInt32LE(size, offset + 24);
  }
  return patched;
}
