/**
 * Public surface of `shared/templating`: MTHDS templates (Jinja2 syntax plus the `$x` / `@x` / `@?x` shorthands),
 * rendered by a hardened nunjucks.
 */

export type { TemplateCategory } from './categories.js';
export type { TagStyle } from './filters.js';
export { oversizedLiteralCalls } from './literal-arguments.js';
export { defineHtmlRendering, markdownToHtml } from './markdown.js';
export { unguardedOptionalReads } from './optional-guards.js';
export { configureTemplateLimits, type TemplateLimits, templateLimits } from './output-budget.js';
export {
  checkTemplate,
  type RenderOptions,
  renderTemplate,
  type TemplateBatch,
  templateBatch,
} from './render-template.js';
export type { Renderable, TextFormat } from './renderable.js';
export { ALLOWED_PRIVATE } from './sandbox.js';
export { expandShorthands } from './shorthands.js';
export {
  isStraightLine,
  type TemplateVariables,
  templatePrivateNames,
  templateVariables,
} from './template-readings.js';
