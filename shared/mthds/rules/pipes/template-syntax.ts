/**
 * S4 templates: every template parses as Jinja (after the `$` / `@` / `@?` shorthands) and uses only the filters its
 * category allows.
 * @see docs/templates.md, docs/rules.md#pipes-s4
 */
import { MESSAGES } from '../../messages.js';
import type { Rule } from '../rule.js';
import { pipeField, pipeItem, pipesOf } from '../rule-item.js';
import { readTemplate, templateSites } from './template-sites.js';

/** S4 template syntax and filters (`invalid_template`). */
export const templateSyntax: Rule = {
  id: 'S4-template-syntax',
  stage: 'S4',
  severity: 'error',
  category: 'blueprint_validation',
  error_type: 'invalid_template',
  see: 'docs/rules.md#s4-template-syntax',
  check: (context) =>
    pipesOf(context).flatMap((pipe) =>
      templateSites(pipe).flatMap((site) => {
        const read = readTemplate(site);
        if (!('error' in read)) return [];
        return [
          pipeItem(
            templateSyntax,
            pipe,
            MESSAGES.template_invalid({ pipe: pipe.code, field: site.field, reason: read.error }),
            pipeField(pipe, site.field),
          ),
        ];
      }),
    ),
};
