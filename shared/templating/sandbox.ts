/**
 * Hardening of nunjucks, which is not sandboxed (DEPENDENCIES.md: `"".constructor.constructor("return process")()`
 * escapes). Templates come from strangers' repositories, so every member and name lookup goes through a guard:
 * `constructor`, `__proto__`, `prototype`, the legacy accessor helpers and any `_`-prefixed attribute other than the
 * artefact metadata are refused with `Jinja2TemplateSecurityError`. Values print Python-style (`True`, `None`).
 *
 * The patch is applied once, at module load, to nunjucks' shared runtime object; it keeps ordinary lookups identical.
 * @see RUNTIME.md §2.2.6
 */
import nunjucks from 'nunjucks';
import { Jinja2TemplateSecurityError } from '../errors/index.js';
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

interface NunjucksRuntime {
  memberLookup(obj: unknown, val: unknown): unknown;
  contextOrFrameLookup(context: unknown, frame: unknown, name: string): unknown;
  suppressValue(val: unknown, autoescape: boolean): unknown;
  __mthdsHardened?: boolean;
}

function printable(value: unknown): unknown {
  if (typeof value === 'boolean' || value === null) return pythonStr(value);
  if (Array.isArray(value) && value.toString === Array.prototype.toString) return pythonStr(value);
  if (value !== null && typeof value === 'object' && value.toString === Object.prototype.toString) return pythonStr(value);
  return value;
}

function harden(runtime: NunjucksRuntime): void {
  if (runtime.__mthdsHardened) return;
  const { memberLookup, contextOrFrameLookup, suppressValue } = runtime;
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
  runtime.suppressValue = (val, autoescape) => suppressValue(printable(val), autoescape);
  runtime.__mthdsHardened = true;
}

harden(nunjucks.runtime as unknown as NunjucksRuntime);

/** The hardened nunjucks module (import it from here so the guard is always installed first). */
export const hardenedNunjucks = nunjucks;
