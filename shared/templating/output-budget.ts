/**
 * The output budget of a render (docs/template-rendering.md#sandbox-and-budget, docs/isolation.md#templates): no render
 * may produce, print,
 * store in a variable or ask a builtin for more than `TEMPLATE_MAX_OUTPUT_KIB` KiB of text. Sizes are in characters
 * (UTF-16 code units, what `.length` counts; 1 KiB = 1024 characters), so a string is measured in O(1) even when V8
 * holds it as an unflattened concatenation.
 *
 * The measures below are lower bounds that stop as soon as they pass the limit: measuring a value built by doubling
 * (`[l, l]` nested forty times) costs at most `limit` steps, never the value's full expansion.
 */
import { Jinja2TemplateBudgetError } from '../errors/index.js';

/** The limits of one render. */
export interface TemplateLimits {
  /**
   * Largest text a render may produce, print or hold in one value, in KiB of characters (`TEMPLATE_MAX_OUTPUT_KIB`).
   */
  maxOutputKib: number;
}

/**
 * Default limits: 1024 KiB, about 256k tokens — beyond the prompt of most models. It also keeps every single
 * uninterruptible allocation of a capped builtin (e.g. `list` of a 1 Mi-character text: an 8 MiB array) under the
 * 16 MiB Node grants a worker past its heap limit to stop cleanly; far larger ones can abort the whole process
 * instead of the thread (docs/isolation.md#templates).
 */
export const DEFAULT_TEMPLATE_LIMITS: Readonly<TemplateLimits> = { maxOutputKib: 1024 };

let processLimits: TemplateLimits = { ...DEFAULT_TEMPLATE_LIMITS };

/**
 * Set the limits renders and static checks use in this process when none are passed (called once at start-up from
 * the settings).
 * @param limits - the configured limits
 */
export function configureTemplateLimits(limits: TemplateLimits): void {
  processLimits = { ...limits };
}

/** The limits configured for this process ({@link DEFAULT_TEMPLATE_LIMITS} until {@link configureTemplateLimits}). */
export function templateLimits(): TemplateLimits {
  return processLimits;
}

/**
 * Largest number of characters the limits allow.
 * @param limits - the render's limits
 */
export function maxOutputChars(limits: TemplateLimits): number {
  return limits.maxOutputKib * 1024;
}

/**
 * The error of a render over its output budget.
 * @param subject - what is over, e.g. `center(1000000000) would render 1000000000 characters`
 * @param limits - the render's limits
 * @returns a Jinja2TemplateBudgetError (422) naming the limit and its setting
 */
export function outputBudgetError(subject: string, limits: TemplateLimits): Jinja2TemplateBudgetError {
  return new Jinja2TemplateBudgetError(
    `Template budget: ${subject}, over TEMPLATE_MAX_OUTPUT_KIB (${limits.maxOutputKib} KiB).`,
  );
}

/**
 * True for lists and dicts that print Python-style (not artefacts, which render themselves).
 * @param value - any template value
 */
export function isPlainStructure(value: unknown): value is unknown[] | Record<string, unknown> {
  return isPlainList(value) || isPlainDict(value);
}

function isPlainList(value: unknown): value is unknown[] {
  return Array.isArray(value) && value.toString === Array.prototype.toString;
}

function isPlainDict(value: unknown): value is Record<string, unknown> {
  return (
    value !== null && typeof value === 'object' && !Array.isArray(value) && value.toString === Object.prototype.toString
  );
}

/**
 * A lower bound of the length of `String(value)` as `Array.prototype.join` computes it (nested arrays joined with
 * `,`, null and undefined empty), that stops counting once it passes `limit`.
 * @param value - any template value
 * @param limit - characters past which the exact figure does not matter
 */
export function joinedLength(value: unknown, limit: number): number {
  if (value === null || value === undefined) return 0;
  if (typeof value === 'string') return value.length;
  if (isPlainList(value)) {
    let total = Math.max(0, value.length - 1);
    for (const item of value) {
      if (total > limit) break;
      total += joinedLength(item, limit - total);
    }
    return total;
  }
  if (isPlainDict(value)) return '[object Object]'.length;
  return String(value).length;
}

/**
 * A lower bound of the length of the Python `str()` of a value (lists and dicts with their separators and quotes),
 * that stops counting once it passes `limit`.
 * @param value - any template value
 * @param limit - characters past which the exact figure does not matter
 */
export function printedLength(value: unknown, limit: number): number {
  if (typeof value === 'string') return value.length + 2;
  if (value === null || value === undefined) return 'None'.length;
  if (!isPlainList(value) && !isPlainDict(value)) return String(value).length;
  const entries: unknown[] = isPlainList(value) ? value : Object.entries(value).flat();
  let total = 2 + 2 * Math.max(0, entries.length - 1);
  for (const entry of entries) {
    if (total > limit) break;
    total += printedLength(entry, limit - total);
  }
  return total;
}

/**
 * Length of a string or SafeString value, in O(1); undefined for other values.
 * @param value - any template value
 */
export function textLength(value: unknown): number | undefined {
  if (typeof value === 'string') return value.length;
  if (value instanceof String) return value.length;
  if (value !== null && typeof value === 'object' && typeof (value as { val?: unknown }).val === 'string')
    return (value as { val: string }).val.length;
  return undefined;
}
