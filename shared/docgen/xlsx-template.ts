/**
 * The `exceljs-xlsx` engine's template filling (xlsx.template_file; docs/document-generation.md): every text cell of
 * the
 * workbook holding `{{ path }}` placeholders gets them replaced by the values at those dotted paths of the inputs
 * (`{{ invoice.total }}`; a text content gives its text). A cell that is exactly one placeholder takes the value's
 * type (a number stays a number). No other template syntax: nothing in a workbook is executed.
 */
import ExcelJS from 'exceljs';
import { PipeDocGenRenderError, PipeDocGenUndefinedValueError } from '../errors/index.js';
import type { PrintRequest, TemplateCheckRequest } from '../runtime/index.js';
import { scalarText, valueAtPath } from './plain-data.js';

const PLACEHOLDER = /\{\{\s*([A-Za-z][\w]*(?:\.[A-Za-z0-9_]+)*)\s*\}\}/g;
const SOLE_PLACEHOLDER = /^\{\{\s*([A-Za-z][\w]*(?:\.[A-Za-z0-9_]+)*)\s*\}\}$/;

function lookup(request: PrintRequest, path: string, where: string): unknown {
  const value = valueAtPath(request.data, path);
  if (value === undefined)
    throw new PipeDocGenUndefinedValueError(
      `Pipe '${request.pipeCode}', template_file cell ${where}: '{{ ${path} }}' names a value its inputs do not have.`,
    );
  return value;
}

function typed(value: unknown): string | number | boolean | null {
  if (value === null || typeof value === 'number' || typeof value === 'boolean' || typeof value === 'string')
    return value;
  return JSON.stringify(value);
}

/** The template's workbook; a file that is not a readable .xlsx is {@link PipeDocGenRenderError}. */
async function loadedWorkbook(pipeCode: string, templateFile: Uint8Array | undefined): Promise<ExcelJS.Workbook> {
  const workbook = new ExcelJS.Workbook();
  try {
    await workbook.xlsx.load(Buffer.from(templateFile ?? new Uint8Array()) as unknown as ArrayBuffer);
  } catch (error) {
    throw new PipeDocGenRenderError(`Pipe '${pipeCode}': the template_file is not a readable .xlsx workbook.`, {
      cause: error,
    });
  }
  return workbook;
}

/**
 * Check the template without filling it: a readable .xlsx workbook (the dry run's template checker).
 * @param request - the pipe and the template's bytes
 * @throws PipeDocGenRenderError when it is not one
 */
export async function checkXlsxTemplate(request: TemplateCheckRequest): Promise<void> {
  await loadedWorkbook(request.pipeCode, request.templateFile);
}

/**
 * Fill the template.
 * @param request - data and the template's bytes
 * @returns the .xlsx bytes
 * @throws PipeDocGenRenderError when the template is not a workbook; PipeDocGenUndefinedValueError for a placeholder
 *   naming nothing
 */
export async function printXlsxTemplate(request: PrintRequest): Promise<Uint8Array> {
  const workbook = await loadedWorkbook(request.pipeCode, request.templateFile);
  workbook.eachSheet((sheet) => {
    sheet.eachRow((row) => {
      row.eachCell((cell) => {
        if (typeof cell.value !== 'string' || !cell.value.includes('{{')) return;
        const where = `${sheet.name}!${cell.address}`;
        const sole = SOLE_PLACEHOLDER.exec(cell.value);
        if (sole) {
          cell.value = typed(lookup(request, sole[1]!, where));
          return;
        }
        cell.value = cell.value.replace(PLACEHOLDER, (_match, path: string) =>
          scalarText(typed(lookup(request, path, where))),
        );
      });
    });
  });
  return new Uint8Array(await workbook.xlsx.writeBuffer());
}
