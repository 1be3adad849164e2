/**
 * The file name of a printed document (docs/document-generation.md): the rendered `filename` (else the pipe code) with
 * every
 * run of characters outside `[A-Za-z0-9_.-]` replaced by one `-`, the stem cut to {@link MAX_STEM_CHARS} characters,
 * and the format's suffix appended once (a name already ending with it keeps one).
 */

/** Longest stem kept, in characters. */
export const MAX_STEM_CHARS = 120;

/**
 * Build the file name.
 * @param rendered - the rendered `filename` template, or the pipe code
 * @param suffix - the format's suffix with its dot, e.g. `.pdf`
 * @param fallback - the stem when nothing is left of `rendered` (the pipe code)
 * @example documentFilename('Invoice #42 / ACME', '.pdf', 'print') // 'Invoice-42-ACME.pdf'
 */
export function documentFilename(rendered: string, suffix: string, fallback: string): string {
  let stem = rendered.trim().replace(/[^\w.-]+/g, '-');
  if (stem.toLowerCase().endsWith(suffix)) stem = stem.slice(0, -suffix.length);
  stem = stem.slice(0, MAX_STEM_CHARS);
  if (stem.replace(/[-.]/g, '') === '') stem = fallback.slice(0, MAX_STEM_CHARS);
  return `${stem}${suffix}`;
}
