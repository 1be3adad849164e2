/**
 * Bundle blueprints: the `.mthds` data as written, typed. Each schema mirrors `mthds_schema.json` (every field of every
 * blueprint; `additionalProperties: false` where the schema says so). A pipe table without `type` holding only
 * `description`, `inputs`, `output` and optionally `signature_for` is a contract-only signature
 * (docs/pipes.md#pipesignature,
 * pipelex-api 0.16 `PipeSignatureBlueprint`); it is typed `PipeSignature` here, never on the wire.
 *
 * @see docs/bundle-format.md, docs/concepts.md, docs/language.md, ../shared/reference/mthds_schema.json
 */
import { z } from 'zod';

const nullish = <T extends z.ZodType>(schema: T) => schema.nullish().transform((value) => value ?? undefined);
/**
 * An expanded input slot (docs/concepts.md#structure-fields):
 * `name = { concept = "X?", hints = { intent = "prose" } }`, only those
 * two keys. It collapses to its `concept` spec (presence marker included); the hints are non-normative and not kept.
 */
const EXPANDED_SLOT = z
  .strictObject({ concept: z.string(), hints: nullish(z.record(z.string(), z.string())) })
  .transform((slot) => slot.concept);
const inputs = nullish(z.record(z.string(), z.union([z.string(), EXPANDED_SLOT])));

/** Inline LLM model settings (docs/pipes.md#pipellm). */
export const LLM_SETTING = z.strictObject({
  model: z.string(),
  temperature: z.number().min(0).max(1),
  max_tokens: nullish(z.union([z.number().int(), z.literal('auto')])),
  image_detail: nullish(z.enum(['high', 'low', 'auto'])),
  prompting_target: nullish(z.enum(['openai', 'anthropic', 'mistral', 'gemini', 'fal'])),
  reasoning_effort: nullish(z.enum(['none', 'minimal', 'low', 'medium', 'high', 'max'])),
  reasoning_budget: nullish(z.number().int().positive()),
  description: nullish(z.string()),
});
/** Inline LLM model settings. */
export type LLMSetting = z.infer<typeof LLM_SETTING>;

/**
 * The serialised model reference object the schema also admits in `model`
 * (docs/language.md#model-references-and-the-deck).
 */
export const MODEL_REFERENCE = z.object({
  kind: z.enum(['preset', 'alias', 'waterfall', 'handle']),
  name: z.string(),
  raw: z.string(),
});

/** Inline image-generation model settings (docs/pipes.md#pipeimggen). */
export const IMG_GEN_SETTING = z.strictObject({
  model: z.string(),
  quality: nullish(z.enum(['low', 'medium', 'high'])),
  nb_steps: nullish(z.number().int().positive()),
  guidance_scale: nullish(z.number().positive()),
  is_moderated: nullish(z.boolean()),
  safety_tolerance: nullish(z.number().int().min(1).max(6)),
  description: nullish(z.string()),
});

/** Inline extraction model settings (docs/pipes.md#pipeextract). */
export const EXTRACT_SETTING = z.strictObject({
  model: z.string(),
  max_nb_images: nullish(z.number().int().nonnegative()),
  image_min_size: nullish(z.number().int().nonnegative()),
  description: nullish(z.string()),
});

/** Inline search model settings (docs/pipes.md#pipesearch). */
export const SEARCH_SETTING = z.strictObject({
  model: z.string(),
  include_images: nullish(z.boolean()),
  include_inline_citations: nullish(z.boolean()),
  max_results: nullish(z.number().int().min(1)),
  description: nullish(z.string()),
});

/** Inline image-generation model settings. */
export type ImgGenSetting = z.infer<typeof IMG_GEN_SETTING>;
/** Inline extraction model settings. */
export type ExtractSetting = z.infer<typeof EXTRACT_SETTING>;
/** Inline search model settings. */
export type SearchSetting = z.infer<typeof SEARCH_SETTING>;
/** The serialised model reference object. */
export type ModelReference = z.infer<typeof MODEL_REFERENCE>;

const modelField = <T extends z.ZodType>(setting: T) => nullish(z.union([z.string(), setting, MODEL_REFERENCE]));

/** A step of a sequence or a branch of a parallel (docs/pipes.md#pipesequence). */
export const SUB_PIPE = z.strictObject({
  pipe: z.string(),
  result: nullish(z.string()),
  nb_output: nullish(z.number().int()),
  multiple_output: nullish(z.boolean()),
  batch_over: nullish(z.string()),
  batch_as: nullish(z.string()),
});
/** A step or branch. */
export type SubPipeBlueprint = z.infer<typeof SUB_PIPE>;

/**
 * A binding step of a PipeSequence: the value at a dotted path (`root.field…`) copied under `result`, no pipe run
 * (docs/data-flow.md#binding-steps, a newer reference feature; not on the 0.16 wire).
 */
export const BINDING_STEP = z.strictObject({ from: z.string(), result: z.string() });
/** A binding step. */
export type BindingStepBlueprint = z.infer<typeof BINDING_STEP>;
/** A step of a PipeSequence: a sub-pipe call or a binding step. */
export type SequenceStepBlueprint = SubPipeBlueprint | BindingStepBlueprint;

/**
 * Whether a sequence step is a binding step.
 * @param step - a step of a PipeSequence
 */
export function isBindingStep(step: SequenceStepBlueprint): step is BindingStepBlueprint {
  return 'from' in step;
}

/**
 * The steps of a PipeSequence that call a pipe, in order (binding steps left out).
 * @param steps - the `steps` of a PipeSequence
 */
export function pipeSteps(steps: readonly SequenceStepBlueprint[]): SubPipeBlueprint[] {
  return steps.filter((step): step is SubPipeBlueprint => !isBindingStep(step));
}

const common = { description: z.string(), inputs, output: z.string() };

/** How inputs are tagged in a prompt (pipelex-api 0.16 `TagStyle`). */
const TAG_STYLE = z.enum(['no_tag', 'ticks', 'xml', 'square_brackets']);
/** A tag style and a text format (pipelex-api 0.16 `TemplatingStyle`; `text_format` defaults to `plain`). */
const TEMPLATING_STYLE = z.object({
  tag_style: TAG_STYLE,
  text_format: nullish(z.enum(['plain', 'markdown', 'html', 'json'])),
});

/** The table form of a PipeCompose `template` (docs/pipes.md#pipecompose; extra keys allowed, as in the schema). */
export const TEMPLATE_BLUEPRINT = z.object({
  template: z.string(),
  category: z.enum(['basic', 'expression', 'html', 'markdown', 'mermaid', 'llm_prompt', 'img_gen_prompt']),
  templating_style: nullish(TEMPLATING_STYLE),
  extra_context: nullish(z.record(z.string(), z.unknown())),
});

/**
 * A PipeImgGen `size` (pipelex-api 0.16): a portable tier at the pipe's aspect ratio (`SizeTier`), or exact pixel
 * dimensions (`ImageSize`, both > 0).
 */
const IMAGE_SIZE = z.union([
  z.enum(['0.5k', '1k', '2k', '4k']),
  z.strictObject({ width: z.number().int().positive(), height: z.number().int().positive() }),
]);

/**
 * One value of a PipeCompose `construct` table: fixed, `{from}`, `{template}` or nested (docs/pipes.md#pipecompose).
 */
export type ConstructValue =
  | string
  | number
  | boolean
  | unknown[]
  | { from: string; list_to_dict_keyed_by?: string }
  | { template: string }
  | { [key: string]: ConstructValue };
const CONSTRUCT_VALUE: z.ZodType<ConstructValue> = z.lazy(() =>
  z.union([
    z.string(),
    z.number(),
    z.boolean(),
    z.array(z.unknown()),
    z.strictObject({ from: z.string(), list_to_dict_keyed_by: z.string().optional() }),
    z.strictObject({ template: z.string() }),
    z
      .record(z.string(), CONSTRUCT_VALUE)
      .refine((value) => Object.keys(value).length > 0, 'a nested construct needs at least one field'),
  ]),
);

/** The table form of a PipeCompose `template`. */
export type TemplateBlueprint = z.infer<typeof TEMPLATE_BLUEPRINT>;

/**
 * Inline judgment model settings: a judgment-deck reference and an optional description (docs/language.md#pipejudge).
 */
const JUDGMENT_SETTING = z.strictObject({ model: z.string(), description: nullish(z.string()) });

/** A level of a PipeJudge rating scale: a description, or a table with a label and/or a description. */
const JUDGE_LEVEL = z.union([
  z.string(),
  z.strictObject({ label: nullish(z.string()), description: nullish(z.string()) }),
]);
/** A level of a rating scale as written. */
export type JudgeLevelBlueprint = z.infer<typeof JUDGE_LEVEL>;

/**
 * The kind fields of a PipeJudge question: `options` (choice), `levels` (rating), else yes/no with
 * `criteria`/`threshold`.
 */
const JUDGE_KIND_FIELDS = {
  options: nullish(z.record(z.string(), z.string())),
  levels: nullish(z.array(JUDGE_LEVEL)),
  criteria: nullish(z.strictObject({ yes: z.string(), no: z.string() })),
  threshold: nullish(z.number()),
};

/** One question of a PipeJudge's multi form (`[pipe.x.questions.<name>]`, docs/language.md#pipejudge). */
const JUDGE_QUESTION = z.strictObject({ question: z.string(), ...JUDGE_KIND_FIELDS });

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

/** A structure field written as a table (docs/concepts.md#structure-fields). Unknown keys are refused. */
export const CONCEPT_FIELD = z.strictObject({
  description: z.string(),
  type: nullish(
    z.enum(['text', 'integer', 'number', 'boolean', 'date', 'datetime', 'time', 'list', 'dict', 'concept']),
  ),
  key_type: nullish(z.string()),
  value_type: nullish(z.string()),
  item_type: nullish(z.string()),
  concept_ref: nullish(z.string()),
  item_concept_ref: nullish(z.string()),
  choices: nullish(z.array(z.string())),
  default_value: z.unknown().optional(),
  required: nullish(z.boolean()),
  /** Non-normative presentation hints (LANGUAGE-DELTA §7), e.g. `{ intent = "label" }`. */
  hints: nullish(z.record(z.string(), z.string())),
});
/** A structure field as written (table form). */
export type ConceptFieldBlueprint = z.infer<typeof CONCEPT_FIELD>;

/** A `[concept.Code]` table (docs/concepts.md#declaring-a-concept). */
export const CONCEPT_BLUEPRINT = z.strictObject({
  description: z.string(),
  structure: nullish(z.union([z.string(), z.record(z.string(), z.union([z.string(), CONCEPT_FIELD]))])),
  refines: nullish(z.string()),
  /** Non-normative presentation hints of the concept (LANGUAGE-DELTA §7). */
  hints: nullish(z.record(z.string(), z.string())),
});
/** A concept table as written. */
export type ConceptBlueprint = z.infer<typeof CONCEPT_BLUEPRINT>;

/** The bundle header (docs/bundle-format.md#header); `concept` and `pipe` are validated entry by entry. */
export const BUNDLE_HEADER = z.strictObject({
  domain: z.string(),
  description: nullish(z.string()),
  system_prompt: nullish(z.string()),
  main_pipe: nullish(z.string()),
  concept: nullish(z.record(z.string(), z.unknown())),
  pipe: nullish(z.record(z.string(), z.unknown())),
});

/** A bundle as written, typed: header, concepts (string shorthand or table) and pipes. */
export interface BundleBlueprint {
  domain: string;
  description?: string;
  system_prompt?: string;
  main_pipe?: string;
  concept: Record<string, ConceptBlueprint | string>;
  pipe: Record<string, PipeBlueprint>;
}
