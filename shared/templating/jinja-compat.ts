/**
 * What Jinja2 gives templates that nunjucks lacks: the named tests nunjucks has no entry for (`x is true`,
 * `x is integer`, `x is in(list)`, …) and the `dict(a=1)` global. The reference renders with Jinja2, so a template
 * that works there works here; a test Jinja2 does not know is refused when the template is checked.
 * @see docs/language.md#optionality-presence-markers-and-absences
 */

import { isRenderable } from './renderable.js';
import type { hardenedNunjucks } from './sandbox.js';

/** The environment members used here (nunjucks' typings omit `addTest` and `filters`). */
type Environment = InstanceType<typeof hardenedNunjucks.Environment>;
type Tests = Record<string, (value: unknown, argument?: unknown) => boolean>;
interface TestableEnvironment {
  readonly filters: Record<string, unknown>;
  addTest(name: string, test: Tests[string]): void;
}

/**
 * Jinja2's named tests (3.1), spelled as written after `is` (`none`, not nunjucks' `null`). The symbolic aliases
 * (`==`, `<`, …) are not listed: nunjucks cannot parse them after `is`.
 */
export const JINJA_TESTS: ReadonlySet<string> = new Set([
  'boolean',
  'callable',
  'defined',
  'divisibleby',
  'eq',
  'equalto',
  'escaped',
  'even',
  'false',
  'filter',
  'float',
  'ge',
  'greaterthan',
  'gt',
  'in',
  'integer',
  'iterable',
  'le',
  'lessthan',
  'lower',
  'lt',
  'mapping',
  'ne',
  'none',
  'number',
  'odd',
  'sameas',
  'sequence',
  'string',
  'test',
  'true',
  'undefined',
  'upper',
]);

/** Python's `value in container` for the values a template holds. */
function contains(value: unknown, container: unknown): boolean {
  if (typeof container === 'string') return typeof value === 'string' && container.includes(value);
  if (Array.isArray(container)) return container.includes(value);
  if (container !== null && typeof container === 'object') return Object.hasOwn(container, String(value));
  return false;
}

/**
 * Python's `dict(a=1, b=2)`: nunjucks passes keyword arguments as a last object marked `__keywords`.
 * @param args - the call's arguments
 * @returns a plain object of the keyword arguments
 */
function dictGlobal(...args: unknown[]): Record<string, unknown> {
  const last = args[args.length - 1];
  if (last === null || typeof last !== 'object' || !('__keywords' in last)) return {};
  const { __keywords: _marker, ...entries } = last as Record<string, unknown>;
  return entries;
}

/**
 * Add Jinja2's missing tests and the `dict` global to an environment. Numbers are JavaScript numbers: `integer` holds
 * for a whole number, `float` for any other (a whole-valued float such as `1.0` reads as an integer).
 * @param environment - a fresh rendering environment
 */
export function installJinjaCompat(environment: Environment): void {
  const testable = environment as unknown as TestableEnvironment;
  const tests: Tests = {
    none: (value) => value === null,
    true: (value) => value === true,
    false: (value) => value === false,
    boolean: (value) => typeof value === 'boolean',
    integer: (value) => typeof value === 'number' && Number.isInteger(value),
    float: (value) => typeof value === 'number' && !Number.isInteger(value),
    sequence: (value) =>
      typeof value === 'string' || (value !== null && typeof value === 'object' && !isRenderable(value)),
    in: (value, container) => contains(value, container),
    filter: (name) => typeof name === 'string' && Object.hasOwn(testable.filters, name),
    test: (name) => typeof name === 'string' && JINJA_TESTS.has(name),
  };
  for (const [name, test] of Object.entries(tests)) testable.addTest(name, test);
  environment.addGlobal('dict', dictGlobal);
}
