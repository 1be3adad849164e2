/**
 * Public surface of `shared/tooling`: the editor tools of one `.mthds` text, lint and format.
 * @see API-CONTRACT.md §3.13
 */
export type { Diagnostic, DiagnosticKind, Range } from './diagnostic.js';
export { type FormatResult, formatMthds, warmFormatter } from './format-mthds.js';
export { FORMAT_OPTIONS, type FormatOptions } from './format-options.js';
export { lintMthds } from './lint-mthds.js';
