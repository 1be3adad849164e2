/**
 * S4 model references: every `$preset`, `@alias` and `~waterfall` a pipe's `model` (or PipeLLM's
 * `model_to_structure`) names is in the serving model deck, in the category of the pipe's operator — checked at load
 * as the reference runtime does (`cogt/models/model_deck_check.py`), so that validation refuses what a run would fail
 * on with `ModelChoiceNotFoundError`. Model handles are not checked: routing serves any handle. Without a deck in the
 * rule context (a caller that serves no models) nothing is checked.
 *
 * Each item is the reference's `unknown_model` (protocol 0.7.0, docs/rules.md#s4-model-references): beside the
 * message, `model_reference` (the reference as written), `model_type` (the kind of model the field takes, in the
 * reference's spelling) and `suggestions` (the closest names of the same kind, sigil included; omitted when none).
 * @see docs/language.md#model-references-and-the-deck, docs/inference.md#from-a-pipes-model-to-a-call
 */
import type { ValidationErrorItem } from '../../../errors/index.js';
import type { Pipe } from '../../library/concept.js';
import { MESSAGES } from '../../messages.js';
import {
  closestNames,
  type ModelCategoryName,
  type ModelReferenceCatalog,
  namesOfKind,
  type ParsedModelReference,
  parseModelReference,
} from '../../model-references.js';
import type { Rule } from '../rule.js';
import { pipeField, pipeItem, pipesOf } from '../rule-item.js';

/** The category, and the fields holding a model reference, of each operator type that has one. */
const MODEL_FIELDS: Readonly<Record<string, { category: ModelCategoryName; fields: readonly string[] }>> = {
  PipeLLM: { category: 'llm', fields: ['model', 'model_to_structure'] },
  PipeImgGen: { category: 'img_gen', fields: ['model'] },
  PipeExtract: { category: 'extract', fields: ['model'] },
  PipeSearch: { category: 'search', fields: ['model'] },
  PipeJudge: { category: 'judgment', fields: ['model'] },
};

/** The `model_type` of an item, by category: the reference's model types (`text_extractor` for an extractor). */
const MODEL_TYPES: Readonly<Record<ModelCategoryName, string>> = {
  llm: 'llm',
  img_gen: 'img_gen',
  extract: 'text_extractor',
  search: 'search',
  judgment: 'judgment',
};

/** How messages name a category, as the reference does (`LLM preset 'x' was not found in the model deck`). */
const CATEGORY_LABELS: Readonly<Record<ModelCategoryName, string>> = {
  llm: 'LLM',
  img_gen: 'Image generation',
  extract: 'Extract',
  search: 'Search',
  judgment: 'Judgment',
};

const SIGILS = { preset: '$', alias: '@', waterfall: '~' } as const;

/** A reference a `model` field holds: parsed, as written, and where. */
interface HeldReference {
  parsed: ParsedModelReference;
  written: string;
  path: string;
}

/**
 * The reference a `model` field holds, and where: a string, an inline setting's `model`, or `{kind, name, raw}` (as
 * written: its `raw`, else the name with its kind's sigil).
 */
function referenceOf(value: unknown, field: string): HeldReference | undefined {
  if (typeof value === 'string') return { parsed: parseModelReference(value), written: value, path: field };
  if (value === null || typeof value !== 'object') return undefined;
  const table = value as Record<string, unknown>;
  if (typeof table['model'] === 'string')
    return { parsed: parseModelReference(table['model']), written: table['model'], path: `${field}.model` };
  if (typeof table['kind'] === 'string' && typeof table['name'] === 'string') {
    const parsed = { kind: table['kind'] as ParsedModelReference['kind'], name: table['name'] };
    const sigil = parsed.kind === 'handle' ? '' : (SIGILS[parsed.kind] ?? '');
    const written = typeof table['raw'] === 'string' ? table['raw'] : `${sigil}${parsed.name}`;
    return { parsed, written, path: field };
  }
  return undefined;
}

function problems(pipe: Pipe, models: ModelReferenceCatalog): ValidationErrorItem[] {
  const declared = MODEL_FIELDS[pipe.blueprint.type];
  if (!declared) return [];
  const blueprint = pipe.blueprint as unknown as Record<string, unknown>;
  const items: ValidationErrorItem[] = [];
  for (const field of declared.fields) {
    const reference = referenceOf(blueprint[field], field);
    if (!reference || reference.parsed.kind === 'handle') continue;
    const { kind, name } = reference.parsed;
    const known = namesOfKind(models[declared.category], kind);
    if (known.includes(name)) continue;
    const suggestions = closestNames(name, known).map((candidate) => `${SIGILS[kind]}${candidate}`);
    const message = MESSAGES.model_reference_unknown({
      pipe: pipe.code,
      field,
      category: CATEGORY_LABELS[declared.category],
      kind,
      name,
      suggestions,
    });
    items.push(
      pipeItem(modelReferences, pipe, message, {
        ...pipeField(pipe, reference.path),
        model_reference: reference.written,
        model_type: MODEL_TYPES[declared.category],
        ...(suggestions.length > 0 ? { suggestions } : {}),
      }),
    );
  }
  return items;
}

/** S4 model references (`unknown_model`, with `model_reference`, `model_type` and `suggestions`). */
export const modelReferences: Rule = {
  id: 'S4-model-references',
  stage: 'S4',
  severity: 'error',
  category: 'pipe_validation',
  error_type: 'unknown_model',
  see: 'docs/rules.md#s4-model-references',
  check: (context) => {
    const { models } = context;
    return models ? pipesOf(context).flatMap((pipe) => problems(pipe, models)) : [];
  },
};
