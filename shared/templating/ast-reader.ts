/**
 * The walk over a template's AST that reads what the template uses: its free variable paths (loop targets, `{% set %}`
 * names and macro arguments in scope left out), the filters and tests it applies, the `_`-prefixed attributes it reads,
 * the loading tags it writes, the sized builtins it calls with a literal size, and whether it is straight-line
 * (docs/templates.md, docs/isolation.md#templates).
 */
import { Jinja2TemplateSyntaxError } from '../errors/index.js';
import { type AstNode, BUILTIN_NAMES, boundNames, lookupPath, testName } from './jinja-ast.js';
import { ALLOWED_PRIVATE } from './sandbox.js';

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
 * Reads one template's AST into a {@link TemplateReading}: {@link AstReader.visit} walks the tree once and fills the
 * reading's sets.
 */
export class AstReader {
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

  /**
   * Read a node and what it holds.
   * @param node - an AST node, a list of nodes, or any other field value (skipped)
   * @param scope - the names bound where the node stands (filled by `{% set %}` and macros as the walk goes)
   * @throws Jinja2TemplateSyntaxError for a `{% set %}` whose target is not a plain name; RangeError when the tree
   *   nests too deeply for the walk
   */
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
