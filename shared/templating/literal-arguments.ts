/**
 * Static reading of the growing builtins' literal arguments (docs/rules.md#pipes-s4; docs/isolation.md
 * "Templates"): `center(1000000000)` is over the output budget whatever the content, so validation refuses it before
 * any run. The calls are collected by the template's (cached) reading.
 */
import { maxOutputChars, type TemplateLimits } from './output-budget.js';
import { readTemplate } from './template-readings.js';

/**
 * The calls of a template whose literal size argument is over the output budget.
 * @param template - template text as written (shorthands allowed)
 * @param limits - the output budget
 * @returns the calls as written in messages, e.g. `center(1000000000)`, in template order
 * @throws Jinja2TemplateSyntaxError when the template does not parse
 */
export function oversizedLiteralCalls(template: string, limits: TemplateLimits): string[] {
  const limit = maxOutputChars(limits);
  return readTemplate(template)
    .sizedCalls.filter(({ size }) => size > limit)
    .map(({ call }) => call);
}
