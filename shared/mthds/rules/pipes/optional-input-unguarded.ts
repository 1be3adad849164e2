/**
 * S4 guard lint: every read of an optional (`?`) input in a template is guarded (`@?x`, the body of `{% if x %}` or
 * `{% if x is defined %}`, the true branch of `a if x else b`; shared/templating/optional-guards.ts has the rules), in
 * every template a pipe renders over its inputs — PipeLLM prompt and system prompt, PipeCompose template and construct
 * templates, PipeCondition expression, PipeSearch and PipeImgGen prompt — read after shorthand expansion.
 * @see docs/language.md#optionality-presence-markers-and-absences
 */
import { MthdsError } from '../../../errors/index.js';
import { unguardedOptionalReads } from '../../../templating/index.js';
import type { Pipe } from '../../library/concept.js';
import { MESSAGES } from '../../messages.js';
import type { Rule } from '../rule.js';
import { pipeField, pipeItem, pipesOf } from '../rule-item.js';
import { type TemplateSite, templateSites } from './template-sites.js';

/**
 * Template fields the lint does not cover (docs/language.md#optionality-presence-markers-and-absences lists the prompt
 * of PipeImgGen only).
 */
const UNLINTED_FIELDS: ReadonlySet<string> = new Set(['negative_prompt']);

function unguarded(site: TemplateSite, optional: ReadonlySet<string>): string[] {
  try {
    return unguardedOptionalReads(site.template, optional);
  } catch (error) {
    if (error instanceof MthdsError) return [];
    throw error;
  }
}

function labelOf(field: string): string {
  if (field.startsWith('construct.')) return `construct field '${field.slice('construct.'.length)}'`;
  if (field === 'template.template') return 'template';
  if (field === 'expression_template') return 'expression';
  return field;
}

function pipeItems(pipe: Pipe): ReturnType<Rule['check']> {
  const optional = new Set(pipe.inputs.filter((input) => input.presence === 'optional').map((input) => input.name));
  if (optional.size === 0) return [];
  return templateSites(pipe)
    .filter((site) => !UNLINTED_FIELDS.has(site.field))
    .flatMap((site) =>
      unguarded(site, optional).map((name) =>
        pipeItem(
          optionalInputUnguarded,
          pipe,
          MESSAGES.optional_input_unguarded({ pipe: pipe.code, template: labelOf(site.field), name }),
          { ...pipeField(pipe, site.field), variable_names: [name] },
        ),
      ),
    );
}

/** S4 optional inputs read unguarded (`optional_input_unguarded`). */
export const optionalInputUnguarded: Rule = {
  id: 'S4-optional-input-unguarded',
  stage: 'S4',
  severity: 'error',
  category: 'pipe_validation',
  error_type: 'optional_input_unguarded',
  see: 'docs/rules.md#s4-optional-input-unguarded',
  check: (context) => pipesOf(context).flatMap(pipeItems),
};
