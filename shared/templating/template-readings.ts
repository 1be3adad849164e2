/**
 * Reading a template's Jinja AST (nunjucks parser): its free variables and the filters it uses, kept by template text
 * so that the static rules and the renders read each template once. Validation uses the variables to check prompts
 * against declared inputs (docs/templates.md).
 */
import { LRUCache } from 'lru-cache';
import { AstReader, type TemplateReading } from './ast-reader.js';
import { type AstNode, parseExpanded, tooDeepToRead } from './jinja-ast.js';
import { expandShorthands } from './shorthands.js';

/** The free variables of a template (shared between the callers reading the same template: never mutated). */
export interface TemplateVariables {
  /** First segments of the paths, sorted and unique. */
  readonly roots: readonly string[];
  /** Full dotted paths as used (`a.b.c`), sorted and unique. */
  readonly paths: readonly string[];
}

/**
 * Characters of template text whose readings are kept (the keys are most of their memory): twice the default total
 * size of a method's bundles (`MAX_BUNDLE_TOTAL_KIB`, 8 MiB), so a library's templates stay read while its static
 * rules and dry runs read them again and again, however many pipes it has (a cache bounded by a number of entries is
 * swept through by a larger library, which then reads every template again on every visit).
 */
const READINGS_MAX_CHARS = 16 * 1024 * 1024;
/** Characters an entry counts beyond its text, so that very short templates are bounded too. */
const READING_OVERHEAD_CHARS = 64;

/**
 * Readings kept, by template text (the least recently used dropped first): static rules and renders read the same
 * templates.
 */
const readings = new LRUCache<string, TemplateReading>({
  maxSize: READINGS_MAX_CHARS,
  sizeCalculation: (_reading, template) => template.length + READING_OVERHEAD_CHARS,
});

/**
 * Characters of template text whose parsed trees wait for the template's compile (a few tens of bytes of tree per
 * character): a library's static rules read its templates, then its dry runs compile them, and the compile takes the
 * tree instead of parsing the text again. A tree is taken once; the least recently read are dropped first.
 */
const PARSED_MAX_CHARS = 1024 * 1024;

/** Parsed trees by expanded template text, read and not yet compiled. */
const parsedTrees = new LRUCache<string, AstNode>({
  maxSize: PARSED_MAX_CHARS,
  sizeCalculation: (_tree, source) => source.length + READING_OVERHEAD_CHARS,
});

/**
 * Take the tree {@link readTemplate} parsed from a text, if it is still kept: the nunjucks parse with the lexer's
 * default options (no `trimBlocks`, no `lstripBlocks`, the default tags) and no extension. The tree is removed, since
 * nunjucks' compile transforms it in place.
 * @param source - the template text with its shorthands expanded
 * @returns the tree, or undefined when it was never kept, already taken or dropped
 */
export function takeParsedTemplate(source: string): AstNode | undefined {
  const tree = parsedTrees.get(source);
  if (tree) parsedTrees.delete(source);
  return tree;
}

/**
 * Read a parsed template (cached by text; a syntax error is not cached).
 * @param template - template text as written
 * @returns the variable paths, filter and test names, and refused loading tags
 * @throws Jinja2TemplateSyntaxError
 */
export function readTemplate(template: string): TemplateReading {
  const cached = readings.get(template);
  if (cached) return cached;
  const source = expandShorthands(template);
  const ast = parseExpanded(source);
  const reader = new AstReader(source.split('\n'));
  try {
    reader.visit(ast, new Set());
  } catch (error) {
    throw error instanceof RangeError ? tooDeepToRead(error) : error;
  }
  readings.set(template, reader);
  parsedTrees.set(source, ast);
  return reader;
}

/**
 * The sorted variables of each kept reading: the static rules and every render of a template ask for them (the rules
 * several times per template), and they live as long as the reading.
 */
const variablesRead = new WeakMap<TemplateReading, TemplateVariables>();

/**
 * The free variables of a template: shorthand roots plus the undeclared names of the Jinja AST (loop variables,
 * `{% set %}` targets from their statement on, macro arguments, `loop`, `caller` and the engine's globals excluded).
 * Only the left side of a test is read (`x is defined` reads `x`, never `defined`), plus a test's call arguments
 * (`x is divisibleby(n)` reads `n`); keyword argument names (`default(x, boolean=true)`) are not variables.
 * @param template - template text as written (shorthands allowed)
 * @throws Jinja2TemplateSyntaxError
 * @see docs/templates.md, docs/language.md#optionality-presence-markers-and-absences
 */
export function templateVariables(template: string): TemplateVariables {
  const reading = readTemplate(template);
  let variables = variablesRead.get(reading);
  if (!variables) {
    const paths = [...reading.paths].sort();
    variables = { roots: [...new Set(paths.map((path) => path.split('.')[0]!))].sort(), paths };
    variablesRead.set(reading, variables);
  }
  return variables;
}

/**
 * Whether a template is straight-line ({@link TemplateReading.straightLine}): no loop, `{% set %}`, macro, call or
 * block, only linear filters, a bounded number of nodes.
 * @param template - template text as written (shorthands allowed)
 * @throws Jinja2TemplateSyntaxError
 */
export function isStraightLine(template: string): boolean {
  return readTemplate(template).straightLine;
}

/**
 * The `_`-prefixed attributes a template reads with a dot (`{{ x._stuff }}`), other than the artefact metadata fields
 * (`_stuff_name`, `_stuff_code`, `_concept_code`, `_content_class`): the sandbox refuses them at render time, the
 * `S4-template-private-names` rule at load. A bracketed key (`x["_id"]`) may be a plain dict's data and is not listed.
 * @param template - template text as written (shorthands allowed)
 * @returns the names, sorted and unique
 * @throws Jinja2TemplateSyntaxError
 * @see docs/templates.md#categories
 */
export function templatePrivateNames(template: string): string[] {
  return [...readTemplate(template).privateNames].sort();
}
