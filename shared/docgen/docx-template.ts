/**
 * The `docxtemplater-docx` engine (docx.template_file; docs/document-generation.md): a Word template filled by
 * docxtemplater
 * with the inputs as plain data. Tags use `{{ }}` delimiters: `{{ invoice.number }}` (dotted paths; a text content
 * gives its text), loops and conditions `{{#invoice.lines}}…{{/invoice.lines}}`, inverted `{{^x}}…{{/x}}`. A tag
 * naming nothing is `PipeDocGenUndefinedValueError` (strict undefined, as the compose stage).
 */
import Docxtemplater from 'docxtemplater';
import PizZip from 'pizzip';
import { PipeDocGenRenderError, PipeDocGenUndefinedValueError } from '../errors/index.js';
import type { PrintRequest, TemplateCheckRequest } from '../runtime/index.js';
import { valueAtPath } from './plain-data.js';

/** Raised inside a render for a tag naming nothing; reported as {@link PipeDocGenUndefinedValueError}. */
class UndefinedTag extends Error {
  constructor(readonly tag: string) {
    super(`undefined tag ${tag}`);
  }
}

/** docxtemplater's parser for dotted paths: `.` is the current item, `a.b` walks the scope. */
function parser(tag: string) {
  const path = tag.trim();
  return {
    get(scope: unknown): unknown {
      if (path === '.' || path === '') return scope;
      if (scope === null || typeof scope !== 'object') return undefined;
      return valueAtPath(scope as Record<string, unknown>, path);
    },
  };
}

function undefinedTag(error: unknown): UndefinedTag | undefined {
  if (error instanceof UndefinedTag) return error;
  const nested = (error as { properties?: { errors?: { properties?: { rootError?: unknown } }[] } }).properties?.errors;
  for (const item of nested ?? []) {
    const root = item.properties?.rootError;
    if (root instanceof UndefinedTag) return root;
  }
  return undefined;
}

/**
 * Fill the template.
 * @param request - data and the template's bytes
 * @returns the .docx bytes
 * @throws PipeDocGenRenderError when the template is not a .docx or its tags do not parse;
 *   PipeDocGenUndefinedValueError for a tag naming nothing
 */
export function printDocxTemplate(request: PrintRequest): Uint8Array {
  try {
    const document = compiled(request.templateFile);
    document.render(request.data);
    return document.getZip().generate({ type: 'uint8array', compression: 'DEFLATE' });
  } catch (error) {
    const missing = undefinedTag(error);
    if (missing)
      throw new PipeDocGenUndefinedValueError(
        `Pipe '${request.pipeCode}', template_file: '{{ ${missing.tag.trim()} }}' names a value its inputs do not have.`,
        { cause: error },
      );
    throw renderError(request.pipeCode, 'filled', error);
  }
}

/** The template compiled: its zip opened and its tags parsed (throws when either fails). */
function compiled(templateFile: Uint8Array | undefined): Docxtemplater {
  return new Docxtemplater(new PizZip(templateFile ?? new Uint8Array()), {
    delimiters: { start: '{{', end: '}}' },
    paragraphLoop: true,
    linebreaks: true,
    errorLogging: false,
    parser,
    nullGetter: (part) => {
      if (part.module) return '';
      throw new UndefinedTag(part.value);
    },
  });
}

/** A failure to open, compile or fill the template, with docxtemplater's own messages (at most five). */
function renderError(pipeCode: string, what: 'read' | 'filled', error: unknown): PipeDocGenRenderError {
  const details = (error as { properties?: { errors?: { message?: string }[] } }).properties?.errors
    ?.map((item) => item.message)
    .filter((message): message is string => typeof message === 'string')
    .slice(0, 5);
  return new PipeDocGenRenderError(
    `Pipe '${pipeCode}': the template_file could not be ${what}: ${details?.length ? details.join('; ') : error instanceof Error ? error.message : String(error)}.`,
    { cause: error },
  );
}

/**
 * Check the template without filling it: a .docx whose tags parse (the dry run's template checker).
 * @param request - the pipe and the template's bytes
 * @throws PipeDocGenRenderError when the template is not a .docx or its tags do not parse
 */
export function checkDocxTemplate(request: TemplateCheckRequest): void {
  try {
    compiled(request.templateFile);
  } catch (error) {
    throw renderError(request.pipeCode, 'read', error);
  }
}
