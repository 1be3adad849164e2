/**
 * PipeDocGen's language facts (docs/document-generation.md, a newer reference operator): the formats and what each
 * prints,
 * the source a pipe prints from (a layout, an HTML `template`, a `template_file` of the bundle), and the doc_gen deck
 * that names the engine of each (format, source) pair.
 *
 * The deck is this runner's own and fixed: `choice_defaults` keyed `"<format>.<source>"` name aliases, aliases name
 * engines. The reference's engine names (`reportlab-pdf`, `weasyprint-pdf`, `openpyxl-xlsx`, `docxtpl-docx`,
 * `python-pptx`) are aliases of the engine that does the same work here, so a bundle naming one still loads. A pipe's
 * `model` names an engine or an alias, bare, as `@name` or as `alias:name` / `handle:name`.
 */
import { posix } from 'node:path';
import { parseModelReference } from '../model-references.js';
import type { PipeDocGenBlueprint } from '../parse/pipe-blueprints.js';

/** The formats a PipeDocGen prints. */
export type DocGenFormat = PipeDocGenBlueprint['format'];

/** What a PipeDocGen prints from: its layout (no template), an HTML `template` (pdf), or a `template_file`. */
export type DocGenSource = 'layout' | 'html' | 'template_file';

/** What a format prints: the media type, the file suffix, and the extension its `template_file` must have. */
export interface DocGenFormatFacts {
  mimeType: string;
  /** With its dot, e.g. `.pdf`. */
  suffix: string;
  /** The extension of a `template_file`, with its dot (`.html` for pdf). */
  templateFileExtension: string;
}

/** Facts per format. */
export const DOC_GEN_FORMATS: Readonly<Record<DocGenFormat, DocGenFormatFacts>> = {
  pdf: { mimeType: 'application/pdf', suffix: '.pdf', templateFileExtension: '.html' },
  xlsx: {
    mimeType: 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet',
    suffix: '.xlsx',
    templateFileExtension: '.xlsx',
  },
  docx: {
    mimeType: 'application/vnd.openxmlformats-officedocument.wordprocessingml.document',
    suffix: '.docx',
    templateFileExtension: '.docx',
  },
  pptx: {
    mimeType: 'application/vnd.openxmlformats-officedocument.presentationml.presentation',
    suffix: '.pptx',
    templateFileExtension: '.pptx',
  },
};

/** The engines of this runner and the `"<format>.<source>"` keys each serves. */
const DOC_GEN_ENGINES: Readonly<Record<string, readonly string[]>> = {
  'pdfkit-pdf': ['pdf.layout'],
  'chromium-pdf': ['pdf.html'],
  'exceljs-xlsx': ['xlsx.layout', 'xlsx.template_file'],
  'docx-docx': ['docx.layout'],
  'docxtemplater-docx': ['docx.template_file'],
  'pptx-template': ['pptx.template_file'],
};

/** The doc_gen deck: aliases to engines, and the alias chosen per `"<format>.<source>"`. */
const DOC_GEN_DECK = {
  aliases: {
    'default-pdf-layout': 'pdfkit-pdf',
    'default-pdf-html': 'chromium-pdf',
    'default-xlsx': 'exceljs-xlsx',
    'default-docx-layout': 'docx-docx',
    'default-docx-template': 'docxtemplater-docx',
    'default-pptx-template': 'pptx-template',
    'reportlab-pdf': 'pdfkit-pdf',
    'weasyprint-pdf': 'chromium-pdf',
    'openpyxl-xlsx': 'exceljs-xlsx',
    'docxtpl-docx': 'docxtemplater-docx',
    'python-pptx': 'pptx-template',
  } as Readonly<Record<string, string>>,
  choice_defaults: {
    'pdf.layout': '@default-pdf-layout',
    'pdf.html': '@default-pdf-html',
    'xlsx.layout': '@default-xlsx',
    'xlsx.template_file': '@default-xlsx',
    'docx.layout': '@default-docx-layout',
    'docx.template_file': '@default-docx-template',
    'pptx.template_file': '@default-pptx-template',
  } as Readonly<Record<string, string>>,
} as const;

/**
 * The source a PipeDocGen prints from.
 * @param blueprint - the pipe as written
 * @returns `html` for a pdf with a `template` or an `.html` `template_file`; `template_file` for an office format
 *   with one; else `layout`
 */
export function docGenSource(
  blueprint: Pick<PipeDocGenBlueprint, 'format' | 'template' | 'template_file'>,
): DocGenSource {
  if (blueprint.template_file !== undefined) return blueprint.format === 'pdf' ? 'html' : 'template_file';
  return blueprint.template === undefined ? 'layout' : 'html';
}

/** The engine chosen for a pipe, or why there is none. */
export type DocGenEngineChoice = { engine: string } | { missing: string };

/**
 * Choose the engine of a PipeDocGen: its `model`, else the deck's `choice_defaults["<format>.<source>"]`; aliases
 * are followed to an engine, which must serve the pair.
 * @param format - the pipe's `format`
 * @param source - what it prints from
 * @param model - the pipe's `model`, when set
 * @returns the engine's name, or a sentence saying what is missing
 */
export function chooseDocGenEngine(format: DocGenFormat, source: DocGenSource, model?: string): DocGenEngineChoice {
  const key = `${format}.${source}`;
  const reference = model ?? DOC_GEN_DECK.choice_defaults[key];
  if (reference === undefined) return { missing: `the doc_gen deck has no choice default for '${key}'` };
  const { kind, name } = parseModelReference(reference);
  if (kind === 'preset' || kind === 'waterfall')
    return { missing: `the doc_gen deck has no ${kind}s ('${reference}' names one)` };
  const engine = DOC_GEN_DECK.aliases[name] ?? (kind === 'alias' ? undefined : name);
  const serves = engine === undefined ? undefined : DOC_GEN_ENGINES[engine];
  if (engine === undefined || serves === undefined)
    return {
      missing: `'${reference}' is no doc_gen engine or alias (engines: ${Object.keys(DOC_GEN_ENGINES).join(', ')})`,
    };
  if (!serves.includes(key)) return { missing: `engine '${engine}' prints ${serves.join(', ')}, not '${key}'` };
  return { engine };
}

/**
 * The bundle-relative paths a `template_file` may name, in the order to try: relative to the directory of the
 * declaring `.mthds` file, then relative to the bundle's root.
 * @param source - the declaring bundle's logical file name (null when it has none)
 * @param path - the `template_file` as written (relative, `/` separators)
 */
export function templateFileCandidates(source: string | null, path: string): string[] {
  const fromRoot = posix.normalize(path).replace(/^\.\//, '');
  const dir = source === null ? '.' : posix.dirname(source);
  const fromBundle = posix.normalize(posix.join(dir, path)).replace(/^\.\//, '');
  return fromBundle === fromRoot ? [fromRoot] : [fromBundle, fromRoot];
}
