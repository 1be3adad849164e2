/**
 * The dry-run extractor: two placeholder pages per document, without reading the document
 * (docs/runtime.md#mock-outputs); with
 * `includeRawHtml`, each page carries a placeholder HTML too.
 */
import type { DocumentExtractor } from './document-extractor.js';

/** Pages a mock extraction yields. */
const MOCK_PAGES = 2;

/** Create the mock extractor. */
export function createMockExtractor(): DocumentExtractor {
  return {
    name: 'mock',
    async extractPages(request) {
      return {
        pages: Array.from({ length: MOCK_PAGES }, (_, index) => {
          const text = `[mock extraction] page ${index + 1} of ${request.document.url.slice(0, 80)}`;
          return request.includeRawHtml === true
            ? { text, rawHtml: `<p>[mock extraction] page ${index + 1}</p>` }
            : { text };
        }),
      };
    },
  };
}
