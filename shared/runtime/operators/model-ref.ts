/**
 * The model reference of an operator's `model` field: the string as written, or the `model` of an inline setting
 * table (docs/language.md#model-references-and-the-deck).
 */

/**
 * Read a `model` field.
 * @param model - a string, an inline setting table, a `{kind, name, raw}` reference, or undefined
 * @returns the reference string, or undefined
 */
export function modelRefOf(model: string | { model: string } | { raw: string } | undefined): string | undefined {
  if (model === undefined) return undefined;
  if (typeof model === 'string') return model;
  return 'model' in model ? model.model : model.raw;
}
