/**
 * PipeDocGen: print a pdf, xlsx, docx or pptx file from the pipe's inputs, with no AI call
 * (docs/document-generation.md).
 *
 * Compose stage (pure, strict undefined): render the HTML `template` (or an `.html` `template_file`) in the html
 * category and the `filename` in the basic category; a value the inputs lack is `PipeDocGenUndefinedValueError`.
 * Print stage: the engine the doc_gen deck chooses for (format, source) prints through the run's document printer
 * port; the bytes are stored as a `data:` URL (as generated images are) in `Document{url, mime_type, filename}`.
 * Bounds: the inputs handed to the engine are at most {@link MAX_PRINT_INPUT_CHARS} characters of JSON and the file at
 * most {@link MAX_DOCUMENT_BYTES} bytes. A dry run composes for real on the mock inputs, checks that a `template_file`
 * is there when the run has bundle files and that the engine reads it (the printer's template checker), and mints the
 * blank PDF mock; nothing is printed or stored.
 */
import {
  DocGenEngineMissingError,
  MthdsError,
  PipeDocGenRenderError,
  PipeDocGenUndefinedValueError,
} from '../../errors/index.js';
import {
  chooseDocGenEngine,
  DOC_GEN_FORMATS,
  type DocGenSource,
  docGenSource,
  type PipeDocGenBlueprint,
  templateFileCandidates,
} from '../../mthds/index.js';
import { renderJobTemplate } from '../job-template.js';
import { outputConceptOf } from '../output-concept.js';
import type { PipeJob, PipeRunner, RunEnvironment } from '../pipe-job.js';
import { storePipeOutput } from '../pipe-output.js';
import type { ItemContent } from '../stuff.js';
import { BLANK_PDF_DATA_URL } from './blank-pdf.js';
import { documentFilename } from './doc-gen-filename.js';

/** Most characters of JSON the inputs handed to an engine may have (2 MiB). */
const MAX_PRINT_INPUT_CHARS = 2 * 1024 * 1024;
/** Largest printed file, in bytes (16 MiB); its `data:` URL is a third larger. */
const MAX_DOCUMENT_BYTES = 16 * 1024 * 1024;

type DocGenJob = PipeJob & { pipe: { blueprint: PipeDocGenBlueprint } };

/**
 * Render a compose-stage template with strict undefined.
 * @throws PipeDocGenUndefinedValueError when it prints a value the inputs lack; the other template errors (422)
 */
async function compose(
  job: DocGenJob,
  environment: RunEnvironment,
  field: string,
  template: string,
  category: 'html' | 'basic',
): Promise<string> {
  try {
    return (await renderJobTemplate(job, environment, template, { category, strictUndefined: true })).text;
  } catch (error) {
    if (error instanceof MthdsError && error.error_type === 'Jinja2TemplateUndefinedError')
      throw new PipeDocGenUndefinedValueError(`Pipe '${job.pipe.code}', ${field}: ${error.message}`, { cause: error });
    throw error;
  }
}

/**
 * The bytes of the pipe's `template_file`, from the run's bundle files.
 * @returns the bytes, or undefined in a dry run without bundle files
 * @throws PipeDocGenRenderError when the run has no bundle files (a bundle sent as text) or lacks the file
 */
function templateFileBytes(job: DocGenJob, environment: RunEnvironment, path: string): Uint8Array | undefined {
  const files = environment.deps.libraryFiles;
  if (!files) {
    if (environment.dryRun) return undefined;
    throw new PipeDocGenRenderError(
      `Pipe '${job.pipe.code}': template_file '${path}' cannot be read: the bundle was sent as text, without its files.`,
    );
  }
  for (const candidate of templateFileCandidates(job.pipe.source, path)) {
    const bytes = files.read(candidate);
    if (bytes) return bytes;
  }
  throw new PipeDocGenRenderError(
    `Pipe '${job.pipe.code}': template_file '${path}' names no file of the bundle (its files: ${files.paths().slice(0, 20).join(', ') || 'none'}).`,
  );
}

/** `order_notes` → `Order notes`. */
function humanize(name: string): string {
  const words = name.replace(/[_-]+/g, ' ').trim();
  return words.charAt(0).toUpperCase() + words.slice(1);
}

/**
 * The pipe's inputs as plain data, by name: an item's content, or a list's array of contents.
 * @throws PipeDocGenRenderError when they are larger than {@link MAX_PRINT_INPUT_CHARS} as JSON
 */
function inputData(job: DocGenJob): Record<string, unknown> {
  const data: Record<string, unknown> = {};
  for (const input of job.pipe.inputs) {
    const stuff = job.memory.find(input.name);
    if (stuff) data[input.name] = stuff.content.kind === 'item' ? stuff.content.item : stuff.content.items;
  }
  const size = JSON.stringify(data).length;
  if (size > MAX_PRINT_INPUT_CHARS)
    throw new PipeDocGenRenderError(
      `Pipe '${job.pipe.code}': its inputs are ${size} characters of JSON, over the ${MAX_PRINT_INPUT_CHARS} a document may print.`,
    );
  return data;
}

/** The HTML a pdf prints from, composed; undefined for the other sources. */
async function composedHtml(
  job: DocGenJob,
  environment: RunEnvironment,
  source: DocGenSource,
  templateFile: Uint8Array | undefined,
): Promise<string | undefined> {
  const { template, template_file: path } = job.pipe.blueprint;
  if (source !== 'html') return undefined;
  if (template !== undefined) return compose(job, environment, 'template', template, 'html');
  if (templateFile === undefined) return undefined;
  return compose(job, environment, `template_file '${path}'`, new TextDecoder().decode(templateFile), 'html');
}

/**
 * Run a PipeDocGen job.
 * @throws PipeDocGenUndefinedValueError, Jinja2Template* errors (422) composing; PipeDocGenRenderError (422) printing;
 *   DocGenEngineMissingError (500) when no engine or printer serves the pipe; PipeFeatureNotSupportedError (501) for
 *   an engine this deployment cannot run
 * @see docs/document-generation.md
 */
export const runPipeDocGen: PipeRunner = async (job, environment) => {
  const docJob = job as DocGenJob;
  const blueprint = docJob.pipe.blueprint;
  const facts = DOC_GEN_FORMATS[blueprint.format];
  const source = docGenSource(blueprint);
  const choice = chooseDocGenEngine(blueprint.format, source, blueprint.model);
  if ('missing' in choice)
    throw new DocGenEngineMissingError(`Pipe '${job.pipe.code}': no doc_gen engine can print it: ${choice.missing}.`);
  const templateFile =
    blueprint.template_file === undefined ? undefined : templateFileBytes(docJob, environment, blueprint.template_file);
  if (environment.dryRun && templateFile !== undefined && source === 'template_file')
    await environment.deps.printer?.checkTemplate?.({ pipeCode: job.pipe.code, engine: choice.engine, templateFile });
  const html = await composedHtml(docJob, environment, source, templateFile);
  const rendered =
    blueprint.filename === undefined
      ? job.pipe.code
      : await compose(docJob, environment, 'filename', blueprint.filename, 'basic');
  const filename = documentFilename(rendered, facts.suffix, job.pipe.code);
  const data = inputData(docJob);
  let url = BLANK_PDF_DATA_URL;
  if (!environment.dryRun) {
    const { printer, signal } = environment.deps;
    if (!printer?.hasEngine(choice.engine))
      throw new DocGenEngineMissingError(
        `Pipe '${job.pipe.code}': this runner has no implementation of doc_gen engine '${choice.engine}'.`,
      );
    const single = job.pipe.inputs.length === 1 ? job.pipe.inputs[0] : undefined;
    const bytes = await printer.print({
      pipeCode: job.pipe.code,
      engine: choice.engine,
      format: blueprint.format,
      title: single === undefined ? job.pipe.code : humanize(single.name),
      data,
      ...(html === undefined ? {} : { html }),
      ...(templateFile === undefined || source === 'html' ? {} : { templateFile }),
      maxBytes: MAX_DOCUMENT_BYTES,
      ...(signal ? { signal } : {}),
    });
    if (bytes.byteLength > MAX_DOCUMENT_BYTES)
      throw new PipeDocGenRenderError(
        `Pipe '${job.pipe.code}': the printed ${blueprint.format} is ${bytes.byteLength} bytes, over the ${MAX_DOCUMENT_BYTES}-byte bound.`,
      );
    url = `data:${facts.mimeType};base64,${Buffer.from(bytes).toString('base64')}`;
  }
  const item: ItemContent = { url, mime_type: facts.mimeType, filename };
  storePipeOutput(job, environment, outputConceptOf(job, environment.library), { kind: 'item', item });
};
