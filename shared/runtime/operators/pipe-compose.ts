/**
 * PipeCompose: build output without an LLM, from a template (text) or a construct (structured)
 * (docs/runtime.md#pipecompose,
 * docs/pipes.md#pipecompose).
 */
import { PipeOutputValidationError } from '../../errors/index.js';
import type { Concept, PipeComposeBlueprint } from '../../mthds/index.js';
import type { TemplateCategory } from '../../templating/index.js';
import { nativeRootOf } from '../content-rendering.js';
import { renderJobTemplate } from '../job-template.js';
import { outputConceptOf } from '../output-concept.js';
import type { PipeJob, PipeRunner, RunEnvironment } from '../pipe-job.js';
import { storePipeOutput } from '../pipe-output.js';
import type { ItemContent } from '../stuff.js';
import { contentValue } from '../working-memory.js';

type ConstructValue = PipeComposeBlueprint['construct'] extends infer C
  ? C extends Record<string, infer V>
    ? V
    : never
  : never;

async function templateItem(
  job: PipeJob,
  environment: RunEnvironment,
  concept: Concept,
  blueprint: PipeComposeBlueprint,
): Promise<ItemContent> {
  const spec = blueprint.template;
  const template = typeof spec === 'string' ? spec : (spec?.template ?? '');
  const category: TemplateCategory = typeof spec === 'string' || spec === undefined ? 'basic' : spec.category;
  const extraContext = typeof spec === 'object' && spec.extra_context ? spec.extra_context : {};
  const options =
    typeof spec === 'object' && spec.templating_style
      ? {
          category,
          tagStyle: spec.templating_style.tag_style,
          textFormat: spec.templating_style.text_format ?? 'plain',
        }
      : { category };
  const { text } = await renderJobTemplate(job, environment, template, options, extraContext);
  return nativeRootOf(environment.library, concept) === 'Html' ? { inner_html: text, css_class: '' } : { text };
}

function unwrapped(job: PipeJob, environment: RunEnvironment, path: string): unknown {
  const resolved = job.memory.resolvePath(path);
  if (!resolved) return undefined;
  if (path.includes('.')) return resolved.value;
  const value = contentValue(resolved.stuff);
  const root = nativeRootOf(environment.library, resolved.stuff.concept);
  if (Array.isArray(value)) return value;
  if (root === 'Text') return value['text'];
  if (root === 'Number') return value['number'];
  return value;
}

function keyedBy(list: unknown, attribute: string): unknown {
  if (!Array.isArray(list)) return list;
  return Object.fromEntries(list.map((item) => [String((item as Record<string, unknown>)[attribute]), item]));
}

async function constructValue(job: PipeJob, environment: RunEnvironment, value: ConstructValue): Promise<unknown> {
  if (value === null || typeof value !== 'object' || Array.isArray(value)) return value;
  const field = value as Record<string, unknown>;
  if (typeof field['from'] === 'string') {
    const found = unwrapped(job, environment, field['from']);
    return typeof field['list_to_dict_keyed_by'] === 'string' ? keyedBy(found, field['list_to_dict_keyed_by']) : found;
  }
  if (typeof field['template'] === 'string') {
    return (await renderJobTemplate(job, environment, field['template'], { category: 'basic' })).text;
  }
  const built: Record<string, unknown> = {};
  for (const [key, nested] of Object.entries(field))
    built[key] = await constructValue(job, environment, nested as ConstructValue);
  return built;
}

/**
 * Run a PipeCompose job.
 * @throws Jinja2Template* errors (422); PipeOutputValidationError when a construct does not match the output concept
 */
export const runPipeCompose: PipeRunner = async (job, environment) => {
  const blueprint = job.pipe.blueprint as PipeComposeBlueprint;
  const concept = outputConceptOf(job, environment.library);
  let item: ItemContent;
  if (blueprint.construct !== undefined) {
    item = (await constructValue(job, environment, blueprint.construct as ConstructValue)) as ItemContent;
    const problems = environment.validator.problems(concept, item);
    if (problems.length > 0) {
      throw new PipeOutputValidationError(
        `PipeCompose '${job.pipe.code}': the constructed output does not match concept ${concept.ref}: ${problems.join('; ')}.`,
      );
    }
  } else {
    item = await templateItem(job, environment, concept, blueprint);
  }
  storePipeOutput(job, environment, concept, { kind: 'item', item });
};
