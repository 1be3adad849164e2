/**
 * Pipe blueprints: every pipe table as written, one schema per pipe `type` ({@link PIPE_SCHEMAS}), each mirroring
 * `mthds_schema.json` (every field; `additionalProperties: false` where the schema says so). A pipe table without
 * `type` holding only `description`, `inputs`, `output` and optionally `signature_for` is a contract-only signature
 * (docs/pipes.md#pipesignature, pipelex-api 0.16 `PipeSignatureBlueprint`); it is typed `PipeSignature` here, never on
 * the wire.
 */
import { z } from 'zod';
import { JUDGE_KIND_FIELDS, JUDGE_QUESTION, JUDGMENT_SETTING } from './judge-blueprint.js';
import { EXTRACT_SETTING, IMG_GEN_SETTING, LLM_SETTING, modelField, SEARCH_SETTING } from './model-settings.js';
import { nullish } from './nullish-field.js';
import { BINDING_STEP, SUB_PIPE } from './sequence-steps.js';
import { CONSTRUCT_VALUE, TAG_STYLE, TEMPLATE_BLUEPRINT, TEMPLATING_STYLE } from './template-blueprint.js';

/**
 * An expanded input slot (docs/concepts.md#structure-fields):
 * `name = { concept = "X?", hints = { intent = "prose" } }`, only those
 * two keys. It collapses to its `concept` spec (presence marker included); the hints are non-normative and not kept.
 */
const EXPANDED_SLOT = z
  .strictObject({ concept: z.string(), hints: nullish(z.record(z.string(), z.string())) })
  .transform((slot) => slot.concept);
const inputs = nullish(z.record(z.string(), z.union([z.string(), EXPANDED_SLOT])));

const common = { description: z.string(), inputs, output: z.string() };

/**
 * A PipeImgGen `size` (pipelex-api 0.16): a portable tier at the pipe's aspect ratio (`SizeTier`), or exact pixel
 * dimensions (`ImageSize`, both > 0).
 */
const IMAGE_SIZE = z.union([
  z.enum(['0.5k', '1k', '2k', '4k']),
  z.strictObject({ width: z.number().int().positive(), height: z.number().int().positive() }),
]);

/** Every pipe blueprint schema by `type`. */
export const PIPE_SCHEMAS = {
  PipeLLM: z.strictObject({
    type: z.literal('PipeLLM'),
    ...common,
    model: modelField(LLM_SETTING),
    model_to_structure: modelField(LLM_SETTING),
    system_prompt: nullish(z.string()),
    prompt: nullish(z.string()),
    structuring_method: nullish(z.enum(['direct', 'preliminary_text'])),
    /** The prompt's tag style, or a tag style and text format (0.16); the runtime default is `xml`, `plain`. */
    templating_style: nullish(z.union([TAG_STYLE, TEMPLATING_STYLE])),
  }),
  PipeFunc: z.strictObject({ type: z.literal('PipeFunc'), ...common, function_name: z.string() }),
  PipeImgGen: z.strictObject({
    type: z.literal('PipeImgGen'),
    ...common,
    prompt: z.string(),
    negative_prompt: nullish(z.string()),
    model: modelField(IMG_GEN_SETTING),
    aspect_ratio: nullish(
      z.enum([
        'square',
        'landscape_4_3',
        'landscape_3_2',
        'landscape_16_9',
        'landscape_21_9',
        'portrait_3_4',
        'portrait_2_3',
        'portrait_9_16',
        'portrait_9_21',
      ]),
    ),
    is_raw: nullish(z.boolean()),
    seed: nullish(z.union([z.number().int(), z.literal('auto')])),
    background: nullish(z.enum(['transparent', 'opaque', 'auto'])),
    output_format: nullish(z.enum(['png', 'jpeg', 'webp'])),
    size: nullish(IMAGE_SIZE),
  }),
  PipeExtract: z.strictObject({
    type: z.literal('PipeExtract'),
    ...common,
    model: modelField(EXTRACT_SETTING),
    max_page_images: nullish(z.number().int()),
    page_image_captions: nullish(z.boolean()),
    page_views: nullish(z.boolean()),
    page_views_dpi: nullish(z.number().int()),
    /** Web-page Documents: render the page's JavaScript before extracting (0.16). */
    render_js: nullish(z.boolean()),
    /** Web-page Documents: keep the fetched HTML as `TextAndImages.raw_html` (0.16). */
    include_raw_html: nullish(z.boolean()),
  }),
  PipeSearch: z.strictObject({
    type: z.literal('PipeSearch'),
    ...common,
    prompt: z.string(),
    model: modelField(SEARCH_SETTING),
    include_images: nullish(z.boolean()),
    max_results: nullish(z.number().int()),
    from_date: nullish(z.string()),
    to_date: nullish(z.string()),
    include_domains: nullish(z.array(z.string())),
    exclude_domains: nullish(z.array(z.string())),
  }),
  PipeStructure: z.strictObject({ type: z.literal('PipeStructure'), ...common, model: modelField(LLM_SETTING) }),
  PipeJudge: z.strictObject({
    type: z.literal('PipeJudge'),
    ...common,
    model: modelField(JUDGMENT_SETTING),
    prompt: z.string(),
    question: nullish(z.string()),
    questions: nullish(z.record(z.string(), JUDGE_QUESTION)),
    ...JUDGE_KIND_FIELDS,
  }),
  PipeDocGen: z.strictObject({
    type: z.literal('PipeDocGen'),
    ...common,
    format: z.enum(['pdf', 'xlsx', 'docx', 'pptx']),
    template: nullish(z.string()),
    template_file: nullish(z.string()),
    filename: nullish(z.string()),
    model: nullish(z.string()),
  }),
  PipeCompose: z.strictObject({
    type: z.literal('PipeCompose'),
    ...common,
    template: nullish(z.union([z.string(), TEMPLATE_BLUEPRINT])),
    construct: nullish(z.record(z.string(), CONSTRUCT_VALUE)),
  }),
  PipeSequence: z.strictObject({
    type: z.literal('PipeSequence'),
    ...common,
    steps: z.array(z.union([SUB_PIPE, BINDING_STEP])),
  }),
  PipeParallel: z.strictObject({
    type: z.literal('PipeParallel'),
    ...common,
    branches: z.array(SUB_PIPE),
    add_each_output: nullish(z.boolean()),
    combined_output: nullish(z.string()),
  }),
  PipeCondition: z.strictObject({
    type: z.literal('PipeCondition'),
    ...common,
    expression_template: nullish(z.string()),
    expression: nullish(z.string()),
    outcomes: z.record(z.string(), z.string()),
    default_outcome: z.string(),
    add_alias_from_expression_to: nullish(z.string()),
  }),
  PipeBatch: z.strictObject({
    type: z.literal('PipeBatch'),
    ...common,
    branch_pipe_code: z.string(),
    input_list_name: z.string(),
    input_item_name: z.string(),
  }),
  PipeSignature: z.strictObject({
    type: z.literal('PipeSignature').default('PipeSignature'),
    description: z.string(),
    inputs,
    output: z.string(),
    signature_for: nullish(
      z.enum([
        'PipeLLM',
        'PipeFunc',
        'PipeImgGen',
        'PipeExtract',
        'PipeSearch',
        'PipeStructure',
        'PipeDocGen',
        'PipeCompose',
        'PipeSequence',
        'PipeParallel',
        'PipeCondition',
        'PipeBatch',
      ]),
    ),
  }),
} as const;

/**
 * Every pipe type: the eleven of the reference's 0.16 `PipeType` enum, the newer PipeJudge
 * (docs/language.md#pipejudge), and
 * the contract-only signature.
 */
export type PipeType = keyof typeof PIPE_SCHEMAS;

/**
 * The pipe types a pipe table may name in `type`: the reference's `PipeType` enum (docs/pipes.md#common-fields,
 * docs/language.md#newer-reference-features
 * §1) and the newer PipeJudge (docs/language.md#pipejudge).
 */
export const SCHEMA_PIPE_TYPES = Object.keys(PIPE_SCHEMAS).filter((type) => type !== 'PipeSignature') as Exclude<
  PipeType,
  'PipeSignature'
>[];

/** A PipeLLM as written (docs/pipes.md#pipellm). */
export type PipeLLMBlueprint = z.infer<(typeof PIPE_SCHEMAS)['PipeLLM']>;
/** A PipeFunc as written (docs/pipes.md#pipefunc). */
export type PipeFuncBlueprint = z.infer<(typeof PIPE_SCHEMAS)['PipeFunc']>;
/** A PipeImgGen as written (docs/pipes.md#pipeimggen). */
export type PipeImgGenBlueprint = z.infer<(typeof PIPE_SCHEMAS)['PipeImgGen']>;
/** A PipeExtract as written (docs/pipes.md#pipeextract). */
export type PipeExtractBlueprint = z.infer<(typeof PIPE_SCHEMAS)['PipeExtract']>;
/** A PipeSearch as written (docs/pipes.md#pipesearch). */
export type PipeSearchBlueprint = z.infer<(typeof PIPE_SCHEMAS)['PipeSearch']>;
/** A PipeStructure as written (docs/pipes.md#pipestructure; reference OpenAPI `PipeStructureBlueprint`). */
export type PipeStructureBlueprint = z.infer<(typeof PIPE_SCHEMAS)['PipeStructure']>;
/** A PipeJudge as written (docs/language.md#pipejudge; newer than the 0.16 contract). */
export type PipeJudgeBlueprint = z.infer<(typeof PIPE_SCHEMAS)['PipeJudge']>;

/**
 * A PipeDocGen as written (docs/document-generation.md, a newer reference operator): prints a pdf, xlsx, docx or pptx
 * file
 * from its inputs, from a layout, an HTML `template` (pdf) or a `template_file` of the bundle; `model` names a doc_gen
 * engine.
 */
export type PipeDocGenBlueprint = z.infer<(typeof PIPE_SCHEMAS)['PipeDocGen']>;
/** A PipeCompose as written (docs/pipes.md#pipecompose). */
export type PipeComposeBlueprint = z.infer<(typeof PIPE_SCHEMAS)['PipeCompose']>;
/** A PipeSequence as written (docs/pipes.md#pipesequence). */
export type PipeSequenceBlueprint = z.infer<(typeof PIPE_SCHEMAS)['PipeSequence']>;
/** A PipeParallel as written (docs/pipes.md#pipeparallel). */
export type PipeParallelBlueprint = z.infer<(typeof PIPE_SCHEMAS)['PipeParallel']>;
/** A PipeCondition as written (docs/pipes.md#pipecondition). */
export type PipeConditionBlueprint = z.infer<(typeof PIPE_SCHEMAS)['PipeCondition']>;
/** A PipeBatch as written (docs/pipes.md#pipebatch). */
export type PipeBatchBlueprint = z.infer<(typeof PIPE_SCHEMAS)['PipeBatch']>;
/** A contract-only signature (no `type`; `signature_for` optional; docs/pipes.md#pipesignature). */
export type PipeSignatureBlueprint = z.infer<(typeof PIPE_SCHEMAS)['PipeSignature']>;
/** Any pipe blueprint, discriminated on `type`. */
export type PipeBlueprint = { [T in PipeType]: z.infer<(typeof PIPE_SCHEMAS)[T]> }[PipeType];
