/**
 * The guard analysis of optional inputs in a template (docs/language.md#optionality-presence-markers-and-absences):
 * which of the given names the
 * template reads where the value may be absent.
 *
 * Guards: `@?x` (it expands to `{% if x %}…`); the body of `{% if x %}`, `{% if x is defined %}`, or an `and` holding
 * one (its left operands guard its right ones); the true branch of `a if x else b`. In a test position (the condition
 * of an `if`, and the operands of `and`, `or` and `not` inside it) a bare name, or a `defined`, `undefined` or `none`
 * test of one, is itself safe. Not guards: `else` arms, `@x`, `$x`, `{{ x }}`, filters (`x | default("")`) and deep
 * access (`x.field`) outside a guard. Loop targets, `{% set %}` names (from their statement on) and macro arguments
 * shadow inputs.
 */

import { type AstNode, BUILTIN_NAMES, boundNames, lookupPath, parseExpanded, testName } from './jinja-ast.js';
import { expandShorthands } from './shorthands.js';

/** Tests whose subject may be absent without an error. */
const PRESENCE_TESTS: ReadonlySet<string> = new Set(['defined', 'undefined', 'none']);

class GuardWalker {
  readonly unguarded = new Set<string>();

  constructor(private readonly optional: ReadonlySet<string>) {}

  /** Record a read of `path` unless its root is guarded, shadowed or not optional. */
  private read(path: string, guarded: ReadonlySet<string>, scope: ReadonlySet<string>): void {
    const root = path.split('.')[0]!;
    if (this.optional.has(root) && !guarded.has(root) && !scope.has(root) && !BUILTIN_NAMES.has(root))
      this.unguarded.add(root);
  }

  /**
   * Visit a condition in a test position.
   * @returns the names the condition guards in its true branch
   */
  private test(node: AstNode, guarded: ReadonlySet<string>, scope: Set<string>): Set<string> {
    switch (node.typename) {
      case 'Symbol':
        return new Set([String(node.value)]);
      case 'Group':
        return this.test(((node.children ?? [])[0] as AstNode | undefined) ?? node, guarded, scope);
      case 'Is': {
        const left = node['left'] as AstNode;
        const right = node['right'] as AstNode;
        const name = left.typename === 'Symbol' ? String(left.value) : undefined;
        if (name !== undefined && PRESENCE_TESTS.has(testName(right)))
          return testName(right) === 'defined' ? new Set([name]) : new Set();
        this.visit(node, guarded, scope);
        return new Set();
      }
      case 'And': {
        const left = this.test(node['left'] as AstNode, guarded, scope);
        const right = this.test(node['right'] as AstNode, new Set([...guarded, ...left]), scope);
        return new Set([...left, ...right]);
      }
      case 'Or':
        this.test(node['left'] as AstNode, guarded, scope);
        this.test(node['right'] as AstNode, guarded, scope);
        return new Set();
      case 'Not':
        this.test(node['target'] as AstNode, guarded, scope);
        return new Set();
      default:
        this.visit(node, guarded, scope);
        return new Set();
    }
  }

  /** Visit any node outside a test position. */
  visit(node: unknown, guarded: ReadonlySet<string>, scope: Set<string>): void {
    if (node === null || typeof node !== 'object') return;
    if (Array.isArray(node)) {
      for (const element of node) this.visit(element, guarded, scope);
      return;
    }
    const ast = node as AstNode;
    switch (ast.typename) {
      case 'Symbol':
        this.read(String(ast.value), guarded, scope);
        return;
      case 'LookupVal': {
        const path = lookupPath(ast);
        if (path === undefined) this.visit(ast['target'], guarded, scope);
        else this.read(path, guarded, scope);
        if ((ast['val'] as AstNode).typename !== 'Literal') this.visit(ast['val'], guarded, scope);
        return;
      }
      case 'If':
      case 'IfAsync':
      case 'InlineIf': {
        const guards = this.test(ast['cond'] as AstNode, guarded, scope);
        this.visit(ast['body'], new Set([...guarded, ...guards]), scope);
        this.visit(ast['else_'], guarded, scope);
        return;
      }
      case 'Is': {
        const left = ast['left'] as AstNode;
        const test = ast['right'] as AstNode;
        if (!(left.typename === 'Symbol' && PRESENCE_TESTS.has(testName(test)))) this.visit(left, guarded, scope);
        if (test.typename === 'FunCall') this.visit(test['args'], guarded, scope);
        return;
      }
      case 'For':
      case 'AsyncEach':
      case 'AsyncAll': {
        this.visit(ast['arr'], guarded, scope);
        this.visit(ast['body'], guarded, new Set([...scope, ...boundNames(ast['name'] as AstNode), 'loop']));
        this.visit(ast['else_'], guarded, scope);
        return;
      }
      case 'Set': {
        this.visit(ast['value'], guarded, scope);
        this.visit(ast['body'], guarded, scope);
        for (const target of (ast['targets'] as AstNode[] | undefined) ?? [])
          for (const name of boundNames(target)) scope.add(name);
        return;
      }
      case 'Macro':
        for (const name of boundNames(ast['name'] as AstNode)) scope.add(name);
        this.visit(ast['body'], guarded, new Set([...scope, ...boundNames(ast['args'] as AstNode), 'caller']));
        return;
      case 'KeywordArgs':
        for (const pair of ast.children ?? []) this.visit(pair['value'], guarded, scope);
        return;
      case 'Filter':
      case 'FilterAsync':
        this.visit(ast['args'], guarded, scope);
        return;
      default: {
        const fields = ast.fields ?? [];
        for (const field of fields) this.visit(ast[field], guarded, scope);
        if (!fields.includes('children')) this.visit(ast.children, guarded, scope);
      }
    }
  }
}

/**
 * The optional names a template reads without a guard.
 * @param template - template text as written (shorthands allowed)
 * @param optional - the names of the pipe's optional (`?`) inputs
 * @returns those read unguarded, sorted
 * @throws Jinja2TemplateSyntaxError
 * @see docs/language.md#optionality-presence-markers-and-absences
 */
export function unguardedOptionalReads(template: string, optional: ReadonlySet<string>): string[] {
  if (optional.size === 0) return [];
  const walker = new GuardWalker(optional);
  walker.visit(parseExpanded(expandShorthands(template, { guardRoots: true })), new Set(), new Set());
  return [...walker.unguarded].sort();
}
