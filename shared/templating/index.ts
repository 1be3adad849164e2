/**
 * Public surface of `shared/templating`: MTHDS templates (Jinja2 syntax plus the `$x` / `@x` / `@?x` shorthands),
 * rendered by a hardened nunjucks.
 */
export { expandShorthands } from './shorthands.js';
export { templateVariables, type TemplateVariables } from './template-ast.js';
export { checkTemplate, renderTemplate, type RenderOptions } from './render-template.js';
export { type TemplateCategory } from './categories.js';
export type { TagStyle } from './filters.js';
export { type Renderable, type TextFormat } from './renderable.js';

export { oversizedLiteralCalls } from './literal-arguments.js';
export { configureTemplateLimits, templateLimits, type TemplateLimits } from './output-budget.js';
