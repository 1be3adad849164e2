/**
 * The MTHDS template filters (docs/template-rendering.md#the-tag-filter, docs/template-rendering.md#the-format-filter,
 * docs/templates.md#filters): `format`, `tag`, `escape_script_tag`,
 * `with_images`, `markdown`.
 */
import { Jinja2TemplateRenderError } from '../errors/index.js';
import { markdownToHtml } from './markdown.js';
import { pythonStr } from './python-str.js';
import { isRenderable, type TextFormat } from './renderable.js';

/** How `tag` delimits a value (docs/templates.md). */
export type TagStyle = 'no_tag' | 'ticks' | 'xml' | 'square_brackets';

const TEXT_FORMATS: readonly TextFormat[] = ['plain', 'markdown', 'html', 'json'];

/**
 * `format(text_format?)`: a Renderable in the requested format, else Python `str()`; undefined renders empty.
 * @param value - the filtered value
 * @param textFormat - `plain`, `markdown`, `html` or `json`
 * @param defaultFormat - the format when none is given
 * @throws Jinja2TemplateRenderError for an unknown format
 */
export function formatFilter(value: unknown, textFormat: unknown, defaultFormat: TextFormat): string {
  const chosen = textFormat === undefined ? defaultFormat : textFormat;
  if (!TEXT_FORMATS.includes(chosen as TextFormat)) {
    throw new Jinja2TemplateRenderError(
      `format(): unknown text format '${String(chosen)}' (allowed: ${TEXT_FORMATS.join(', ')}).`,
    );
  }
  if (value === undefined) return '';
  if (isRenderable(value)) return value.renderAs(chosen as TextFormat);
  if (chosen === 'json') return JSON.stringify(value);
  return pythonStr(value);
}

/**
 * `tag(name?)`: the formatted value wrapped per tag style.
 * @param value - the filtered value; undefined is an error (unlike `format`)
 * @param name - the tag name (the shorthand passes the variable path)
 * @param style - the tag style of the render
 * @param defaultFormat - format of the wrapped value
 * @throws Jinja2TemplateRenderError when the value is undefined
 */
export function tagFilter(value: unknown, name: unknown, style: TagStyle, defaultFormat: TextFormat): string {
  if (value === undefined) {
    throw new Jinja2TemplateRenderError(
      `tag(): the variable${name === undefined ? '' : ` '${String(name)}'`} is undefined.`,
    );
  }
  const text = formatFilter(value, undefined, defaultFormat);
  const label = name === undefined || name === null ? undefined : String(name);
  switch (style) {
    case 'no_tag':
      return text;
    case 'ticks':
      return label === undefined ? `\`\`\`\n${text}\n\`\`\`` : `${label}: \`\`\`\n${text}\n\`\`\``;
    case 'xml':
      return `<${label ?? 'data'}>\n${text}\n</${label ?? 'data'}>`;
    case 'square_brackets':
      return `[${label ?? 'data'}]\n${text}\n[/${label ?? 'data'}]`;
  }
}

/**
 * `escape_script_tag()`: neutralise `</script` so the text can sit inside a script element.
 * @param value - the filtered value
 */
export function escapeScriptTagFilter(value: unknown): string {
  return (isRenderable(value) ? value.toString() : pythonStr(value ?? '')).replace(/<\/script/gi, '<\\/script');
}

/**
 * `markdown()`: the value's plain rendering (a Markdown artefact: its source) converted to HTML; raw HTML of the
 * source shows as text and only links with a scheme become anchors. Undefined and None render empty.
 * @param value - the filtered value
 * @returns the HTML, to be marked safe by the caller (it is already escaped)
 */
export function markdownFilter(value: unknown): string {
  if (value === undefined || value === null) return '';
  return markdownToHtml(isRenderable(value) ? value.toString() : pythonStr(value));
}
