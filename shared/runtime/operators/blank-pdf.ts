/**
 * The mock document of a PipeDocGen dry run (docs/document-generation.md): a valid one-page blank PDF (A4), as a
 * `data:`
 * URL. Built once, with its cross-reference offsets computed.
 */

/**
 * A PDF file of the given objects, numbered from 1 in order (the first must be the catalog), with its cross-reference
 * table and trailer.
 * @param objects - each object's dictionary text, e.g. `<< /Type /Catalog /Pages 2 0 R >>`
 * @returns the file as a latin-1 string
 */
export function assemblePdf(objects: readonly string[]): string {
  let body = '%PDF-1.4\n';
  const offsets: number[] = [];
  objects.forEach((object, index) => {
    offsets.push(body.length);
    body += `${index + 1} 0 obj\n${object}\nendobj\n`;
  });
  const xref = body.length;
  body += `xref\n0 ${objects.length + 1}\n0000000000 65535 f \n`;
  for (const offset of offsets) body += `${String(offset).padStart(10, '0')} 00000 n \n`;
  body += `trailer\n<< /Size ${objects.length + 1} /Root 1 0 R >>\nstartxref\n${xref}\n%%EOF\n`;
  return body;
}

function blankPdf(): string {
  return assemblePdf([
    '<< /Type /Catalog /Pages 2 0 R >>',
    '<< /Type /Pages /Kids [3 0 R] /Count 1 >>',
    '<< /Type /Page /Parent 2 0 R /MediaBox [0 0 595 842] /Resources << >> >>',
  ]);
}

/** The blank PDF as a base64 `data:` URL. */
export const BLANK_PDF_DATA_URL = `data:application/pdf;base64,${Buffer.from(blankPdf(), 'latin1').toString('base64')}`;
