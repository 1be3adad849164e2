/**
 * Public surface of `shared/docgen`: the document printer adapter of PipeDocGen (docs/document-generation.md).
 */
export { createDocumentPrinter, type DocumentPrinterOptions } from './document-printer.js';
