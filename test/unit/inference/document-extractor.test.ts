import { readFileSync } from 'node:fs';
import { expect } from 'chai';
import { StuffFactoryError } from '../../../shared/errors/index.js';
import { createDocumentExtractor } from '../../../shared/inference/index.js';
import { failureOf } from '../../helpers/inference-fixtures.js';

const PDF = readFileSync(
  new URL(
    '../../../../shared/corpus/methods/_sample-inputs/doc-summarizer/inputs/synthetic_contract.pdf',
    import.meta.url,
  ),
);
const dataUrl = (bytes: Buffer, type = 'application/pdf') => `data:${type};base64,${bytes.toString('base64')}`;
const isNative = (fn: unknown) =>
  typeof fn === 'function' && Function.prototype.toString.call(fn).includes('[native code]');

describe('the embedded document extractor (PDF.js in a worker thread)', function () {
  this.timeout(30000);
  const extractor = createDocumentExtractor({
    maxBytes: 50 * 1024 * 1024,
    timeoutMs: 30000,
    allowPrivateHosts: false,
    maxRedirects: 3,
  });

  it('should read the text layer of each page, in order', async () => {
    const { pages } = await extractor.extractPages({ pipeCode: 'extract', document: { url: dataUrl(PDF) } });
    expect(pages).to.have.length(3);
    expect(pages[0]!.text.startsWith('MASTER SERVICES AGREEMENT')).to.equal(true);
    expect(pages.every((page) => page.pageViewUrl === undefined)).to.equal(true);
  });

  it("should leave this thread's natives alone (PDF.js's polyfills stay in the worker)", async () => {
    await extractor.extractPages({ pipeCode: 'extract', document: { url: dataUrl(PDF) } });
    expect([JSON.parse, JSON.stringify, Array.prototype.push, Function.prototype.toString].map(isNative)).to.deep.equal(
      [true, true, true, true],
    );
    expect(globalThis).to.not.have.property('pdfjsLib');
  });

  it('should refuse bytes that are not a readable PDF with StuffFactoryError naming the pipe', async () => {
    const error = await failureOf(
      extractor.extractPages({ pipeCode: 'extract', document: { url: dataUrl(Buffer.from('%PDF-1.7 garbage')) } }),
    );
    expect(error).to.be.instanceOf(StuffFactoryError);
    expect(error.message).to.match(/^Pipe 'extract': the document is not a readable PDF \(.+\)\.$/);
  });

  it('should give the run signal to the worker task: an aborted run ends with its abort, not a PDF error', async () => {
    const controller = new AbortController();
    const reason = new Error('client closed the connection');
    controller.abort(reason);
    const error = await failureOf(
      extractor.extractPages({ pipeCode: 'extract', document: { url: dataUrl(PDF) }, signal: controller.signal }),
    );
    expect(error).to.not.be.instanceOf(StuffFactoryError);
    expect(error === reason || error.name === 'AbortError', `${error.name}: ${error.message}`).to.equal(true);
  });
});
