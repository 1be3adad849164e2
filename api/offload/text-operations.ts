/**
 * `POST /v1/lint` and `POST /v1/format` in a diagnostics thread (docs/api.md, docs/formatting.md): one `.mthds` text
 * in, its
 * diagnostics (and its formatted text) out.
 */
import { type FormatOptions, formatMthds, lintMthds, warmFormatter } from '../../shared/tooling/index.js';
import { type EncodedJson, encodeJson } from './encode-json.js';

/** Input of {@link lintOperation} and {@link formatOperation}. */
export interface TextInput {
  content: string;
  options?: FormatOptions | null;
}

/**
 * The answer of `POST /v1/lint`: `{diagnostics}`.
 * @param input - the text
 */
export function lintOperation(input: TextInput): EncodedJson {
  return encodeJson({ diagnostics: lintMthds(input.content) });
}

/**
 * The answer of `POST /v1/format`: `{formatted, changed, diagnostics}`.
 * @param input - the text and its format options
 */
export async function formatOperation(input: TextInput): Promise<EncodedJson> {
  return encodeJson(await formatMthds(input.content, input.options));
}

/** Load what a thread needs before its first request: the `/v1/format` formatter (taplo, seconds to load). */
export async function warmOperation(): Promise<void> {
  await warmFormatter();
}
