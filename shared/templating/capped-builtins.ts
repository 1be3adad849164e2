/**
 * The nunjucks builtins that can grow output, bounded by the render's output budget (docs/isolation.md#templates).
 * Each check runs before the builtin, from O(1) lengths and caller numbers, so a refused call allocates nothing:
 *
 * - `center(w)`, `indent(w)`: the width times the lines it pads;
 * - `replace(old, new, count)`: the occurrences counted first, then the exact size of the result;
 * - `join(d)`: the lengths of the items plus the separators;
 * - `batch(n)`, `slice(n)`: `n` itself (both loop `n` times, `batch` filling lines of `n` items);
 * - every other builtin that turns text into text (`title`, `capitalize`, `upper`, `escape`, `urlize`, `list`,
 *   `dump`, …): the input's length before, the result's after.
 *
 * `range()` is capped separately (sandbox.ts); `~` / `+` concatenation is checked where its result is stored or
 * printed.
 */

import { joinedLength, maxOutputChars, outputBudgetError, printedLength, textLength } from './output-budget.js';
import { currentLimits, type hardenedNunjucks } from './sandbox.js';

type Builtin = (this: unknown, ...args: unknown[]) => unknown;
type Environment = InstanceType<typeof hardenedNunjucks.Environment>;

/** Builtins whose result is at least as long as their text input: the input is checked before, the result after. */
const GROWING_TEXT_BUILTINS = new Set([
  'capitalize',
  'title',
  'upper',
  'lower',
  'escape',
  'e',
  'forceescape',
  'safe',
  'nl2br',
  'urlencode',
  'urlize',
  'list',
  'reverse',
  'string',
]);
/** Builtins that return text no longer than their input (or sum values): only the result is checked. */
const OTHER_TEXT_BUILTINS = ['striptags', 'trim', 'truncate', 'sum'];

function refuse(subject: string): never {
  throw outputBudgetError(subject, currentLimits());
}

function cap(): number {
  return maxOutputChars(currentLimits());
}

/** JavaScript's own reading of a numeric argument (what the builtins' loops and `repeat` compare against). */
function count(value: unknown): number {
  const number = Number(value);
  return Number.isNaN(number) ? 0 : number;
}

function checkResult(name: string, result: unknown): unknown {
  const length = textLength(result);
  if (length !== undefined && length > cap()) refuse(`${name}() would render ${length} characters`);
  return result;
}

function occurrences(text: string, old: string, most: number, stopAbove: number, extra: number): number {
  let found = 0;
  for (let at = text.indexOf(old); at >= 0 && found < most; at = text.indexOf(old, at + old.length)) {
    found += 1;
    if (found * extra > stopAbove) break;
  }
  return found;
}

function regexMatches(text: string, pattern: RegExp, stopAbove: number): number {
  const global = pattern.flags.includes('g');
  const scanner = new RegExp(pattern.source, global ? pattern.flags : `${pattern.flags}g`);
  let found = 0;
  for (let match = scanner.exec(text); match !== null; match = scanner.exec(text)) {
    found += 1;
    if (!global || found > stopAbove) break;
    if (match[0] === '') scanner.lastIndex += 1;
  }
  return found;
}

function replacedSize(text: string, old: unknown, replacement: string, maxCount: unknown): number {
  const limit = cap();
  if (old instanceof RegExp) {
    const matches = regexMatches(text, old, limit);
    const wholeMatchRefs = (replacement.match(/\$(&|\d)/g) ?? []).length;
    const affixRefs = (replacement.match(/\$[`']/g) ?? []).length;
    return (
      text.length + matches * replacement.length + wholeMatchRefs * text.length + affixRefs * matches * text.length
    );
  }
  const needle = typeof old === 'number' ? String(old) : old;
  if (typeof needle !== 'string') return text.length;
  if (needle === '') return text.length + (text.length + 1) * replacement.length;
  const most = maxCount === undefined || count(maxCount) < 0 ? Number.POSITIVE_INFINITY : count(maxCount);
  const growth = replacement.length - needle.length;
  return text.length + occurrences(text, needle, most, limit, Math.max(1, growth)) * growth;
}

function textOf(value: unknown): string | undefined {
  if (typeof value === 'string') return value;
  if (typeof value === 'number') return String(value);
  return value instanceof String ? value.toString() : undefined;
}

function lineCount(text: string): number {
  let lines = 1;
  for (let at = text.indexOf('\n'); at >= 0; at = text.indexOf('\n', at + 1)) lines += 1;
  return lines;
}

/** The checks run before each growing builtin, by name; each refuses with the builtin call it would make. */
const PRECHECKS: Record<string, (input: unknown, ...args: unknown[]) => void> = {
  center: (input, width) => {
    const size = Math.max(textLength(input) ?? 0, count(width || 80));
    if (size > cap()) refuse(`center(${String(width)}) would render ${size} characters`);
  },
  indent: (input, width, indentFirst) => {
    const text = textOf(input) ?? '';
    const pad = count(width || 4);
    if (text === '' || pad <= 0) return;
    if (pad > cap()) refuse(`indent(${String(width)}) would render at least ${pad} characters`);
    const size = text.length + (lineCount(text) - (indentFirst ? 0 : 1)) * pad;
    if (size > cap()) refuse(`indent(${String(width)}) would render ${size} characters`);
  },
  replace: (input, old, replacement, maxCount) => {
    const text = textOf(input);
    const inserted = textOf(replacement) ?? String(replacement);
    if (text === undefined) return;
    const size = replacedSize(text, old, inserted, maxCount);
    if (size > cap()) refuse(`replace() would render at least ${size} characters`);
  },
  join: (input, delimiter, attribute) => {
    if (!Array.isArray(input) || attribute) return;
    const separator = textLength(delimiter) ?? 0;
    const size = Math.max(0, input.length - 1) * separator + joinedLength(input, cap());
    if (size > cap()) refuse(`join() would render at least ${size} characters`);
  },
  batch: (_input, lineItems) => {
    if (count(lineItems) > cap()) refuse(`batch(${String(lineItems)}) would build lines of ${count(lineItems)} items`);
  },
  slice: (_input, slices) => {
    if (count(slices) > cap()) refuse(`slice(${String(slices)}) would build ${count(slices)} slices`);
  },
  dump: (input) => {
    const size = printedLength(input, cap());
    if (size > cap()) refuse(`dump() would render more than ${cap()} characters`);
  },
};

function precheckText(name: string, input: unknown): void {
  if (!GROWING_TEXT_BUILTINS.has(name)) return;
  const length = textLength(input);
  if (length !== undefined && length > cap()) refuse(`${name}() of a text of ${length} characters`);
}

/**
 * Replace the growing builtins of an environment by their capped versions (install before any wrapper that turns
 * artefacts into text, so the checks see the text).
 * @param environment - a nunjucks environment holding the builtin filters
 * @throws (from the installed filters) Jinja2TemplateBudgetError naming `TEMPLATE_MAX_OUTPUT_KIB`
 */
export function installCappedBuiltins(environment: Environment): void {
  for (const name of [...Object.keys(PRECHECKS), ...GROWING_TEXT_BUILTINS, ...OTHER_TEXT_BUILTINS]) {
    const builtin = environment.getFilter(name) as Builtin;
    const precheck = PRECHECKS[name];
    environment.addFilter(name, function capped(this: unknown, input: unknown, ...args: unknown[]) {
      if (precheck) precheck(input, ...args);
      else precheckText(name, input);
      return checkResult(name, builtin.call(this, input, ...args));
    });
  }
}
