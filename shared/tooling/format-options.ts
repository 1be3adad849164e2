/**
 * The options of `/v1/format`: the taplo `[formatting]` keys of `.pipelex/plxt.toml` that the embedded formatter
 * implements, snake_case on the wire. Defaults are the `.mthds` rule of the published configuration
 * (docs/formatting.md),
 * the style of every published bundle.
 *
 * @see docs/api.md#post-v1lint (options), docs/formatting.md, docs/formatting.md
 */
import { z } from 'zod';

/** The option schema: every key optional, unknown keys refused (strict), values typed. */
export const FORMAT_OPTIONS = z.strictObject({
  align_entries: z.boolean().optional(),
  align_comments: z.boolean().optional(),
  array_trailing_comma: z.boolean().optional(),
  array_auto_expand: z.boolean().optional(),
  array_auto_collapse: z.boolean().optional(),
  compact_arrays: z.boolean().optional(),
  compact_inline_tables: z.boolean().optional(),
  compact_entries: z.boolean().optional(),
  column_width: z.number().int().min(1).max(10_000).optional(),
  indent_tables: z.boolean().optional(),
  indent_entries: z.boolean().optional(),
  indent_string: z
    .string()
    .regex(/^[ \t]{1,16}$/, 'must be 1 to 16 spaces or tabs')
    .optional(),
  trailing_newline: z.boolean().optional(),
  reorder_keys: z.boolean().optional(),
  allowed_blank_lines: z.number().int().min(0).max(100).optional(),
  crlf: z.boolean().optional(),
});

/** Options as sent by a caller (each key optional). */
export type FormatOptions = z.infer<typeof FORMAT_OPTIONS>;

/** Every option with its value. */
export type ResolvedFormatOptions = Required<FormatOptions>;

/** The canonical `.mthds` style (the published `plxt.toml`, `*.mthds` rule). */
const MTHDS_FORMAT_DEFAULTS: ResolvedFormatOptions = {
  align_entries: true,
  align_comments: true,
  array_trailing_comma: true,
  array_auto_expand: true,
  array_auto_collapse: false,
  compact_arrays: true,
  compact_inline_tables: false,
  compact_entries: false,
  column_width: 80,
  indent_tables: false,
  indent_entries: false,
  indent_string: '  ',
  trailing_newline: true,
  reorder_keys: false,
  allowed_blank_lines: 2,
  crlf: false,
};

/**
 * The caller's options over the defaults.
 * @param options - validated options, or null/undefined for the defaults
 * @returns every option with its value
 */
export function resolveFormatOptions(options: FormatOptions | null | undefined): ResolvedFormatOptions {
  const given = Object.fromEntries(Object.entries(options ?? {}).filter(([, value]) => value !== undefined));
  return { ...MTHDS_FORMAT_DEFAULTS, ...given };
}
