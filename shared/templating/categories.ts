/**
 * Template categories and what each allows (docs/template-rendering.md#categories, docs/templates.md#categories): Jinja
 * environment settings and
 * the MTHDS filters available (`markdown` in html templates only). The standard nunjucks builtins (`length`, `join`,
 * `upper`, `default`, …) are available everywhere.
 */

/** Where a template is used. */
export type TemplateCategory =
  | 'basic'
  | 'expression'
  | 'html'
  | 'markdown'
  | 'mermaid'
  | 'llm_prompt'
  | 'img_gen_prompt';

/** The MTHDS filters. */
export type MthdsFilter = 'format' | 'tag' | 'escape_script_tag' | 'with_images' | 'markdown';

/** Settings of one category. */
export interface CategorySettings {
  autoescape: boolean;
  trimBlocks: boolean;
  filters: readonly MthdsFilter[];
}

/** The table of docs/template-rendering.md#categories. */
export const TEMPLATE_CATEGORIES: Readonly<Record<TemplateCategory, CategorySettings>> = {
  basic: { autoescape: false, trimBlocks: false, filters: ['format', 'tag'] },
  expression: { autoescape: false, trimBlocks: false, filters: [] },
  html: { autoescape: true, trimBlocks: true, filters: ['format', 'tag', 'escape_script_tag', 'markdown'] },
  markdown: { autoescape: false, trimBlocks: true, filters: ['format', 'tag', 'escape_script_tag'] },
  mermaid: { autoescape: false, trimBlocks: false, filters: [] },
  llm_prompt: { autoescape: false, trimBlocks: false, filters: ['format', 'tag', 'with_images'] },
  img_gen_prompt: { autoescape: false, trimBlocks: false, filters: ['format', 'tag', 'with_images'] },
};

/** Every MTHDS filter name. */
export const MTHDS_FILTERS: readonly MthdsFilter[] = ['format', 'tag', 'escape_script_tag', 'with_images', 'markdown'];
