/**
 * The Jinja AST of a template as the nunjucks parser gives it, read loosely: parsing expanded template text, and the
 * helpers naming what a node spells (a dotted path, the names a binding binds, a test's name) (docs/templates.md).
 */
import { Jinja2TemplateSyntaxError } from '../errors/index.js';
import { hardenedNunjucks } from './sandbox.js';

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
 * @param cause - the engine's stack overflow
 */
export function tooDeepToRead(cause: RangeError): Jinja2TemplateSyntaxError {
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
 * The name of the test on the right of `x is <test>` as written: a name (`defined`), a call (`divisibleby(3)`), or one
 * of the Jinja2 keywords nunjucks parses as a literal (`none`, `true`, `false`).
 */
export function testName(node: AstNode): string {
  if (node.typename === 'FunCall') return testName(node['name'] as AstNode);
  return node.value === null ? 'none' : String(node.value);
}
