/**
 * The inline model settings a pipe's `model` may hold instead of a model reference, one schema per operator family
 * (LLM, image generation, extraction, search), and the serialised model reference object the schema also admits
 * (docs/pipes.md, docs/language.md#model-references-and-the-deck).
 */
import { z } from 'zod';
import { nullish } from './nullish-field.js';

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

/**
 * A pipe's `model` field: a model reference as written, an inline setting of the operator's family, or a serialised
 * model reference object; optional.
 * @param setting - the inline setting schema of the operator's family
 */
export const modelField = <T extends z.ZodType>(setting: T) => nullish(z.union([z.string(), setting, MODEL_REFERENCE]));
