/**
 * `format`: one `.mthds` text in the canonical style, by taplo (`@taplo/lib`, the formatter `plxt` is forked from):
 * `=` aligned within a block of single-line entries, comments kept, arrays expanded past the column width, one
 * trailing newline. Idempotent. A text that is not valid TOML is returned unchanged with its diagnostic.
 *
 * @see docs/api.md#post-v1lint, docs/formatting.md, docs/formatting.md (the choice and its measurements)
 */
import type { Taplo, FormatOptions as TaploFormatOptions } from '@taplo/lib';
import { PipelexUnexpectedError, ValidationError } from '../errors/index.js';
import type { Diagnostic } from './diagnostic.js';
import { type FormatOptions, type ResolvedFormatOptions, resolveFormatOptions } from './format-options.js';
import { formatWork, MAX_FORMAT_WORK } from './format-work.js';
import { SourceText } from './source-text.js';
import { checkToml } from './toml-syntax.js';

/** The answer of `/v1/format`. */
export interface FormatResult {
  /** The formatted text, or the input unchanged when it has a syntax error. */
  formatted: string;
  /** True exactly when `formatted` differs from the input. */
  changed: boolean;
  diagnostics: Diagnostic[];
}

type FormatterOptions = NonNullable<TaploFormatOptions['options']>;

let formatter: Promise<Taplo> | undefined;

/**
 * The taplo instance, loaded once. The package is a 35 MB script embedding its WASM module: loading it takes about
 * 3.5 s and 110 MB, so it is imported on first use (or by {@link warmFormatter}), never when the app is built.
 * @returns the shared instance
 */
function taploFormatter(): Promise<Taplo> {
  formatter ??= import('@taplo/lib').then((module) => module.default.Taplo.initialize());
  return formatter;
}

/**
 * Load the formatter ahead of the first `/v1/format` request (the server calls this once it listens).
 * @returns when the formatter is ready
 */
export async function warmFormatter(): Promise<void> {
  await taploFormatter();
}

function taploOptions(options: ResolvedFormatOptions): FormatterOptions {
  return {
    alignEntries: options.align_entries,
    alignComments: options.align_comments,
    arrayTrailingComma: options.array_trailing_comma,
    arrayAutoExpand: options.array_auto_expand,
    arrayAutoCollapse: options.array_auto_collapse,
    compactArrays: options.compact_arrays,
    compactInlineTables: options.compact_inline_tables,
    compactEntries: options.compact_entries,
    columnWidth: options.column_width,
    indentTables: options.indent_tables,
    indentEntries: options.indent_entries,
    indentString: options.indent_string,
    trailingNewline: options.trailing_newline,
    reorderKeys: options.reorder_keys,
    allowedBlankLines: options.allowed_blank_lines,
    crlf: options.crlf,
  };
}

/**
 * Format one `.mthds` text.
 * @param content - the text
 * @param given - the options as the caller sent them, validated by `FORMAT_OPTIONS` (null or absent: the
 *   defaults apply; a key left out takes its default)
 * @returns the formatted text, whether it changed, and the diagnostics (one `syntax`/`semantic` diagnostic, with the
 *   text unchanged, when it is not valid TOML; else none)
 * @throws ValidationError (422) when the text asks more formatting work than {@link MAX_FORMAT_WORK}
 *   (docs/limits.md#formatting), or when the formatter fails under options the caller chose (taplo panics on a few
 *   option and comment combinations, e.g. an entry with a trailing comment under a `column_width` below about 30);
 *   the detail names the options. PipelexUnexpectedError (500) when it fails under the defaults.
 * @example await formatMthds('a=1') // → { formatted: 'a = 1\n', changed: true, diagnostics: [] }
 */
export async function formatMthds(content: string, given?: FormatOptions | null): Promise<FormatResult> {
  const options = taploOptions(resolveFormatOptions(given));
  const checked = checkToml(content, new SourceText(content));
  if ('diagnostic' in checked) return { formatted: content, changed: false, diagnostics: [checked.diagnostic] };
  const { work, largest } = formatWork(checked.ast);
  if (work > MAX_FORMAT_WORK) {
    throw new ValidationError(
      `body.content: this text is too costly to format: its formatting work (the sum, over every table, inline table and array, of the square of its items) is ${work.toLocaleString('en-US')}, over ${MAX_FORMAT_WORK.toLocaleString('en-US')}; the largest, opening at line ${largest.line}, has ${largest.items.toLocaleString('en-US')} items. Split long arrays and tables into smaller ones, or the bundle into several files.`,
    );
  }
  const instance = await taploFormatter();
  let result: string;
  try {
    result = instance.format(content, { options });
  } catch (error) {
    if (given) {
      throw new ValidationError(
        `body.options: the formatter cannot lay out this content with the options ${JSON.stringify(given)}: ${String(error)}. Retry with the default options, or a larger column_width.`,
        { cause: error },
      );
    }
    throw new PipelexUnexpectedError(
      `RuntimeError: the TOML formatter failed on this content with these options (${String(error)})`,
      { cause: error },
    );
  }
  return { formatted: result, changed: result !== content, diagnostics: [] };
}
