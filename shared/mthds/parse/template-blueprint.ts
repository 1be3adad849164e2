/**
 * The template forms of pipes as written: the tag and templating styles of a prompt, the table form of a PipeCompose
 * `template`, and the values of a PipeCompose `construct` table (docs/pipes.md#pipecompose, docs/templates.md).
 */
import { z } from 'zod';
import { nullish } from './nullish-field.js';

/** How inputs are tagged in a prompt (pipelex-api 0.16 `TagStyle`). */
export const TAG_STYLE = z.enum(['no_tag', 'ticks', 'xml', 'square_brackets']);
/** A tag style and a text format (pipelex-api 0.16 `TemplatingStyle`; `text_format` defaults to `plain`). */
export const TEMPLATING_STYLE = z.object({
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

/** The table form of a PipeCompose `template`. */
export type TemplateBlueprint = z.infer<typeof TEMPLATE_BLUEPRINT>;

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
/** The schema of a {@link ConstructValue}. */
export const CONSTRUCT_VALUE: z.ZodType<ConstructValue> = z.lazy(() =>
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
