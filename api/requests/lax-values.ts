/**
 * Request values sent as strings where a boolean or an integer is declared, read as the reference server reads them
 * (its models validate in lax mode; docs/api.md#lax-values). Some clients type every field of a form as text: the n8n
 * node sends `output_multiplicity: "1"`.
 */

/** The words lax mode reads as booleans, case aside (no surrounding space allowed). */
const BOOLEAN_WORDS: ReadonlyMap<string, boolean> = new Map([
  ['true', true],
  ['t', true],
  ['yes', true],
  ['y', true],
  ['on', true],
  ['1', true],
  ['false', false],
  ['f', false],
  ['no', false],
  ['n', false],
  ['off', false],
  ['0', false],
]);

/**
 * An integer as lax mode reads it from text: surrounding whitespace ignored, an optional sign, digits with single
 * underscores between them, and an optional fraction of zeros only (`"2.0"`).
 */
const INTEGER_TEXT = /^([+-]?\d+(?:_\d+)*)(?:\.0+)?$/;

/**
 * Read a string declared `bool | int`, as lax mode does: a boolean word first (so `"1"` is `true` and `"0"` `false`),
 * else an integer (`"3"` is 3).
 * @param text - the value as sent
 * @returns the boolean or the integer, or undefined when the text is neither (the field's own check then refuses it)
 */
export function laxBooleanOrInteger(text: string): boolean | number | undefined {
  const word = BOOLEAN_WORDS.get(text.toLowerCase());
  if (word !== undefined) return word;
  const digits = INTEGER_TEXT.exec(text.trim())?.[1];
  if (digits === undefined) return undefined;
  const value = Number(digits.replaceAll('_', ''));
  return Number.isFinite(value) ? value : undefined;
}
