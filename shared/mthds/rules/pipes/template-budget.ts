/**
 * S4 template budget: no template asks a growing builtin (`center`, `indent`, `batch`, `slice`) for a literal size
 * over the output budget, `TEMPLATE_MAX_OUTPUT_KIB` (such a render could only fail, after a run already started).
 * @see docs/rules.md#pipes-s4, docs/isolation.md#templates
 */
import { MthdsError } from '../../../errors/index.js';
import { oversizedLiteralCalls, templateLimits } from '../../../templating/index.js';
import { MESSAGES } from '../../messages.js';
import type { Rule } from '../rule.js';
import { pipeField, pipeItem, pipesOf } from '../rule-item.js';
import { type TemplateSite, templateSites } from './template-sites.js';

function calls(site: TemplateSite): string[] {
  try {
    return oversizedLiteralCalls(site.template, templateLimits());
  } catch (error) {
    if (error instanceof MthdsError) return [];
    throw error;
  }
}

/** S4 literal arguments within the output budget (`invalid_template`). */
export const templateBudget: Rule = {
  id: 'S4-template-budget',
  stage: 'S4',
  severity: 'error',
  category: 'blueprint_validation',
  error_type: 'invalid_template',
  see: 'docs/rules.md#s4-template-budget',
  check: (context) =>
    pipesOf(context).flatMap((pipe) =>
      templateSites(pipe).flatMap((site) =>
        calls(site).map((call) =>
          pipeItem(
            templateBudget,
            pipe,
            MESSAGES.template_over_budget({
              pipe: pipe.code,
              field: site.field,
              call,
              kib: templateLimits().maxOutputKib,
            }),
            pipeField(pipe, site.field),
          ),
        ),
      ),
    ),
};
