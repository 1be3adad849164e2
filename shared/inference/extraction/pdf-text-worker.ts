/**
 * Worker module of the PDF text pool (`pdf-text-pool.ts`): one operation, `pageTexts`. PDF.js's Node build installs
 * core-js polyfills that replace process-wide natives (`JSON.parse`, `JSON.stringify`, `Array.prototype.push`,
 * `Function.prototype.toString`, …); loading it only here keeps those replacements out of the server's own thread, and
 * keeps CPU-heavy PDF parsing off its event loop, under the pool's heap and time bounds (docs/isolation.md#pdf-text).
 */
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { getDocument } from 'pdfjs-dist/legacy/build/pdf.mjs';
import { isolatedTaskHandler } from '../../compute/isolated-task.js';

const STANDARD_FONTS = `${join(dirname(createRequire(import.meta.url).resolve('pdfjs-dist/package.json')), 'standard_fonts')}/`;

/**
 * Read the text layer of a PDF, page by page.
 * @param bytes - the PDF
 * @returns each page's text, trimmed (empty for a page without a text layer)
 * @throws whatever PDF.js throws for bytes that are not a readable PDF
 */
async function pdfPageTexts(bytes: Uint8Array): Promise<string[]> {
  const pdf = await getDocument({
    data: bytes,
    standardFontDataUrl: STANDARD_FONTS,
    isEvalSupported: false,
    disableFontFace: true,
    verbosity: 0,
  }).promise;
  try {
    const pages: string[] = [];
    for (let number = 1; number <= pdf.numPages; number += 1) {
      const content = await (await pdf.getPage(number)).getTextContent();
      pages.push(
        content.items
          .map((item) => ('str' in item ? `${item.str}${item.hasEOL ? '\n' : ''}` : ''))
          .join('')
          .trim(),
      );
    }
    return pages;
  } finally {
    await pdf.destroy();
  }
}

export default isolatedTaskHandler({ pageTexts: pdfPageTexts });
