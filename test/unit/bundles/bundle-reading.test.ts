import { expect } from 'chai';
import { checkEntryName } from '../../../shared/bundles/entry-name.js';
import { type BundleLimits, LibraryFiles, readBundleTransport } from '../../../shared/bundles/index.js';
import { readZipBundle } from '../../../shared/bundles/read-zip.js';
import { decodeStrictBase64 } from '../../../shared/bundles/strict-base64.js';
import {
  CustomCodeRequiresSandbox,
  InvalidBase64,
  InvalidBundle,
  PayloadTooLarge,
} from '../../../shared/errors/index.js';
import { bundleB64, withCentralField, zipOf } from '../../helpers/zip.js';

const LIMITS: BundleLimits = { maxFiles: 128, maxTotalBytes: 8192 * 1024 };
const text = (bytes: Uint8Array | undefined) => (bytes === undefined ? undefined : Buffer.from(bytes).toString('utf8'));

async function rejection(promise: Promise<unknown>): Promise<Error> {
  try {
    await promise;
  } catch (error) {
    return error as Error;
  }
  throw new Error('expected a rejection');
}

describe('bundle reading (shared/bundles)', () => {
  describe('checkEntryName', () => {
    for (const [name, normalised] of [
      ['bundle.mthds', 'bundle.mthds'],
      ['./a//b/./c.pdf', 'a/b/c.pdf'],
      ['dir/sub/x.txt', 'dir/sub/x.txt'],
      ['..hidden/x', '..hidden/x'],
    ]) {
      it(`should accept ${JSON.stringify(name)} as ${JSON.stringify(normalised)}`, () => {
        expect(checkEntryName(name!)).to.equal(normalised);
      });
    }

    for (const [name, why] of [
      ['', 'the name is empty'],
      ['a\u0000b.mthds', 'it contains a control character'],
      ['a\nb.mthds', 'it contains a control character'],
      ['x/..', "it has a '..' segment"],
      ['./', 'it has no file name'],
      ['.', 'it has no file name'],
      ['a/.', 'it has no file name'],
      ['stream.txt:hidden', "it contains ':'"],
    ]) {
      it(`should refuse ${JSON.stringify(name)}: ${why}`, () => {
        expect(() => checkEntryName(name!))
          .to.throw(InvalidBundle)
          .with.property('message', `Bundle entry ${JSON.stringify(name)} is refused: ${why}.`);
      });
    }
  });

  describe('decodeStrictBase64', () => {
    it('should decode padded standard base64 of every length', () => {
      for (const value of ['', 'a', 'ab', 'abc', 'abcd', '\u00ff\u00fe?>']) {
        expect(decodeStrictBase64(Buffer.from(value, 'latin1').toString('base64')).toString('latin1')).to.equal(value);
      }
    });

    for (const bad of ['a', 'ab=', 'abc==', '====', 'YWJj ZA==', 'YW=j']) {
      it(`should refuse ${JSON.stringify(bad)}`, () => {
        expect(() => decodeStrictBase64(bad)).to.throw(InvalidBase64, 'bundle_b64 is not valid base64.');
      });
    }
  });

  describe('readZipBundle', () => {
    it('should read stored and deflated entries in archive order, skipping directories', async () => {
      const archive = zipOf({
        'b/': '',
        'b/two.txt': 'two',
        'one.mthds': ['one', { level: 0 }],
        'three.bin': new Uint8Array([0, 255, 7]),
      });
      const files = await readZipBundle(archive, LIMITS);
      expect(files.map(({ path, bytes }) => [path, [...bytes]])).to.deep.equal([
        ['b/two.txt', [...Buffer.from('two')]],
        ['one.mthds', [...Buffer.from('one')]],
        ['three.bin', [0, 255, 7]],
      ]);
    });

    it('should refuse an entry whose data does not match its CRC-32', async () => {
      const archive = withCentralField(zipOf({ 'a.mthds': 'hello' }), 'crc32', 0x12345678);
      expect(await rejection(readZipBundle(archive, LIMITS)))
        .to.be.instanceOf(InvalidBundle)
        .with.property('message', 'Bundle entry "a.mthds" is refused: its CRC-32 does not match its data.');
    });

    it('should refuse an encrypted entry', async () => {
      const archive = withCentralField(zipOf({ 'a.mthds': 'hello' }), 'flags', 0x1);
      expect(await rejection(readZipBundle(archive, LIMITS)))
        .to.be.instanceOf(InvalidBundle)
        .with.property('message', 'Bundle entry "a.mthds" is refused: it is encrypted.');
    });

    it('should show a refused entry name cut to 200 characters, as the name rule does', async () => {
      const name = `${'d/'.repeat(150)}a.mthds`;
      const archive = withCentralField(zipOf({ [name]: 'hello' }), 'flags', 0x1);
      expect(await rejection(readZipBundle(archive, LIMITS)))
        .to.be.instanceOf(InvalidBundle)
        .with.property('message', `Bundle entry ${JSON.stringify(name.slice(0, 200))} is refused: it is encrypted.`);
    });

    it('should refuse an unsupported compression method', async () => {
      const archive = withCentralField(zipOf({ 'a.mthds': 'hello' }), 'compressionMethod', 12);
      expect(await rejection(readZipBundle(archive, LIMITS)))
        .to.be.instanceOf(InvalidBundle)
        .with.property(
          'message',
          'Bundle entry "a.mthds" is refused: compression method 12 is not supported (use deflate or store).',
        );
    });

    it('should refuse a Unix entry that is neither a file, a directory nor a symlink (a FIFO)', async () => {
      const archive = zipOf({ 'a.mthds': 'x', fifo: ['', { os: 3, attrs: (0o010644 << 16) >>> 0 }] });
      expect(await rejection(readZipBundle(archive, LIMITS)))
        .to.be.instanceOf(InvalidBundle)
        .with.property('message', 'Bundle entry "fifo" is refused: it is not a regular file.');
    });

    it('should count decompressed bytes against the limit exactly (at the limit passes, one over fails)', async () => {
      const limits = { maxFiles: 10, maxTotalBytes: 1024 };
      expect(
        await readZipBundle(zipOf({ 'a.mthds': new Uint8Array(1000), 'b.txt': new Uint8Array(24) }), limits),
      ).to.have.length(2);
      expect(
        await rejection(readZipBundle(zipOf({ 'a.mthds': new Uint8Array(1000), 'b.txt': new Uint8Array(25) }), limits)),
      )
        .to.be.instanceOf(PayloadTooLarge)
        .with.property('message', 'Bundle exceeds the 1 KiB decompressed-size limit.');
    });
  });

  describe('readBundleTransport', () => {
    it('should give .mthds files as sources sorted by path and other files as library files', async () => {
      const bundle = await readBundleTransport(
        {
          bundle_b64: bundleB64({
            'z/last.mthds': 'domain = "z"',
            'METHODS.toml': '[package]',
            'a/first.mthds': 'domain = "a"',
            'docs/cv.txt': 'CV',
            'sub/requirements.txt': 'x',
          }),
        },
        LIMITS,
      );
      expect(bundle.sources).to.deep.equal([
        { content: 'domain = "a"', source: 'a/first.mthds' },
        { content: 'domain = "z"', source: 'z/last.mthds' },
      ]);
      expect(bundle.libraryFiles.paths()).to.deep.equal(['METHODS.toml', 'docs/cv.txt']);
    });

    it('should refuse a Python file before reading any .mthds', async () => {
      expect(await rejection(readBundleTransport({ files: { 'pkg/__init__.py': '' } }, LIMITS))).to.be.instanceOf(
        CustomCodeRequiresSandbox,
      );
    });

    it('should accept an empty bundle_b64 alongside files (only one transport is set)', async () => {
      const bundle = await readBundleTransport({ bundle_b64: '', files: { 'a.mthds': 'x' } }, LIMITS);
      expect(bundle.sources).to.deep.equal([{ content: 'x', source: 'a.mthds' }]);
    });
  });

  describe('LibraryFiles', () => {
    const files = new LibraryFiles(
      new Map([
        ['docs/cv.pdf', new Uint8Array([37, 80, 68, 70])],
        ['notes.txt', new Uint8Array(Buffer.from('hi'))],
      ]),
    );

    it('should read a file by its path, with ./ and repeated / normalised', () => {
      expect([...files.read('docs/cv.pdf')!]).to.deep.equal([37, 80, 68, 70]);
      expect(text(files.read('./docs//cv.pdf'))).to.equal('%PDF');
    });

    it('should never match an absolute path or a path with ..', () => {
      expect(files.read('/docs/cv.pdf')).to.equal(undefined);
      expect(files.read('docs/../notes.txt')).to.equal(undefined);
      expect(files.read('missing.txt')).to.equal(undefined);
    });

    it('should never match a path the entry-name rule refuses (backslash, drive letter, no file name)', () => {
      expect(files.read('docs\\cv.pdf')).to.equal(undefined);
      expect(files.read('C:docs/cv.pdf')).to.equal(undefined);
      expect(files.read('docs/cv.pdf/.')).to.equal(undefined);
    });

    it('should survive the job-payload round trip', () => {
      const payload = files.toPayload();
      expect(payload).to.deep.equal({ 'docs/cv.pdf': 'JVBERg==', 'notes.txt': 'aGk=' });
      const restored = LibraryFiles.fromPayload(payload);
      expect(restored.paths()).to.deep.equal(['docs/cv.pdf', 'notes.txt']);
      expect(text(restored.read('notes.txt'))).to.equal('hi');
    });
  });
});
