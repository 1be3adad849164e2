/**
 * Static reading of the growing builtins' literal arguments (LANGUAGE.md §6 S4 "Templates"; docs/isolation.md
 * "Templates"): `center(1000000000)` is over the output budget whatever the content, so validation refuses it before
 * any run.
 */
import { maxOutputChars, type TemplateLimits } from './output-budget.js';
import { parseTemplate } from './template-ast.js';

/** The builtins whose first argument is a size or count of the output: width, lines, slices. */
const SIZED_FILTERS = new Set(['center', 'indent', 'batch', 'slice']);

interface Node {
  typename: string;
  fields?: string[];
  children?: Node[];
  value?: unknown;
  [field: string]: unknown;
}

function visit(node: unknown, found: string[], limit: number): void {
  if (node === null || typeof node !== 'object') return;
  if (Array.isArray(node)) {
    for (const element of node) visit(element, found, limit);
    return;
  }
  const ast = node as Node;
  if (ast.typename === 'Filter') {
    const name = String((ast['name'] as Node).value);
    const argument = ((ast['args'] as Node).children ?? [])[1];
    if (SIZED_FILTERS.has(name) && argument?.typename === 'Literal' && Number(argument.value) > limit)
      found.push(`${name}(${String(argument.value)})`);
  }
  const fields = ast.fields ?? [];
  for (const field of fields) visit(ast[field], found, limit);
  if (!fields.includes('children')) visit(ast.children, found, limit);
}

/**
 * The calls of a template whose literal size argument is over the output budget.
 * @param template - template text as written (shorthands allowed)
 * @param limits - the output budget
 * @returns the calls as written in messages, e.g. `center(1000000000)`, in template order
 * @throws Jinja2TemplateSyntaxError when the template does not parse
 */
export function oversizedLiteralCalls(template: string, limits: TemplateLimits): string[] {
  const found: string[] = [];
  visit(parseTemplate(template), found, maxOutputChars(limits));
  return found;
}
