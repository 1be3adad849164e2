/**
 * Hardening of nunjucks, which is not sandboxed (a template can reach `"".constructor.constructor("return process")()`
 * otherwise; docs/template-rendering.md#sandbox-and-budget). Templates come from strangers' repositories, so every
 * member and name lookup goes through a guard:
 * `constructor`, `__proto__`, `prototype`, the legacy accessor helpers and any `_`-prefixed attribute other than the
 * artefact metadata are refused with `Jinja2TemplateSecurityError`. Values print Python-style (`True`, `None`).
 *
 * Rendering is bounded too: all loops of one render share a budget of {@link MAX_LOOP_ITERATIONS} iterations, a
 * render stops after {@link MAX_RENDER_MS} (checked at every loop and printed value), `range()` builds at most
 * {@link MAX_RANGE_LENGTH} items (nunjucks has no `while`, so loops are the only unbounded
 * construct; runaway recursion ends in a stack overflow, reported as a render error), and no printed value nor
 * `{% set %}` variable may be longer than the output budget (output-budget.ts; measured before anything flattens it).
 * These checks cooperate with the template; the hard bounds are the render threads' (docs/isolation.md#templates).
 *
 * The patch is applied once, at module load, to nunjucks' shared runtime object; it keeps ordinary lookups identical.
 * @see docs/template-rendering.md#sandbox-and-budget
 */
import nunjucks from 'nunjucks';
import {
  Jinja2TemplateBudgetError,
  Jinja2TemplateSecurityError,
  Jinja2TemplateUndefinedError,
} from '../errors/index.js';
import { HTML_RENDERING, hasHtmlRendering } from './markdown.js';
import {
  DEFAULT_TEMPLATE_LIMITS,
  isPlainStructure,
  maxOutputChars,
  outputBudgetError,
  printedLength,
  type TemplateLimits,
  textLength,
} from './output-budget.js';
import { pythonStr } from './python-str.js';

/** Names no template may look up. */
const BLOCKED_NAMES = new Set([
  'constructor',
  'prototype',
  '__proto__',
  '__defineGetter__',
  '__defineSetter__',
  '__lookupGetter__',
  '__lookupSetter__',
  'call',
  'apply',
  'bind',
]);

/** The only `_`-prefixed attributes allowed (artefact metadata, docs/template-rendering.md#sandbox-and-budget). */
export const ALLOWED_PRIVATE: ReadonlySet<string> = new Set([
  '_stuff_name',
  '_stuff_code',
  '_concept_code',
  '_content_class',
]);

/**
 * Throw when a looked-up name is refused.
 * @param name - attribute or variable name
 * @param isAttribute - attributes also refuse `_`-prefixed names
 * @throws Jinja2TemplateSecurityError
 */
function assertLookupAllowed(name: unknown, isAttribute: boolean): void {
  const key = String(name);
  if (BLOCKED_NAMES.has(key) || (isAttribute && key.startsWith('_') && !ALLOWED_PRIVATE.has(key))) {
    throw new Jinja2TemplateSecurityError(`Template security: access to '${key}' is not allowed.`);
  }
}

/** Loop iterations one render may perform, across all loops (nested loops multiply). */
const MAX_LOOP_ITERATIONS = 100_000;
/** Longest list `range()` may build. */
const MAX_RANGE_LENGTH = 10_000;

/** Longest a render may take, in ms (checked at every loop and every printed value). */
const MAX_RENDER_MS = 2000;

/** Iterations left, deadline and limits of the render under way (renders are synchronous, so one of each suffices). */
interface RenderBudget {
  iterationsLeft: number;
  deadline: number;
  limits: TemplateLimits;
}

interface NunjucksRuntime {
  fromIterator(value: unknown): unknown;
  memberLookup(obj: unknown, val: unknown): unknown;
  contextOrFrameLookup(context: unknown, frame: unknown, name: string): unknown;
  suppressValue(val: unknown, autoescape: boolean): unknown;
  ensureDefined(val: unknown, lineno: number, colno: number): unknown;
  SafeString: new (value: string) => unknown;
  Frame: { prototype: { set(name: string, val: unknown, resolveUp?: boolean): void } };
  __mthdsHardened?: boolean;
  __mthdsBudget?: RenderBudget;
}

/**
 * The budget lives on nunjucks' shared runtime object, beside the patch: a process may evaluate this module twice
 * (a test runner mixing loaders does), and the patch, installed once, must meter the renders of every copy.
 */
const sharedRuntime = nunjucks.runtime as unknown as NunjucksRuntime;
sharedRuntime.__mthdsBudget ??= {
  iterationsLeft: Number.POSITIVE_INFINITY,
  deadline: Number.POSITIVE_INFINITY,
  limits: DEFAULT_TEMPLATE_LIMITS,
};
const budget: RenderBudget = sharedRuntime.__mthdsBudget;

/** The limits of the render under way (the defaults outside a render). */
export function currentLimits(): TemplateLimits {
  return budget.limits;
}

function checkDeadline(): void {
  if (Date.now() > budget.deadline)
    throw new Jinja2TemplateBudgetError(`Template budget: rendering took longer than ${MAX_RENDER_MS} ms.`);
}

/**
 * Run a synchronous render under the loop, time and output budgets.
 * @param render - the render call
 * @param limits - the output budget of this render
 * @throws Jinja2TemplateBudgetError (through nunjucks) when loops exceed {@link MAX_LOOP_ITERATIONS}, the render
 *   outlives {@link MAX_RENDER_MS}, or a value outgrows `limits`
 */
export function withLoopBudget<T>(render: () => T, limits: TemplateLimits = DEFAULT_TEMPLATE_LIMITS): T {
  budget.iterationsLeft = MAX_LOOP_ITERATIONS;
  budget.deadline = Date.now() + MAX_RENDER_MS;
  budget.limits = limits;
  try {
    return render();
  } finally {
    budget.iterationsLeft = Number.POSITIVE_INFINITY;
    budget.deadline = Number.POSITIVE_INFINITY;
    budget.limits = DEFAULT_TEMPLATE_LIMITS;
  }
}

/**
 * Refuse a value longer than the output budget: strings in O(1) (before anything flattens them), and when
 * `structures` is set, plain lists and dicts by a count that stops at the limit.
 * @param value - a value about to be printed or stored
 * @param what - how the message names it, e.g. `a printed value`
 * @param structures - also measure lists and dicts (printing does; storing a loop variable does not need to)
 * @throws Jinja2TemplateBudgetError naming `TEMPLATE_MAX_OUTPUT_KIB`
 */
function checkValueSize(value: unknown, what: string, structures: boolean): void {
  const limit = maxOutputChars(budget.limits);
  const text = textLength(value);
  if (text !== undefined && text > limit) throw outputBudgetError(`${what} of ${text} characters`, budget.limits);
  if (text === undefined && structures && isPlainStructure(value) && printedLength(value, limit) > limit) {
    throw outputBudgetError(`${what} of more than ${limit} characters`, budget.limits);
  }
}

/**
 * `range()` for templates, refusing lists longer than {@link MAX_RANGE_LENGTH}.
 * @throws Jinja2TemplateBudgetError
 */
export function cappedRange(start: number, stop?: number, step = 1): number[] {
  const [from, to] = stop === undefined ? [0, start] : [start, stop];
  const length = step === 0 ? Number.POSITIVE_INFINITY : Math.max(0, Math.ceil((to - from) / step));
  if (!Number.isFinite(length) || length > MAX_RANGE_LENGTH) {
    throw new Jinja2TemplateBudgetError(
      `Template budget: range() of ${length} items is over the ${MAX_RANGE_LENGTH}-item limit.`,
    );
  }
  return Array.from({ length }, (_, index) => from + index * step);
}

function printable(value: unknown): unknown {
  if (typeof value === 'boolean' || value === null) return pythonStr(value);
  if (Array.isArray(value) && value.toString === Array.prototype.toString) return pythonStr(value);
  if (value !== null && typeof value === 'object' && value.toString === Object.prototype.toString)
    return pythonStr(value);
  return value;
}

function harden(runtime: NunjucksRuntime): void {
  if (runtime.__mthdsHardened) return;
  const { memberLookup, contextOrFrameLookup, suppressValue, fromIterator } = runtime;
  const frameSet = runtime.Frame.prototype.set;
  runtime.Frame.prototype.set = function set(name, val, resolveUp) {
    checkValueSize(val, `{% set ${name} %} of a value`, false);
    frameSet.call(this, name, val, resolveUp);
  };
  runtime.fromIterator = (value) => {
    const iterable = fromIterator(value);
    const size = Array.isArray(iterable)
      ? iterable.length
      : iterable !== null && typeof iterable === 'object'
        ? Object.keys(iterable).length
        : 0;
    budget.iterationsLeft -= size;
    checkDeadline();
    if (budget.iterationsLeft < 0)
      throw new Jinja2TemplateBudgetError(
        `Template budget: loops ran over ${MAX_LOOP_ITERATIONS} iterations in one render.`,
      );
    return iterable;
  };
  runtime.memberLookup = (obj, val) => {
    assertLookupAllowed(val, true);
    if (obj !== null && typeof obj === 'object' && !Object.hasOwn(obj, val as PropertyKey)) {
      const own = Array.isArray(obj) && (val === 'length' || typeof val === 'number' || /^\d+$/.test(String(val)));
      if (!own && typeof (obj as Record<string, unknown>)[String(val)] === 'function') return undefined;
    }
    return memberLookup(obj, val);
  };
  runtime.contextOrFrameLookup = (context, frame, name) => {
    assertLookupAllowed(name, false);
    return contextOrFrameLookup(context, frame, name);
  };
  runtime.suppressValue = (val, autoescape) => {
    checkDeadline();
    checkValueSize(val, 'a printed value', true);
    if (autoescape && hasHtmlRendering(val)) return new runtime.SafeString(val[HTML_RENDERING]());
    return suppressValue(printable(val), autoescape);
  };
  runtime.ensureDefined = (val, lineno) => {
    if (val === undefined)
      throw new Jinja2TemplateUndefinedError(
        `Template render error: line ${lineno + 1} prints a value that is undefined (a missing input, field or key).`,
      );
    return val;
  };
  runtime.__mthdsHardened = true;
}

/**
 * nunjucks pads `center` and `indent` with a one-character-at-a-time loop (about 0.7 µs a character); the native
 * `String.prototype.repeat` gives the same padding (the loop runs `ceil(n)` times) in one allocation.
 */
function fastRepeat(lib: { repeat(char: string, n: unknown): string; __mthdsRepeat?: boolean }): void {
  if (lib.__mthdsRepeat) return;
  lib.repeat = (char, n) => {
    const times = Math.ceil(Number(n));
    return Number.isFinite(times) && times > 0 ? String(char).repeat(times) : '';
  };
  lib.__mthdsRepeat = true;
}

harden(nunjucks.runtime as unknown as NunjucksRuntime);
fastRepeat(nunjucks.lib as unknown as { repeat(char: string, n: unknown): string });

/** The hardened nunjucks module (import it from here so the guard is always installed first). */
export const hardenedNunjucks = nunjucks;
