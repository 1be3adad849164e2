/**
 * The `docx-docx` engine (docx.layout; docs/document-generation.md): a Word document of the title, then each input
 * under
 * its humanized name, laid out as labelled, indented paragraphs.
 */
import { Document, HeadingLevel, Packer, Paragraph, TextRun } from 'docx';
import type { PrintRequest } from '../runtime/index.js';
import { humanizeName, layoutLines } from './plain-data.js';

/** Twips of indentation per depth. */
const INDENT_TWIPS = 360;

/**
 * Print the layout.
 * @param request - title and data
 * @returns the .docx bytes
 */
export async function printDocxLayout(request: PrintRequest): Promise<Uint8Array> {
  const children: Paragraph[] = [new Paragraph({ text: request.title, heading: HeadingLevel.TITLE })];
  for (const [name, value] of Object.entries(request.data)) {
    children.push(new Paragraph({ text: humanizeName(name), heading: HeadingLevel.HEADING_1 }));
    for (const line of layoutLines(value)) {
      const runs = [
        ...(line.label === undefined ? [] : [new TextRun({ text: `${line.label} `, bold: true })]),
        new TextRun(line.text),
      ];
      children.push(new Paragraph({ children: runs, indent: { left: line.depth * INDENT_TWIPS } }));
    }
  }
  const document = new Document({ title: request.title, sections: [{ children }] });
  return new Uint8Array(await Packer.toBuffer(document));
}
