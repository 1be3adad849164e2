/**
 * Input values built from form descriptors the way a form fills them (`Pipelex/mthds-form`): a value per node kind,
 * only the required fields of an object, each top-level input sent as `{concept, content}`. Tests use it to drive
 * the form path (descriptor → values → `/v1/execute`).
 */
import type { FormNode, PipeInputFormDescriptor } from '../../shared/wire/index.js';

/** A one-pixel PNG as a data URL: an image the runner reads without the network. */
const IMAGE_DATA_URL =
  'data:image/png;base64,iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==';

/** A one-page PDF saying `Form value`, its cross-reference table computed from the object offsets. */
function onePagePdf(): Buffer {
  const stream = 'BT /F1 12 Tf 72 720 Td (Form value) Tj ET';
  const objects = [
    '<< /Type /Catalog /Pages 2 0 R >>',
    '<< /Type /Pages /Kids [3 0 R] /Count 1 >>',
    '<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] /Contents 4 0 R /Resources << /Font << /F1 5 0 R >> >> >>',
    `<< /Length ${stream.length} >>\nstream\n${stream}\nendstream`,
    '<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica >>',
  ];
  let body = '%PDF-1.4\n';
  const offsets = objects.map((object, index) => {
    const offset = body.length;
    body += `${index + 1} 0 obj\n${object}\nendobj\n`;
    return offset;
  });
  const xref = body.length;
  body += `xref\n0 ${objects.length + 1}\n0000000000 65535 f \n`;
  body += offsets.map((offset) => `${String(offset).padStart(10, '0')} 00000 n \n`).join('');
  body += `trailer\n<< /Size ${objects.length + 1} /Root 1 0 R >>\nstartxref\n${xref}\n%%EOF\n`;
  return Buffer.from(body, 'latin1');
}

/** A readable PDF as a data URL: a document the runner extracts without the network. */
export const DOCUMENT_DATA_URL = `data:application/pdf;base64,${onePagePdf().toString('base64')}`;

/**
 * The value a form collects for one node.
 * @param node - a node of an input form
 * @returns JSON content: a scalar node typed by a concept (`prose`, `number`) gives that concept's content (`{text}`,
 *   `{number}`, as its contract's `json_schema` writes it), a bare field the scalar; a file gives `{url}`
 */
function formValue(node: FormNode): unknown {
  switch (node.kind) {
    case 'prose':
      return node.concept_ref === undefined ? 'Some prose.' : { text: 'Some prose.' };
    case 'text':
      return 'some text';
    case 'number': {
      const number = node.integer ? 3 : 2.5;
      return node.concept_ref === undefined ? number : { number };
    }
    case 'boolean':
      return true;
    case 'date':
      return '2026-01-15';
    case 'enum':
      return node.choices?.[0];
    case 'document':
      return { url: DOCUMENT_DATA_URL };
    case 'image':
      return { url: IMAGE_DATA_URL };
    case 'object':
      return Object.fromEntries(
        (node.fields ?? []).filter((field) => field.required).map((field) => [field.name, formValue(field)]),
      );
    case 'list':
      return Array.from({ length: node.item_count ?? 2 }, () => formValue(node.item!));
    default:
      return 'typed as raw text';
  }
}

/**
 * The `inputs` of an execute request filled from a pipe's input form.
 * @param form - the pipe's `input_form` entry
 * @returns each required input as `{concept, content}`
 */
export function formInputs(form: PipeInputFormDescriptor): Record<string, { concept: string; content: unknown }> {
  return Object.fromEntries(
    form.fields
      .filter((field) => field.required)
      .map((field) => [field.name, { concept: field.concept_ref ?? 'native.Text', content: formValue(field) }]),
  );
}
