/**
 * The `pdfkit-pdf` engine (pdf.layout; docs/document-generation.md): an A4 PDF of the title, then each input under its
 * humanized name, laid out as labelled lines. Standard fonts (Helvetica): characters outside Windows-1252 print as
 * the font's fallback glyph.
 */
import PDFDocument from 'pdfkit';
import { PipeDocGenRenderError } from '../errors/index.js';
import type { PrintRequest } from '../runtime/index.js';
import { humanizeName, layoutLines } from './plain-data.js';

/** Points of indentation per depth. */
const INDENT = 14;

/**
 * Print the layout.
 * @param request - title, data and size bound
 * @returns the PDF bytes
 * @throws PipeDocGenRenderError when the PDF grows past `maxBytes`
 */
export function printPdfLayout(request: PrintRequest): Promise<Uint8Array> {
  return new Promise((resolve, reject) => {
    const document = new PDFDocument({ size: 'A4', margin: 50, info: { Title: request.title } });
    const chunks: Buffer[] = [];
    let size = 0;
    let failed = false;
    document.on('data', (chunk: Buffer) => {
      size += chunk.length;
      if (size > request.maxBytes && !failed) {
        failed = true;
        reject(
          new PipeDocGenRenderError(
            `Pipe '${request.pipeCode}': the pdf grows past ${request.maxBytes} bytes, the bound of a printed document.`,
          ),
        );
      }
      if (!failed) chunks.push(chunk);
    });
    document.on('end', () => {
      if (!failed) resolve(new Uint8Array(Buffer.concat(chunks)));
    });
    document.on('error', (error: unknown) => reject(error));
    document.font('Helvetica-Bold').fontSize(20).text(request.title);
    for (const [name, value] of Object.entries(request.data)) {
      if (failed) break;
      document.moveDown().font('Helvetica-Bold').fontSize(14).text(humanizeName(name));
      document.font('Helvetica').fontSize(11);
      for (const line of layoutLines(value)) {
        if (failed) break;
        const indent = line.depth * INDENT;
        if (line.label === undefined) document.text(line.text, { indent, paragraphGap: 4 });
        else
          document
            .font('Helvetica-Bold')
            .text(`${line.label} `, { indent, continued: line.text !== '' })
            .font('Helvetica')
            .text(line.text === '' ? '' : line.text);
      }
    }
    document.end();
  });
}
