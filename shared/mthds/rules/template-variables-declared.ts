/**
 * S4: the templates of PipeCompose (template, construct templates and `from` roots), PipeImgGen and PipeSearch
 * prompts, and PipeCondition expressions only use declared inputs (or `extra_context` keys), and parse with the
 * filters of their category (LANGUAGE.md §3.4–3.7, §3.10, §6 S4 "Templates").
 */
import type { ValidationErrorItem } from '../../errors/index.js';
import type { TemplateCategory } from '../../templating/index.js';
import type { Pipe } from '../concept.js';
import { declaredRoots, isExemptVariable, readTemplateRoots } from './template-check.js';
import { aboutPipe, pipesOf, type Rule } from './rule.js';

interface TemplateSite {
  field: string;
  template: string;
  category: TemplateCategory;
}

function constructSites(value: unknown, path: string, sites: TemplateSite[], fromRoots: [string, string][]): void {
  if (value === null || typeof value !== 'object' || Array.isArray(value)) return;
  const field = value as Record<string, unknown>;
  if (typeof field['from'] === 'string') fromRoots.push([path, field['from'].split('.')[0]!]);
  else if (typeof field['template'] === 'string') sites.push({ field: path, template: field['template'], category: 'basic' });
  else for (const [key, nested] of Object.entries(field)) constructSites(nested, `${path}.${key}`, sites, fromRoots);
}

function sitesOf(pipe: Pipe, fromRoots: [string, string][]): { sites: TemplateSite[]; extra: string[] } {
  const blueprint = pipe.blueprint;
  switch (blueprint.type) {
    case 'PipeCompose': {
      const sites: TemplateSite[] = [];
      const spec = blueprint.template;
      if (typeof spec === 'string') sites.push({ field: 'template', template: spec, category: 'basic' });
      else if (spec) sites.push({ field: 'template.template', template: spec.template, category: spec.category });
      for (const [key, value] of Object.entries(blueprint.construct ?? {})) constructSites(value, `construct.${key}`, sites, fromRoots);
      return { sites, extra: typeof spec === 'object' ? Object.keys(spec.extra_context ?? {}) : [] };
    }
    case 'PipeImgGen': {
      const sites: TemplateSite[] = [{ field: 'prompt', template: blueprint.prompt, category: 'img_gen_prompt' }];
      if (blueprint.negative_prompt) sites.push({ field: 'negative_prompt', template: blueprint.negative_prompt, category: 'img_gen_prompt' });
      return { sites, extra: [] };
    }
    case 'PipeSearch':
      return { sites: [{ field: 'prompt', template: blueprint.prompt, category: 'llm_prompt' }], extra: [] };
    case 'PipeCondition': {
      const expression = blueprint.expression_template ?? (blueprint.expression === undefined ? undefined : `{{ ${blueprint.expression} }}`);
      const field = blueprint.expression_template === undefined ? 'expression' : 'expression_template';
      return { sites: expression === undefined ? [] : [{ field, template: expression, category: 'expression' }], extra: [] };
    }
    default:
      return { sites: [], extra: [] };
  }
}

export const templateVariablesDeclared: Rule = {
  id: 'S4-template-variables-declared',
  stage: 'S4',
  severity: 'error',
  see: 'LANGUAGE.md §3.4–3.7, §3.10',
  check: (context) => {
    const items: ValidationErrorItem[] = [];
    for (const pipe of pipesOf(context)) {
      const fromRoots: [string, string][] = [];
      const { sites, extra } = sitesOf(pipe, fromRoots);
      const declared = new Set([...declaredRoots(pipe), ...extra]);
      const missing = new Map<string, Set<string>>();
      const note = (field: string, root: string) => {
        if (declared.has(root) || isExemptVariable(root)) return;
        if (!missing.has(field)) missing.set(field, new Set());
        missing.get(field)!.add(root);
      };
      for (const site of sites) {
        const read = readTemplateRoots(pipe, site.field, site.template, site.category);
        if ('item' in read) items.push(read.item);
        else read.roots.forEach((root) => note(site.field, root));
      }
      for (const [field, root] of fromRoots) note(field, root);
      for (const [field, names] of missing) {
        const sorted = [...names].sort();
        items.push({
          category: 'blueprint_validation',
          message: `Pipe '${pipe.code}', ${field}: uses ${sorted.map((name) => `'${name}'`).join(', ')}, not declared in inputs (declared: ${[...declared].join(', ') || 'none'}).`,
          error_type: 'missing_input_variable',
          ...aboutPipe(pipe),
          field_path: `pipe.${pipe.code}.${field}`,
          variable_names: sorted,
        });
      }
    }
    return items;
  },
};
