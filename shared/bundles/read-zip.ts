/**
 * Reading a `bundle_b64` zip in memory with `yauzl` (chosen over `fflate` because it exposes each entry's external
 * attributes, so symlinks can be refused, decodes names without trusting them, and checks every inflated stream
 * against the size its header declares).
 *
 * Order of checks (docs/bundles.md#whole-bundle-transports): the central directory is read first without inflating
 * anything — corrupt
 * archive (422), file count (413), entry names, symlinks and other non-regular entries, encryption (422), declared
 * decompressed total (413) — then each entry is inflated with its declared size as the bound (yauzl fails a stream
 * that yields more) and its CRC-32 checked (422 on either). Nothing touches the disk. Directory entries are skipped.
 *
 * @see docs/bundles.md#whole-bundle-transports; spec §2.3
 */
import { crc32 } from 'node:zlib';
import yauzl, { type Entry, type ZipFile } from 'yauzl';
import { InvalidBundle, PayloadTooLarge } from '../errors/index.js';
import { type BundleFile, type BundleLimits, tooLargeDetail, tooManyFilesDetail } from './bundle-limits.js';
import { checkEntryName, refusedEntry } from './entry-name.js';

/** Unix file-type bits of the high half of a zip entry's external attributes. */
const UNIX_TYPE_MASK = 0o170000;
const UNIX_SYMLINK = 0o120000;
const UNIX_REGULAR = 0o100000;
const UNIX_DIRECTORY = 0o040000;
/** "Version made by" host number of Unix (zip APPNOTE 4.4.2). */
const HOST_UNIX = 3;

interface ListedEntry {
  entry: Entry;
  name: string;
}

function entryName(entry: Entry): string {
  return yauzl.getFileNameLowLevel(entry.generalPurposeBitFlag, entry.fileNameRaw, entry.extraFields, true);
}

function unixType(entry: Entry): number | undefined {
  return entry.versionMadeBy >> 8 === HOST_UNIX ? (entry.externalFileAttributes >>> 16) & UNIX_TYPE_MASK : undefined;
}

async function listEntries(zip: ZipFile): Promise<ListedEntry[]> {
  const listed: ListedEntry[] = [];
  try {
    for await (const entry of zip.eachEntry()) {
      const name = entryName(entry);
      if (name.endsWith('/') || unixType(entry) === UNIX_DIRECTORY) continue;
      listed.push({ entry, name });
    }
  } catch (error) {
    throw new InvalidBundle('bundle_b64 is not a valid zip archive.', { cause: error });
  }
  return listed;
}

function checkEntry({ entry, name }: ListedEntry): string {
  const path = checkEntryName(name);
  const type = unixType(entry);
  if (type === UNIX_SYMLINK) throw refusedEntry(name, 'it is a symbolic link');
  if (type !== undefined && type !== 0 && type !== UNIX_REGULAR) throw refusedEntry(name, 'it is not a regular file');
  if (entry.isEncrypted()) throw refusedEntry(name, 'it is encrypted');
  if (!entry.canDecodeFileData())
    throw refusedEntry(name, `compression method ${entry.compressionMethod} is not supported (use deflate or store)`);
  return path;
}

async function inflate(zip: ZipFile, { entry, name }: ListedEntry): Promise<Uint8Array> {
  const chunks: Buffer[] = [];
  try {
    for await (const chunk of await zip.openReadStreamPromise(entry)) chunks.push(chunk as Buffer);
  } catch (error) {
    const message = (error as Error).message;
    const why = /too many bytes/.test(message)
      ? `it inflates to more than the ${entry.uncompressedSize} bytes its header declares`
      : `it cannot be inflated (${message})`;
    throw refusedEntry(name, why, error);
  }
  const bytes = Buffer.concat(chunks);
  if (crc32(bytes) >>> 0 !== entry.crc32 >>> 0) throw refusedEntry(name, 'its CRC-32 does not match its data');
  return new Uint8Array(bytes.buffer, bytes.byteOffset, bytes.byteLength);
}

/**
 * Read the files of a zip archive held in memory.
 * @param archive - the decoded `bundle_b64`
 * @param limits - file count and decompressed-size ceilings
 * @returns the files in archive order, with normalised paths
 * @throws InvalidBundle (422) for a corrupt archive, a refused entry (name, symlink, encryption, method, size lie,
 *   CRC) or a duplicate path; PayloadTooLarge (413) over the file count or the declared decompressed total
 */
export async function readZipBundle(archive: Buffer, limits: BundleLimits): Promise<BundleFile[]> {
  let zip: ZipFile;
  try {
    zip = await yauzl.fromBufferPromise(archive, {
      lazyEntries: true,
      autoClose: false,
      decodeStrings: false,
      validateEntrySizes: true,
    });
  } catch (error) {
    throw new InvalidBundle('bundle_b64 is not a valid zip archive.', { cause: error });
  }
  try {
    const listed = await listEntries(zip);
    if (listed.length > limits.maxFiles) throw new PayloadTooLarge(tooManyFilesDetail(limits, listed.length));
    const paths = listed.map(checkEntry);
    const declared = listed.reduce((total, { entry }) => total + entry.uncompressedSize, 0);
    if (declared > limits.maxTotalBytes) throw new PayloadTooLarge(tooLargeDetail(limits));
    const files: BundleFile[] = [];
    for (const [index, item] of listed.entries()) files.push({ path: paths[index]!, bytes: await inflate(zip, item) });
    return files;
  } finally {
    zip.close();
  }
}
