/**
 * Zip archives for bundle-transport tests, built with `fflate` (which, unlike most writers, lets a test name entries
 * `../x` or `/x` and set Unix symlink attributes), plus low-level patches of central-directory fields, to craft
 * archives whose headers lie (declared size, CRC, flags, method).
 */
import { type ZipOptions, zipSync } from 'fflate';

/**
 * One entry: its bytes or text, optionally with zip options (attributes such as `{ os: 3, attrs: mode << 16 }`, or
 * `level`).
 */
export type ZipEntry = Uint8Array | string | [Uint8Array | string, ZipOptions];

const bytesOf = (data: Uint8Array | string) =>
  typeof data === 'string' ? new Uint8Array(Buffer.from(data, 'utf8')) : data;

/**
 * Build a zip.
 * @param entries - entry name → content (names are taken as written)
 */
export function zipOf(entries: Record<string, ZipEntry>): Buffer {
  const files = Object.fromEntries(
    Object.entries(entries).map(([name, entry]) => [
      name,
      Array.isArray(entry) ? ([bytesOf(entry[0]), entry[1]] as const) : bytesOf(entry),
    ]),
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

/** Fields of a central-directory header (offset from its signature, width in bytes), after zip APPNOTE 4.3.12. */
export const CENTRAL_FIELDS = {
  flags: [8, 2],
  compressionMethod: [10, 2],
  crc32: [16, 4],
  uncompressedSize: [24, 4],
} as const satisfies Record<string, readonly [number, 2 | 4]>;

/**
 * Rewrite one field in every central-directory header of the archive (where readers take entry metadata from),
 * leaving local headers and data as they are: a crafted, lying archive.
 * @param archive - a zip without zip64 records
 * @param field - which field
 * @param value - the value to write
 */
export function withCentralField(archive: Buffer, field: keyof typeof CENTRAL_FIELDS, value: number): Buffer {
  const [offset, width] = CENTRAL_FIELDS[field];
  const patched = Buffer.from(archive);
  for (let at = 0; at + 4 <= patched.length; at += 1) {
    if (patched.readUInt32LE(at) !== 0x02014b50) continue;
    if (width === 2) patched.writeUInt16LE(value, at + offset);
    else patched.writeUInt32LE(value >>> 0, at + offset);
  }
  return patched;
}

/**
 * Declare a smaller uncompressed size than the data inflates to (a zip bomb that lies about its size).
 * @param archive - a zip without zip64 records
 * @param size - the size to declare, in bytes
 */
export function withDeclaredSize(archive: Buffer, size: number): Buffer {
  return withCentralField(archive, 'uncompressedSize', size);
}
