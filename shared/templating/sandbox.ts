/**
 * Hardening of nunjucks, which is not sandboxed (DEPENDENCIES.md: `"".constructor.constructor("return process")()`
 * escapes). Templates come from strangers' repositories, so every member and name lookup goes through a guard:
 * `constructor`, `__proto__`, `prototype`, the legacy accessor helpers and any `_`-prefixed attribute other than the
 * artefact metadata are refused with `Jinja2TemplateSecurityError`. Values print Python-style (`True`, `None`).
 *
 * Rendering is bounded too: all loops of one render share a budget of {@link MAX_LOOP_ITERATIONS} iterations, a
 * render stops after {@link MAX_RENDER_MS} (checked at every loop and printed value), and `range()` builds at most
 * {@link MAX_RANGE_LENGTH} items (nunjucks has no `while`, so loops are the only unbounded
 * construct; runaway recursion ends in a stack overflow, reported as a render error).
 *
 * The patch is applied once, at module load, to nunjucks' shared runtime object; it keeps ordinary lookups identical.
 * @see RUNTIME.md §2.2.6
 */
import nunjucks from 'nunjucks';
import { Jinja2TemplateBudgetError, Jinja2TemplateSecurityError } from '../errors/index.js';
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

/** The only `_`-prefixed attributes allowed (artefact metadata, RUNTIME.md §2.2.6). */
const ALLOWED_PRIVATE = new Set(['_stuff_name', '_stuff_code', '_concept_code', '_content_class']);

/**
 * Throw when a looked-up name is refused.
 * @param name - attribute or variable name
 * @param isAttribute - attributes also refuse `_`-prefixed names
 * @throws Jinja2TemplateSecurityError
 */
export function assertLookupAllowed(name: unknown, isAttribute: boolean): void {
  const key = String(name);
  if (BLOCKED_NAMES.has(key) || (isAttribute && key.startsWith('_') && !ALLOWED_PRIVATE.has(key))) {
    throw new Jinja2TemplateSecurityError(`Template security: access to '${key}' is not allowed.`);
  }
}

/** Loop iterations one render may perform, across all loops (nested loops multiply). */
export const MAX_LOOP_ITERATIONS = 100_000;
/** Longest list `range()` may build. */
export const MAX_RANGE_LENGTH = 10_000;

/** Longest a render may take, in ms (checked at every loop and every printed value). */
export const MAX_RENDER_MS = 2000;

/** Iterations left and deadline of the render under way (renders are synchronous, so one of each suffices). */
interface RenderBudget {
  iterationsLeft: number;
  deadline: number;
}

interface NunjucksRuntime {
  fromIterator(value: unknown): unknown;
  memberLookup(obj: unknown, val: unknown): unknown;
  contextOrFrameLookup(context: unknown, frame: unknown, name: string): unknown;
  suppressValue(val: unknown, autoescape: boolean): unknown;
  __mthdsHardened?: boolean;
  __mthdsBudget?: RenderBudget;
}

/**
 * The budget lives on nunjucks' shared runtime object, beside the patch: a process may evaluate this module twice
 * (a test runner mixing loaders does), and the patch, installed once, must meter the renders of every copy.
 */
const budget: RenderBudget = ((nunjucks.runtime as unknown as NunjucksRuntime).__mthdsBudget ??= {
  iterationsLeft: Number.POSITIVE_INFINITY,
  deadline: Number.POSITIVE_INFINITY,
});

function checkDeadline(): void {
  if (Date.now() > budget.deadline) throw new Jinja2TemplateBudgetError(`Template budget: rendering took longer than ${MAX_RENDER_MS} ms.`);
}

/**
 * Run a synchronous render under the loop budget and the time budget.
 * @param render - the render call
 * @throws Jinja2TemplateBudgetError (through nunjucks) when loops exceed {@link MAX_LOOP_ITERATIONS} or the render
 *   outlives {@link MAX_RENDER_MS}
 */
export function withLoopBudget<T>(render: () => T): T {
  budget.iterationsLeft = MAX_LOOP_ITERATIONS;
  budget.deadline = Date.now() + MAX_RENDER_MS;
  try {
    return render();
  } finally {
    budget.iterationsLeft = Number.POSITIVE_INFINITY;
    budget.deadline = Number.POSITIVE_INFINITY;
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
    throw new Jinja2TemplateBudgetError(`Template budget: range() of ${length} items is over the ${MAX_RANGE_LENGTH}-item limit.`);
  }
  return Array.from({ length }, (_, index) => from + index * step);
}

function printable(value: unknown): unknown {
  if (typeof value === 'boolean' || value === null) return pythonStr(value);
  if (Array.isArray(value) && value.toString === Array.prototype.toString) return pythonStr(value);
  if (value !== null && typeof value === 'object' && value.toString === Object.prototype.toString) return pythonStr(value);
  return value;
}

function harden(runtime: NunjucksRuntime): void {
  if (runtime.__mthdsHardened) return;
  const { memberLookup, contextOrFrameLookup, suppressValue, fromIterator } = runtime;
  runtime.fromIterator = (value) => {
    const iterable = fromIterator(value);
    const size = Array.isArray(iterable) ? iterable.length : iterable !== null && typeof iterable === 'object' ? Object.keys(iterable).length : 0;
    budget.iterationsLeft -= size;
    checkDeadline();
    if (budget.iterationsLeft < 0) throw new Jinja2TemplateBudgetError(`Template budget: loops ran over ${MAX_LOOP_ITERATIONS} iterations in one render.`);
    return iterable;
  };
  runtime.memberLookup = (obj, val) => {
    assertLookupAllowed(val, true);
    if (obj !== null && typeof obj === 'object' && !Object.prototype.hasOwnProperty.call(obj, val as PropertyKey)) {
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
    return suppressValue(printable(val), autoescape);
  };
  runtime.__mthdsHardened = true;
}

harden(nunjucks.runtime as unknown as NunjucksRuntime);

/** The hardened nunjucks module (import it from here so the guard is always installed first). */
export const hardenedNunjucks = nunjucks;
