/**
 * S4: the templates of PipeCompose (template, construct templates and the roots of construct `from` paths), PipeImgGen
 * and PipeSearch prompts, and PipeCondition expressions use only declared inputs (or, for a PipeCompose template table,
 * `extra_context` keys); `_*`, `preliminary_text` and `place_holder` are exempt.
 * @see docs/pipes.md#pipeimggen, docs/pipes.md#pipesearch, docs/pipes.md#pipecompose, docs/pipes.md#pipecondition,
 * docs/rules.md#pipes-s4
 */
import type { ValidationErrorItem } from '../../../errors/index.js';
import type { Pipe } from '../../library/concept.js';
import { MESSAGES } from '../../messages.js';
import type { Rule } from '../rule.js';
import { declaredRoots, pipeField, pipeItem, pipesOf } from '../rule-item.js';
import { isExemptVariable, readTemplate, templateSites } from './template-sites.js';

function fromRoots(value: unknown, path: string, roots: [string, string][]): void {
  if (value === null || typeof value !== 'object' || Array.isArray(value)) return;
  const table = value as Record<string, unknown>;
  if (typeof table['from'] === 'string') roots.push([`${path}.from`, table['from'].split('.')[0] ?? table['from']]);
  else if (!('template' in table))
    for (const [key, nested] of Object.entries(table)) fromRoots(nested, `${path}.${key}`, roots);
}

function extraContextKeys(pipe: Pipe): string[] {
  const blueprint = pipe.blueprint;
  if (blueprint.type !== 'PipeCompose' || typeof blueprint.template !== 'object') return [];
  return Object.keys(blueprint.template.extra_context ?? {});
}

/** S4 undeclared template variables outside PipeLLM (`missing_input_variable`). */
export const templateVariables: Rule = {
  id: 'S4-template-variables',
  stage: 'S4',
  severity: 'error',
  category: 'blueprint_validation',
  error_type: 'missing_input_variable',
  see: 'docs/rules.md#s4-template-variables',
  check: (context) =>
    pipesOf(context).flatMap((pipe) => {
      if (pipe.blueprint.type === 'PipeLLM') return [];
      const declared = declaredRoots(pipe);
      const known = new Set([...declared, ...extraContextKeys(pipe)]);
      const used: [string, string][] = [];
      for (const site of templateSites(pipe)) {
        const read = readTemplate(site);
        if (!('error' in read)) for (const root of read.roots) used.push([site.field, root]);
      }
      if (pipe.blueprint.type === 'PipeCompose')
        for (const [key, value] of Object.entries(pipe.blueprint.construct ?? {}))
          fromRoots(value, `construct.${key}`, used);
      const byField = new Map<string, string[]>();
      for (const [field, root] of used) {
        if (known.has(root) || isExemptVariable(root)) continue;
        const names = byField.get(field) ?? [];
        if (!names.includes(root)) names.push(root);
        byField.set(field, names);
      }
      return [...byField].map(([field, names]): ValidationErrorItem => {
        const sorted = [...names].sort();
        const message = MESSAGES.template_undeclared_variables({ pipe: pipe.code, field, names: sorted, declared });
        return pipeItem(templateVariables, pipe, message, { ...pipeField(pipe, field), variable_names: sorted });
      });
    }),
};
