/**
 * Checking and rendering templates with Jinja2 semantics (hardened nunjucks; docs/template-rendering.md).
 */
import { LRUCache } from 'lru-cache';
import {
  Jinja2TemplateBudgetError,
  Jinja2TemplateRenderError,
  Jinja2TemplateSecurityError,
  Jinja2TemplateSyntaxError,
  Jinja2TemplateUndefinedError,
  MthdsError,
} from '../errors/index.js';
import { installCappedBuiltins } from './capped-builtins.js';
import { MTHDS_FILTERS, type MthdsFilter, TEMPLATE_CATEGORIES, type TemplateCategory } from './categories.js';
import { escapeScriptTagFilter, formatFilter, markdownFilter, type TagStyle, tagFilter } from './filters.js';
import { installJinjaCompat, JINJA_TESTS } from './jinja-compat.js';
import { maxOutputChars, outputBudgetError, type TemplateLimits, templateLimits } from './output-budget.js';
import { isRenderable, type TextFormat } from './renderable.js';
import { cappedRange, hardenedNunjucks, withLoopBudget } from './sandbox.js';
import { expandShorthands } from './shorthands.js';
import { compileTemplate } from './template-compiler.js';
import { readTemplate } from './template-readings.js';

/** How to render. */
export interface RenderOptions {
  category: TemplateCategory;
  /**
   * Delimiters of `tag` / `@x`. Default `xml`: the reference's configured default for prompts, never derived from the
   * model (docs/template-rendering.md#the-tag-filter).
   */
  tagStyle?: TagStyle;
  /** Default format of `format` / `$x`. Default `plain`. */
  textFormat?: TextFormat;
  /** The output budget; the process's configured limits (`templateLimits()`) by default. */
  limits?: TemplateLimits;
  /**
   * Strict undefined (PipeDocGen's compose stage, docs/document-generation.md): printing an undefined value throws
   * `Jinja2TemplateUndefinedError` instead of printing nothing. None prints as `None` either way.
   */
  strictUndefined?: boolean;
}

/** The nunjucks builtin filters templates may use; `random` is excluded so renders stay deterministic. */
const BUILTIN_FILTERS = new Set(
  Object.keys((new hardenedNunjucks.Environment() as unknown as { filters: Record<string, unknown> }).filters).filter(
    (name) => name !== 'random',
  ),
);

/**
 * Check a template: it parses, loads no other template, uses only filters its category allows and only Jinja2's
 * tests.
 * @param template - template text as written
 * @param category - where it is used
 * @throws Jinja2TemplateSyntaxError naming the offending filter, test or tag
 * @see docs/rules.md#pipes-s4
 */
export function checkTemplate(template: string, category: TemplateCategory): void {
  const reader = readTemplate(template);
  if (reader.loadingTags.size > 0) {
    throw new Jinja2TemplateSyntaxError(
      `Template syntax error: ${[...reader.loadingTags].join(', ')} is not allowed; a template cannot load other templates.`,
    );
  }
  const allowed = TEMPLATE_CATEGORIES[category].filters;
  for (const filter of reader.filters) {
    const isMthds = (MTHDS_FILTERS as readonly string[]).includes(filter);
    if (isMthds ? !allowed.includes(filter as MthdsFilter) : !BUILTIN_FILTERS.has(filter)) {
      throw new Jinja2TemplateSyntaxError(
        `Template syntax error: filter '${filter}' is not allowed in a ${category} template (MTHDS filters allowed here: ${allowed.join(', ') || 'none'}).`,
      );
    }
  }
  for (const test of reader.tests) {
    if (!JINJA_TESTS.has(test))
      throw new Jinja2TemplateSyntaxError(
        `Template syntax error: there is no test named '${test}' (tests: ${[...JINJA_TESTS].join(', ')}).`,
      );
  }
}

/**
 * Builtin filters that work on strings: a content artefact is given to them as its plain rendering (Jinja2's `str()`).
 */
const STRING_FILTERS = [
  'capitalize',
  'center',
  'escape',
  'e',
  'forceescape',
  'indent',
  'lower',
  'nl2br',
  'replace',
  'string',
  'striptags',
  'title',
  'trim',
  'truncate',
  'upper',
  'urlencode',
  'urlize',
  'wordcount',
  'float',
  'int',
];

type Environment = InstanceType<typeof hardenedNunjucks.Environment>;
type Template = InstanceType<typeof hardenedNunjucks.Template>;

/**
 * Bytes of compiled templates kept by the process, estimated (32 MiB): a large library's templates stay compiled
 * between its requests (a cache bounded by a number of entries is swept through by a larger library, which is then
 * compiled again on every validate).
 */
const COMPILED_TEMPLATES_MAX_BYTES = 32 * 1024 * 1024;
/**
 * Estimated bytes of one compiled template: a fixed part, plus a part per character of its text (measured: about 4.6
 * KiB for 80 characters).
 */
const compiledBytes = (text: string) => 4096 + 32 * text.length;

const environments = new Map<string, Environment>();
/** Compiled templates by environment key and text (the least recently used dropped first). */
const compiledTemplates = new LRUCache<string, Template>({
  maxSize: COMPILED_TEMPLATES_MAX_BYTES,
  sizeCalculation: (_template, key) => compiledBytes(key),
});

/** Finds or compiles the template of a source under some render options. */
type TemplateSource = (options: RenderOptions, source: string) => Template;

function environmentKey(options: RenderOptions): string {
  return `${options.category}|${options.tagStyle ?? ''}|${options.textFormat ?? ''}|${options.strictUndefined ? 'strict' : ''}`;
}

const cachedTemplate: TemplateSource = (options, source) => {
  const environmentName = environmentKey(options);
  const key = `${environmentName}|${source}`;
  let template = compiledTemplates.get(key);
  if (!template) {
    let environment = environments.get(environmentName);
    if (!environment) {
      environment = environmentFor(options);
      environments.set(environmentName, environment);
    }
    checkTemplate(source, options.category);
    template = compileTemplate(expandShorthands(source), environment);
    compiledTemplates.set(key, template);
  }
  return template;
};

function environmentFor(options: RenderOptions): Environment {
  const settings = TEMPLATE_CATEGORIES[options.category];
  const tagStyle = options.tagStyle ?? 'xml';
  const textFormat = options.textFormat ?? 'plain';
  const environment = new hardenedNunjucks.Environment(null, {
    autoescape: settings.autoescape,
    trimBlocks: settings.trimBlocks,
    lstripBlocks: settings.trimBlocks,
    throwOnUndefined: options.strictUndefined === true,
  });
  const filters: Record<MthdsFilter, (...args: unknown[]) => unknown> = {
    format: (value, format) => formatFilter(value, format, textFormat),
    tag: (value, name) => tagFilter(value, name, tagStyle, textFormat),
    escape_script_tag: (value) => escapeScriptTagFilter(value),
    with_images: (value) => formatFilter(value, undefined, textFormat),
    markdown: (value) => new hardenedNunjucks.runtime.SafeString(markdownFilter(value)),
  };
  environment.addGlobal('range', cappedRange);
  installJinjaCompat(environment);
  for (const name of settings.filters) environment.addFilter(name, filters[name]);
  installCappedBuiltins(environment);
  for (const name of STRING_FILTERS) {
    const builtin = environment.getFilter(name) as (...args: unknown[]) => unknown;
    environment.addFilter(name, (value: unknown, ...args: unknown[]) =>
      builtin(isRenderable(value) ? value.toString() : value, ...args),
    );
  }
  return environment;
}

const WRAPPED_CLASSES: Record<string, new (message: string, options: { cause: unknown }) => MthdsError> = {
  Jinja2TemplateSecurityError,
  Jinja2TemplateUndefinedError,
  Jinja2TemplateBudgetError,
  Jinja2TemplateRenderError,
};

function renderFailure(error: unknown, limits: TemplateLimits): MthdsError {
  if (error instanceof MthdsError) return error;
  const message = error instanceof Error ? error.message : String(error);
  if (message.includes('Invalid string length'))
    return outputBudgetError('the rendered text would be longer than a JavaScript string can be', limits);
  for (const [name, ErrorClass] of Object.entries(WRAPPED_CLASSES)) {
    const at = message.indexOf(`${name}: `);
    if (at >= 0) return new ErrorClass(message.slice(at + name.length + 2).trim(), { cause: error });
  }
  return new Jinja2TemplateRenderError(`Template render error: ${message.replace(/^\(unknown path\)\s*/, '').trim()}`, {
    cause: error,
  });
}

function renderWith(
  source: TemplateSource,
  template: string,
  context: Record<string, unknown>,
  options: RenderOptions,
): string {
  const compiled = source(options, template);
  const limits = options.limits ?? templateLimits();
  let text: string;
  try {
    text = withLoopBudget(() => compiled.render(context), limits);
  } catch (error) {
    throw renderFailure(error, limits);
  }
  if (text.length > maxOutputChars(limits))
    throw outputBudgetError(`the rendered text would be ${text.length} characters`, limits);
  return text;
}

/**
 * Render a template against a context.
 * @param template - template text as written (shorthands allowed)
 * @param context - variables: content artefacts (see `Renderable`), plain values, run parameters
 * @param options - category, tag style, default text format, output budget
 * @returns the rendered text
 * @throws Jinja2TemplateSyntaxError, Jinja2TemplateRenderError, Jinja2TemplateSecurityError, Jinja2TemplateBudgetError
 *   (all 422; the budget error names `TEMPLATE_MAX_OUTPUT_KIB` when the output budget is the one exceeded)
 * @see docs/template-rendering.md
 */
export function renderTemplate(template: string, context: Record<string, unknown>, options: RenderOptions): string {
  return renderWith(cachedTemplate, template, context, options);
}

/** A batch of renders sharing their compiled templates (see {@link templateBatch}). */
export interface TemplateBatch {
  /** {@link renderTemplate}, compiling each template (per category, tag style and text format) once per batch. */
  render(template: string, context: Record<string, unknown>, options: RenderOptions): string;
}

/**
 * Start a batch of renders that keeps every template it compiles until the batch is dropped, however many there are:
 * a library's dry runs render each of its templates several times, and a library larger than the process-wide cache
 * ({@link COMPILED_TEMPLATES_MAX_BYTES}) would otherwise compile its templates again on every visit. Templates the
 * process-wide cache holds are reused, and those the batch compiles are added to it.
 * @returns the batch; its memory is that of its compiled templates (a few KiB each)
 */
export function templateBatch(): TemplateBatch {
  const compiled = new Map<string, Template>();
  const source: TemplateSource = (options, text) => {
    const key = `${environmentKey(options)}|${text}`;
    let template = compiled.get(key);
    if (!template) {
      template = cachedTemplate(options, text);
      compiled.set(key, template);
    }
    return template;
  };
  return { render: (template, context, options) => renderWith(source, template, context, options) };
}
