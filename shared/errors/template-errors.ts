/**
 * Template failures (docs/template-rendering.md#sandbox-and-budget). All are input-domain: the bundle author can fix
 * them.
 */
import { MthdsError } from './mthds-error.js';

/** The template does not parse, or uses a filter its category does not allow. */
export class Jinja2TemplateSyntaxError extends MthdsError {}
/** Rendering failed (undefined variable under `tag`, a filter error, …). */
export class Jinja2TemplateRenderError extends MthdsError {}
/** The template tried a blocked lookup (`constructor`, `__proto__`, `prototype`, …). */
export class Jinja2TemplateSecurityError extends MthdsError {}
/** Rendering exceeded its time or output budget. */
export class Jinja2TemplateBudgetError extends MthdsError {}
/** A strict render (PipeDocGen's compose stage) printed a value that is undefined. */
export class Jinja2TemplateUndefinedError extends MthdsError {}
