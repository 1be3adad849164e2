/**
 * Public surface of `shared/docgen`: the document printer adapter of PipeDocGen (LANGUAGE-DELTA.md §4).
 */
export { createDocumentPrinter, type DocumentPrinterOptions } from './document-printer.js';
