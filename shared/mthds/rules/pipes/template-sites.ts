/**
 * Where a pipe holds templates (docs/templates.md): PipeLLM `prompt` / `system_prompt`, PipeImgGen `prompt` /
 * `negative_prompt`, PipeSearch `prompt`, PipeCompose `template` and construct `template` fields, PipeCondition
 * `expression_template` (or `expression`, read as `{{ expression }}`), PipeJudge `prompt` and question templates
 * (`question`, `questions.<name>.question`), PipeDocGen `template` (html) and `filename` (basic); and reading one
 * template's variable roots.
 * @see docs/pipes.md#pipellm, docs/pipes.md#pipeimggen, docs/pipes.md#pipesearch, docs/pipes.md#pipecompose,
 * docs/pipes.md#pipecondition, docs/templates.md, docs/language.md#pipejudge, docs/document-generation.md
 */
import { MthdsError } from '../../../errors/index.js';
import { checkTemplate, type TemplateCategory, templateVariables } from '../../../templating/index.js';
import type { Pipe } from '../../library/concept.js';
import { judgeQuestions } from '../../library/judge-questions.js';

/** One template of a pipe. */
export interface TemplateSite {
  /** Path inside the pipe table, e.g. `prompt`, `template.template`, `construct.summary`. */
  field: string;
  template: string;
  category: TemplateCategory;
}

/** Variables that never need declaring (docs/pipes.md#pipellm). */
const EXEMPT_VARIABLES: ReadonlySet<string> = new Set(['preliminary_text', 'place_holder']);

/**
 * True when a variable root needs no declaration: `_`-prefixed run parameters (`_nb_output`…) and the exempt names.
 * @param root - a variable root
 */
export function isExemptVariable(root: string): boolean {
  return root.startsWith('_') || EXEMPT_VARIABLES.has(root);
}

function constructSites(value: unknown, path: string, sites: TemplateSite[]): void {
  if (value === null || typeof value !== 'object' || Array.isArray(value)) return;
  const table = value as Record<string, unknown>;
  if (typeof table['template'] === 'string' && !('from' in table))
    sites.push({ field: path, template: table['template'], category: 'basic' });
  else if (!('from' in table))
    for (const [key, nested] of Object.entries(table)) constructSites(nested, `${path}.${key}`, sites);
}

/**
 * The templates of a pipe, in field order.
 * @param pipe - any pipe
 */
export function templateSites(pipe: Pipe): TemplateSite[] {
  const blueprint = pipe.blueprint;
  switch (blueprint.type) {
    case 'PipeLLM':
      return [
        ...(blueprint.prompt === undefined
          ? []
          : [{ field: 'prompt', template: blueprint.prompt, category: 'llm_prompt' as const }]),
        ...(blueprint.system_prompt === undefined
          ? []
          : [{ field: 'system_prompt', template: blueprint.system_prompt, category: 'llm_prompt' as const }]),
      ];
    case 'PipeImgGen':
      return [
        { field: 'prompt', template: blueprint.prompt, category: 'img_gen_prompt' },
        ...(blueprint.negative_prompt === undefined
          ? []
          : [{ field: 'negative_prompt', template: blueprint.negative_prompt, category: 'img_gen_prompt' as const }]),
      ];
    case 'PipeSearch':
      return [{ field: 'prompt', template: blueprint.prompt, category: 'llm_prompt' }];
    case 'PipeJudge':
      return [
        { field: 'prompt', template: blueprint.prompt, category: 'llm_prompt' },
        ...judgeQuestions(blueprint).map((question) => ({
          field: `${question.fieldPrefix}question`,
          template: question.question,
          category: 'basic' as const,
        })),
      ];
    case 'PipeCompose': {
      const sites: TemplateSite[] = [];
      const spec = blueprint.template;
      if (typeof spec === 'string') sites.push({ field: 'template', template: spec, category: 'basic' });
      else if (spec !== undefined)
        sites.push({ field: 'template.template', template: spec.template, category: spec.category });
      for (const [key, value] of Object.entries(blueprint.construct ?? {}))
        constructSites(value, `construct.${key}`, sites);
      return sites;
    }
    case 'PipeDocGen':
      return [
        ...(blueprint.template === undefined
          ? []
          : [{ field: 'template', template: blueprint.template, category: 'html' as const }]),
        ...(blueprint.filename === undefined
          ? []
          : [{ field: 'filename', template: blueprint.filename, category: 'basic' as const }]),
      ];
    case 'PipeCondition':
      if (blueprint.expression_template !== undefined)
        return [{ field: 'expression_template', template: blueprint.expression_template, category: 'expression' }];
      return blueprint.expression === undefined
        ? []
        : [{ field: 'expression', template: `{{ ${blueprint.expression} }}`, category: 'expression' }];
    default:
      return [];
  }
}

/**
 * Check a template (syntax, filters allowed for its category) and read its variable roots.
 * @param site - the template
 * @returns the roots, or the reason the template is invalid (the templating module's message)
 */
export function readTemplate(site: TemplateSite): { roots: readonly string[] } | { error: string } {
  try {
    checkTemplate(site.template, site.category);
    return { roots: templateVariables(site.template).roots };
  } catch (error) {
    if (error instanceof MthdsError) return { error: error.message };
    throw error;
  }
}
