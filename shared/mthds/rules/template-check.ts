/**
 * Shared helper of the template rules: read a template's variables and check its syntax and filters, turning a
 * template error into a validation item.
 */
import { MthdsError, type ValidationErrorItem } from '../../errors/index.js';
import { checkTemplate, templateVariables, type TemplateCategory } from '../../templating/index.js';
import type { Pipe } from '../concept.js';
import { aboutPipe } from './rule.js';

/** Variables that never need declaring (LANGUAGE.md §3.2). */
export const EXEMPT_VARIABLES: ReadonlySet<string> = new Set(['preliminary_text', 'place_holder']);

/**
 * True when a variable root needs no declaration: `_`-prefixed run parameters and the exempt names.
 * @param root - a variable root
 */
export function isExemptVariable(root: string): boolean {
  return root.startsWith('_') || EXEMPT_VARIABLES.has(root);
}

/**
 * Check a template and read its variable roots.
 * @param pipe - the pipe the template belongs to
 * @param field - where it sits (`prompt`, `template`, …)
 * @param template - its text
 * @param category - its template category
 * @returns the roots, or the item describing why the template is invalid
 */
export function readTemplateRoots(pipe: Pipe, field: string, template: string, category: TemplateCategory): { roots: string[] } | { item: ValidationErrorItem } {
  try {
    checkTemplate(template, category);
    return { roots: templateVariables(template).roots };
  } catch (error) {
    if (!(error instanceof MthdsError)) throw error;
    return {
      item: {
        category: 'blueprint_validation',
        message: `Pipe '${pipe.code}', ${field}: ${error.message}`,
        error_type: 'invalid_template',
        ...aboutPipe(pipe),
        field_path: `pipe.${pipe.code}.${field}`,
        field_name: field,
      },
    };
  }
}

/**
 * The roots of a pipe's declared input names (`page.view` → `page`).
 * @param pipe - any pipe
 */
export function declaredRoots(pipe: Pipe): Set<string> {
  return new Set(pipe.inputs.map((input) => input.name.split('.')[0]!));
}
