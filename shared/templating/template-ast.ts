/**
 * Reading a template's Jinja AST (nunjucks parser): its free variables and the filters it uses. Validation uses the
 * variables to check prompts against declared inputs (docs/templates.md).
 */
import { LRUCache } from 'lru-cache';
import { Jinja2TemplateSyntaxError } from '../errors/index.js';
import { ALLOWED_PRIVATE, hardenedNunjucks } from './sandbox.js';
import { expandShorthands } from './shorthands.js';

/** The free variables of a template (shared between the callers reading the same template: never mutated). */
export interface TemplateVariables {
  /** First segments of the paths, sorted and unique. */
  readonly roots: readonly string[];
  /** Full dotted paths as used (`a.b.c`), sorted and unique. */
  readonly paths: readonly string[];
}

/** A node of the nunjucks AST, read loosely: its type name and its fields by name. */
export interface AstNode {
  typename: string;
  fields?: string[];
  children?: AstNode[];
  value?: unknown;
  [field: string]: unknown;
}

/**
 * Names the template engine provides itself; they are never inputs: `loop`, `caller`, and the globals the renderer
 * defines (`range`, `cycler`, `joiner`, `dict`).
 */
export const BUILTIN_NAMES: ReadonlySet<string> = new Set(['loop', 'range', 'cycler', 'joiner', 'caller', 'dict']);

/** Tags that would load other templates: refused (bundles carry no template library). */
const LOADING_NODES = new Set(['Include', 'Import', 'FromImport', 'Extends']);

/**
 * Node types of a straight-line template: text, names, literals, tests, comparisons, conditionals and concatenation.
 * No loop, `{% set %}`, macro, call or block: every value is printed or combined at most once per place it is written.
 */
const STRAIGHT_LINE_NODES = new Set([
  'Root',
  'NodeList',
  'Output',
  'TemplateData',
  'Literal',
  'Symbol',
  'LookupVal',
  'Group',
  'Array',
  'Pair',
  'Dict',
  'If',
  'InlineIf',
  'Filter',
  'KeywordArgs',
  'In',
  'Is',
  'Or',
  'And',
  'Not',
  'Compare',
  'CompareOperand',
  'Concat',
  'Add',
  'Sub',
  'Neg',
  'Pos',
]);

/**
 * Filters whose result is at most a constant plus a constant multiple of their input (the MTHDS filters among them).
 */
const LINEAR_FILTERS = new Set([
  'format',
  'tag',
  'escape_script_tag',
  'with_images',
  'default',
  'd',
  'upper',
  'lower',
  'trim',
  'capitalize',
  'escape',
  'e',
  'safe',
  'string',
  'length',
  'first',
  'last',
  'int',
  'float',
  'abs',
  'round',
]);

/** The builtins whose first argument is a size or count of the output: width, lines, slices. */
const SIZED_FILTERS = new Set(['center', 'indent', 'batch', 'slice']);

/** A call of a sized builtin with a literal size, e.g. `center(80)`. */
export interface SizedLiteralCall {
  /** As written in messages: `center(1000000000)`. */
  call: string;
  /** The literal size, as a number. */
  size: number;
}

/** Most AST nodes a straight-line template may have: its work is then a small multiple of its model's size. */
const STRAIGHT_LINE_MAX_NODES = 256;

/**
 * Parse a template whose shorthands are already expanded.
 * @param source - pure Jinja text
 * @returns the nunjucks AST root
 * @throws Jinja2TemplateSyntaxError naming line and column
 */
export function parseExpanded(source: string): AstNode {
  try {
    return (hardenedNunjucks as unknown as { parser: { parse(source: string): AstNode } }).parser.parse(source);
  } catch (error) {
    if (error instanceof RangeError) throw tooDeepToRead(error);
    const message = error instanceof Error ? error.message.replace(/^\(unknown path\)\s*/, '') : String(error);
    throw new Jinja2TemplateSyntaxError(`Template syntax error: ${message.trim()}`, { cause: error });
  }
}

/**
 * The error of a template nested too deeply for the nunjucks parser or the AST reader (both recurse on nesting, e.g.
 * thousands of parentheses): a syntax error in the caller's words, never the engine's stack-overflow message.
 */
function tooDeepToRead(cause: RangeError): Jinja2TemplateSyntaxError {
  return new Jinja2TemplateSyntaxError(
    'Template syntax error: the template nests too deeply to be read (parentheses, brackets or blocks inside one another); flatten it.',
    { cause },
  );
}

/**
 * The dotted path a name or a chain of literal lookups spells (`a.b["c"]` → `a.b.c`), or undefined for anything else.
 * @param node - an AST node
 */
export function lookupPath(node: AstNode): string | undefined {
  if (node.typename === 'Symbol') return String(node.value);
  if (node.typename !== 'LookupVal') return undefined;
  const base = lookupPath(node['target'] as AstNode);
  const key = node['val'] as AstNode;
  if (base === undefined) return undefined;
  if (key.typename === 'Literal' && typeof key.value === 'string') return `${base}.${key.value}`;
  return base;
}

/**
 * The names a loop target, `{% set %}` target or macro argument list binds.
 * @param node - the binding node
 */
export function boundNames(node: AstNode | undefined): string[] {
  if (!node) return [];
  if (node.typename === 'Symbol') return [String(node.value)];
  return (node.children ?? []).flatMap(boundNames);
}

/**
 * The message of a `{% set %}` whose target is not a plain name (`{% set x.y = 1 %}`, `{% set x[0] = 1 %}`): nunjucks
 * parses it but cannot compile it (its compiler recurses without end), and Jinja2 allows it only on a namespace.
 */
function setTargetMessage(target: AstNode): string {
  const where =
    typeof target['lineno'] === 'number' && typeof target['colno'] === 'number'
      ? ` (line ${target['lineno'] + 1}, column ${target['colno'] + 1})`
      : '';
  const written = lookupPath(target);
  const what = written === undefined ? 'an expression' : `'${written}'`;
  return `Template syntax error${where}: {% set %} assigns plain names only (e.g. {% set total = 1 %}), not ${what}.`;
}

/**
 * The name of the test on the right of `x is <test>` as written: a name (`defined`), a call (`divisibleby(3)`), or one
 * of the Jinja2 keywords nunjucks parses as a literal (`none`, `true`, `false`).
 */
export function testName(node: AstNode): string {
  if (node.typename === 'FunCall') return testName(node['name'] as AstNode);
  return node.value === null ? 'none' : String(node.value);
}

class AstReader {
  readonly paths = new Set<string>();
  readonly filters = new Set<string>();
  readonly tests = new Set<string>();
  readonly privateNames = new Set<string>();
  readonly loadingTags = new Set<string>();
  readonly sizedCalls: SizedLiteralCall[] = [];
  straightLine = true;
  private nodes = 0;

  /** @param lines - the lines of the expanded template, to tell `x._a` (a private read) from `x["_a"]` (a key) */
  constructor(private readonly lines: readonly string[]) {}

  visit(node: unknown, scope: Set<string>): void {
    if (node === null || typeof node !== 'object') return;
    if (Array.isArray(node)) {
      for (const element of node) this.visit(element, scope);
      return;
    }
    const ast = node as AstNode;
    if (LOADING_NODES.has(ast.typename)) this.loadingTags.add(ast.typename);
    this.nodes += 1;
    if (!STRAIGHT_LINE_NODES.has(ast.typename) || this.nodes > STRAIGHT_LINE_MAX_NODES) this.straightLine = false;
    switch (ast.typename) {
      case 'LookupVal':
        this.readPrivateNames(ast);
        this.readPath(ast, scope);
        return;
      case 'Symbol':
        this.readPath(ast, scope);
        return;
      case 'For':
      case 'AsyncEach':
      case 'AsyncAll': {
        this.visit(ast['arr'], scope);
        const inner = new Set([...scope, ...boundNames(ast['name'] as AstNode), 'loop']);
        this.visit(ast['body'], inner);
        this.visit(ast['else_'], scope);
        return;
      }
      case 'Set': {
        const targets = (ast['targets'] as AstNode[] | undefined) ?? [];
        const notAName = targets.find((target) => target.typename !== 'Symbol');
        if (notAName) throw new Jinja2TemplateSyntaxError(setTargetMessage(notAName));
        this.visit(ast['value'], scope);
        this.visit(ast['body'], scope);
        for (const target of targets) for (const name of boundNames(target)) scope.add(name);
        return;
      }
      case 'Macro': {
        for (const name of boundNames(ast['name'] as AstNode)) scope.add(name);
        this.visit(ast['body'], new Set([...scope, ...boundNames(ast['args'] as AstNode), 'caller']));
        return;
      }
      case 'Is': {
        const test = ast['right'] as AstNode;
        this.tests.add(testName(test));
        this.visit(ast['left'], scope);
        if (test.typename === 'FunCall') this.visit(test['args'], scope);
        return;
      }
      case 'KeywordArgs':
        for (const pair of ast.children ?? []) this.visit(pair['value'], scope);
        return;
      case 'Filter':
      case 'FilterAsync': {
        const name = String((ast['name'] as AstNode).value);
        this.filters.add(name);
        if (!LINEAR_FILTERS.has(name)) this.straightLine = false;
        const size = ((ast['args'] as AstNode | undefined)?.children ?? [])[1];
        if (SIZED_FILTERS.has(name) && size?.typename === 'Literal')
          this.sizedCalls.push({ call: `${name}(${String(size.value)})`, size: Number(size.value) });
        this.visit(ast['args'], scope);
        return;
      }
      default: {
        const fields = ast.fields ?? [];
        for (const field of fields) this.visit(ast[field], scope);
        if (!fields.includes('children')) this.visit(ast.children, scope);
      }
    }
  }

  /**
   * Record the `_`-prefixed attributes a lookup chain reads with a dot (a bracketed key is data, left to the render).
   */
  private readPrivateNames(node: AstNode): void {
    for (let link = node; link.typename === 'LookupVal'; link = link['target'] as AstNode) {
      const key = link['val'] as AstNode;
      if (key.typename !== 'Literal' || typeof key.value !== 'string' || !key.value.startsWith('_')) continue;
      if (ALLOWED_PRIVATE.has(key.value)) continue;
      const written = this.lines[Number(key['lineno'])]?.[Number(key['colno'])];
      if (written !== '"' && written !== "'") this.privateNames.add(key.value);
    }
  }

  private readPath(node: AstNode, scope: Set<string>): void {
    const path = lookupPath(node);
    if (path === undefined) {
      this.visit(node['target'], scope);
      this.visit(node['val'], scope);
      return;
    }
    const root = path.split('.')[0]!;
    if (!scope.has(root) && !BUILTIN_NAMES.has(root)) this.paths.add(path);
    if (node.typename === 'LookupVal' && (node['val'] as AstNode).typename !== 'Literal')
      this.visit(node['val'], scope);
  }
}

/** What a template reads: its free variable paths, the filters and tests it applies and the loading tags it uses. */
export interface TemplateReading {
  readonly paths: ReadonlySet<string>;
  readonly filters: ReadonlySet<string>;
  /** The tests of `x is <test>` as written (`defined`, `divisibleby`, `none`). */
  readonly tests: ReadonlySet<string>;
  /** The `_`-prefixed attributes read with a dot (`x._stuff`), the artefact metadata fields excepted. */
  readonly privateNames: ReadonlySet<string>;
  readonly loadingTags: ReadonlySet<string>;
  /** The calls of `center`, `indent`, `batch` and `slice` with a literal size, in template order. */
  readonly sizedCalls: readonly SizedLiteralCall[];
  /**
   * True for a straight-line template: at most {@link STRAIGHT_LINE_MAX_NODES} nodes, none a loop, `{% set %}`, macro,
   * call or block, and only filters whose result is linear in their input. Its render costs a small multiple of the
   * size of what it reads, so it may render on a thread that must not be held (docs/isolation.md#templates).
   */
  readonly straightLine: boolean;
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
