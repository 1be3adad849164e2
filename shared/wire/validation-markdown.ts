/**
 * `rendered_markdown` of `POST /v1/validate` with `render: ["markdown"]` (docs/api.md#rendered-markdown): the verdict
 * as a person reads it, on both arms. The valid arm summarises the pipes (type, inputs, output, dry-run status) and the
 * concepts the bundles declare; the invalid arm lists the validation items with where each is and the fix it
 * suggests. The structured members stay the contract; this is a view of them.
 */
import type { ValidationErrorItem } from '../errors/index.js';
import type { Library } from '../mthds/index.js';

/** What the view reads of an input contract (`InputContract` of `validation-report.ts`, which renders through here). */
interface InputFacts {
  concept_ref: string;
  presence: string;
  multiplicity: string;
  item_count: number | null;
}

/** What the view reads of an output contract (`OutputContract` of `validation-report.ts`). */
interface OutputFacts {
  concept_ref: string;
  multiplicity: string;
  item_count: number | null;
  optional: boolean;
}

/** What the valid arm's view reads of the valid report. */
interface ValidFacts {
  pipe_io_contracts: Record<string, { inputs: Record<string, InputFacts>; output: OutputFacts }>;
  validated_pipes: { pipe_ref: string; status: string }[];
  warnings: ValidationErrorItem[];
  pending_signatures: string[];
  is_runnable: boolean;
  message: string;
  default_pipe_ref: string | null;
}

/** What the invalid arm's view reads of the invalid report (its `message` joins the items' messages: not repeated). */
interface InvalidFacts {
  validation_errors: ValidationErrorItem[];
}

/** A free text (a message, a description) made safe for a Markdown line: no raw HTML tag opens, one line. */
function text(value: string): string {
  return value.replace(/<(?=[A-Za-z/!?])/g, '\\<').replace(/\r?\n/g, ' ');
}

/** A free text made safe for a Markdown table cell. */
function cell(value: string): string {
  return text(value).replace(/\|/g, '\\|');
}

function code(value: string): string {
  return `\`${value.replace(/`/g, "'")}\``;
}

function plural(count: number, noun: string): string {
  return `${count} ${noun}${count === 1 ? '' : 's'}`;
}

/** `Concept`, `Concept[]`, `Concept[3]`, with the presence marker (`?`, `!`). */
function inputSpec(input: InputFacts): string {
  const suffix = input.multiplicity === 'single' ? '' : `[${input.item_count ?? ''}]`;
  const marker = input.presence === 'optional' ? '?' : input.presence === 'force' ? '!' : '';
  return `${input.concept_ref}${suffix}${marker}`;
}

function outputSpec(output: OutputFacts): string {
  const suffix = output.multiplicity === 'single' ? '' : `[${output.item_count ?? ''}]`;
  return `${output.concept_ref}${suffix}${output.optional ? '?' : ''}`;
}

/** Where an item points: its file, domain, pipe or concept, and field. */
function location(item: ValidationErrorItem): string {
  const parts: string[] = [];
  if (item.source) parts.push(`file ${code(item.source)}`);
  if (item.pipe_code)
    parts.push(`pipe ${code(item.domain_code ? `${item.domain_code}.${item.pipe_code}` : item.pipe_code)}`);
  else if (item.concept_code)
    parts.push(`concept ${code(item.domain_code ? `${item.domain_code}.${item.concept_code}` : item.concept_code)}`);
  else if (item.domain_code) parts.push(`domain ${code(item.domain_code)}`);
  if (item.field_path) parts.push(`field ${code(item.field_path)}`);
  return parts.join(', ');
}

/** One item as a numbered section: its kind, message, location and what would fix it. */
function itemSection(item: ValidationErrorItem, index: number): string[] {
  const kind = item.error_type ? `${code(item.error_type)} (${item.category})` : item.category;
  const lines = [`### ${index + 1}. ${kind}`, '', text(item.message), ''];
  const where = location(item);
  if (where) lines.push(`- Where: ${where}`);
  if (item.missing_pipe_code) lines.push(`- Unresolved pipe: ${code(item.missing_pipe_code)}`);
  if (item.missing_concept_code) lines.push(`- Unresolved concept: ${code(item.missing_concept_code)}`);
  if (item.variable_names?.length) lines.push(`- Variables: ${item.variable_names.map(code).join(', ')}`);
  if (item.declared_concepts?.length) lines.push(`- Declared concepts: ${item.declared_concepts.map(code).join(', ')}`);
  if (item.suggested_fix)
    lines.push(`- Suggested fix (${item.suggested_fix.safety}): ${text(item.suggested_fix.description)}`);
  if (lines[lines.length - 1] !== '') lines.push('');
  return lines;
}

function pipesTable(report: ValidFacts, library: Library): string[] {
  const statuses = new Map(report.validated_pipes.map((entry) => [entry.pipe_ref, entry.status]));
  const rows = Object.entries(report.pipe_io_contracts).map(([ref, contract]) => {
    const pipe = library.pipes.get(ref);
    const inputs = Object.entries(contract.inputs).map(([name, input]) => `${code(name)}: ${code(inputSpec(input))}`);
    const status = report.pending_signatures.includes(ref) ? 'contract only' : (statuses.get(ref) ?? 'not run');
    return `| ${code(ref)} | ${pipe?.type ?? ''} | ${inputs.join(', ') || '—'} | ${code(outputSpec(contract.output))} | ${status} |`;
  });
  return ['| Pipe | Type | Inputs | Output | Dry run |', '|---|---|---|---|---|', ...rows, ''];
}

function conceptsTable(library: Library): string[] {
  const concepts = [...library.concepts.values()]
    .filter((concept) => !concept.isNative)
    .sort((a, b) => a.ref.localeCompare(b.ref));
  if (concepts.length === 0) return ['The bundles declare no concept of their own.', ''];
  const rows = concepts.map(
    (concept) =>
      `| ${code(concept.ref)} | ${concept.refines ? code(concept.refines) : '—'} | ${concept.structure ? plural(Object.keys(concept.structure).length, 'field') : '—'} | ${cell(concept.description)} |`,
  );
  return ['| Concept | Refines | Structure | Description |', '|---|---|---|---|', ...rows, ''];
}

/**
 * The Markdown view of a valid verdict.
 * @param report - the valid report's members the view reads
 * @param library - the validated library (pipe types, declared concepts)
 */
export function validMarkdown(report: ValidFacts, library: Library): string {
  const pipes = Object.keys(report.pipe_io_contracts).length;
  const concepts = [...library.concepts.values()].filter((concept) => !concept.isNative).length;
  const runnable = report.is_runnable
    ? 'yes'
    : `no: ${plural(report.pending_signatures.length, 'contract-only pipe')} to implement (${report.pending_signatures.map(code).join(', ')})`;
  const lines = [
    '# Validation passed',
    '',
    `${text(report.message)}: ${plural(pipes, 'pipe')} and ${plural(concepts, 'concept')} in ${plural(library.bundles.length, 'bundle')}.`,
    '',
    `- Main pipe: ${report.default_pipe_ref ? code(report.default_pipe_ref) : 'none (no `main_pipe`)'}`,
    `- Runnable: ${runnable}`,
    `- Warnings: ${report.warnings.length}`,
    '',
    '## Pipes',
    '',
    ...pipesTable(report, library),
    '## Concepts',
    '',
    ...conceptsTable(library),
  ];
  if (report.warnings.length > 0) {
    lines.push('## Warnings', '');
    report.warnings.forEach((item, index) => {
      lines.push(...itemSection(item, index));
    });
  }
  return `${lines.join('\n').trimEnd()}\n`;
}

/** Where the items come from, when they all come from the dry run or all from static validation. */
function stage(items: ValidationErrorItem[]): string {
  if (items.every((item) => item.category === 'dry_run')) return ' by the dry run';
  if (items.every((item) => item.category !== 'dry_run')) return ' by static validation';
  return '';
}

/**
 * The Markdown view of an invalid verdict: every validation item, with its location and suggested fix.
 * @param report - the invalid report's members the view reads
 */
export function invalidMarkdown(report: InvalidFacts): string {
  const count = report.validation_errors.length;
  const lines = [
    '# Validation failed',
    '',
    `${plural(count, 'error')} found${stage(report.validation_errors)}; the method cannot run until ${count === 1 ? 'it is' : 'they are'} fixed.`,
    '',
    '## Errors',
    '',
  ];
  report.validation_errors.forEach((item, index) => {
    lines.push(...itemSection(item, index));
  });
  return `${lines.join('\n').trimEnd()}\n`;
}
