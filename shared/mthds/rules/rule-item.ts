/**
 * Builders of the items a rule emits: the category and `error_type` come from the rule's definition, the locators
 * (`source`, `pipe_code`, `concept_code`, `domain_code`) from what the item is about (spec §2.6: absent members are
 * omitted, never null).
 *
 * @see spec §2.6
 */
import type { ValidationErrorItem } from '../../errors/index.js';
import type { Pipe } from '../library/concept.js';
import type { LoadedBundle } from '../library/library.js';
import type { Rule, RuleContext } from './rule.js';

/** The members an item may add to the rule's and the subject's. */
export type ItemDetails = Pick<
  ValidationErrorItem,
  | 'field_path'
  | 'field_name'
  | 'variable_names'
  | 'missing_concept_code'
  | 'missing_pipe_code'
  | 'declared_concepts'
  | 'model_reference'
  | 'model_type'
  | 'suggestions'
  | 'suggested_fix'
>;

function base(rule: Rule, message: string): ValidationErrorItem {
  const item: ValidationErrorItem = { category: rule.category, message };
  if (rule.error_type !== undefined) item.error_type = rule.error_type;
  return item;
}

/**
 * An item about a pipe.
 * @param rule - the emitting rule
 * @param pipe - the pipe
 * @param message - from {@link MESSAGES}
 * @param details - field and context members
 */
export function pipeItem(rule: Rule, pipe: Pipe, message: string, details: ItemDetails = {}): ValidationErrorItem {
  return {
    ...base(rule, message),
    source: pipe.source,
    pipe_code: pipe.code,
    domain_code: pipe.domain_code,
    ...details,
  };
}

/**
 * An item about a concept declared in a bundle.
 * @param rule - the emitting rule
 * @param bundle - the declaring bundle
 * @param code - the concept code as written
 * @param message - from {@link MESSAGES}
 * @param details - field and context members
 */
export function conceptItem(
  rule: Rule,
  bundle: LoadedBundle,
  code: string,
  message: string,
  details: ItemDetails = {},
): ValidationErrorItem {
  return {
    ...base(rule, message),
    source: bundle.source,
    concept_code: code,
    domain_code: bundle.blueprint.domain,
    ...details,
  };
}

/**
 * An item about a bundle's header.
 * @param rule - the emitting rule
 * @param bundle - the bundle
 * @param message - from {@link MESSAGES}
 * @param details - field and context members
 */
export function bundleItem(
  rule: Rule,
  bundle: LoadedBundle,
  message: string,
  details: ItemDetails = {},
): ValidationErrorItem {
  return { ...base(rule, message), source: bundle.source, domain_code: bundle.blueprint.domain, ...details };
}

/**
 * Where a field of a pipe sits, as `field_path` and `field_name` (the last named segment).
 * @param pipe - the pipe
 * @param field - the path inside the pipe table, e.g. `steps[1].pipe`
 */
export function pipeField(pipe: Pipe, field: string): Pick<ValidationErrorItem, 'field_path' | 'field_name'> {
  const names = field.split('.').map((segment) => segment.replace(/\[\d+\]$/, ''));
  return { field_path: `pipe.${pipe.code}.${field}`, field_name: names[names.length - 1] ?? field };
}

/**
 * The pipes of the library, in declaration order.
 * @param context - the rule context
 */
export function pipesOf(context: RuleContext): Pipe[] {
  return [...context.library.pipes.values()];
}

/**
 * The pipes of the library of one blueprint type, narrowed.
 * @param context - the rule context
 * @param type - the pipe type
 */
export function pipesOfType<T extends Pipe['blueprint']['type']>(
  context: RuleContext,
  type: T,
): (Pipe & { blueprint: Extract<Pipe['blueprint'], { type: T }> })[] {
  return pipesOf(context).filter(
    (pipe): pipe is Pipe & { blueprint: Extract<Pipe['blueprint'], { type: T }> } => pipe.blueprint.type === type,
  );
}

/**
 * The roots of a pipe's declared input names (`page.page_view` → `page`).
 * @param pipe - any pipe
 */
export function declaredRoots(pipe: Pipe): string[] {
  return [...new Set(pipe.inputs.map((input) => input.name.split('.')[0] ?? input.name))];
}
