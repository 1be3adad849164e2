/**
 * The MTHDS template shorthands, expanded before Jinja parsing (docs/templates.md,
 * docs/template-rendering.md#shorthand-expansion):
 * `$x` → `{{ x|format() }}`, `@x` → `{{ x|tag("x") }}`, `@?x` → `{% if x %}{{ x|tag("x") }}{% endif %}`.
 *
 * Rules: `@@` and `$$` are escapes for a literal `@` / `$`; `@x` and `@?x` need a non-word character before them (so
 * `ann@example.com` stays literal); a digit after the sigil never matches (`$100`); the path is `ident(.ident)*` and a
 * trailing `.` stays punctuation; CSS-like shapes (`@media (`, `@keyframes name {`) stay literal; nothing is expanded
 * inside raw Jinja (`{{ … }}`, `{% … %}`, `{# … #}`).
 */

const IDENT_PATH = '[A-Za-z_][A-Za-z0-9_]*(?:\\.[A-Za-z_][A-Za-z0-9_]*)*';
const JINJA_REGION = /\{\{[\s\S]*?\}\}|\{%[\s\S]*?%\}|\{#[\s\S]*?#\}/g;
const SHORTHAND = new RegExp(`(@@|\\$\\$)|(?<![A-Za-z0-9_])(@\\?|@)(${IDENT_PATH})|\\$(${IDENT_PATH})`, 'g');
const CSS_AT_RULE = /^(?:\s*\(|\s+[A-Za-z0-9_-]+\s*\{)/;

function expandPlainText(text: string, guardRoots: boolean): string {
  return text.replace(
    SHORTHAND,
    (
      match: string,
      escaped: string | undefined,
      atSigil: string | undefined,
      atPath: string | undefined,
      dollarPath: string | undefined,
      offset: number,
    ) => {
      if (escaped !== undefined) return escaped[0]!;
      if (atSigil !== undefined && atPath !== undefined) {
        const after = text.slice(offset + match.length);
        if (atSigil === '@' && CSS_AT_RULE.test(after)) return match;
        const tagged = `{{ ${atPath}|tag("${atPath}") }}`;
        if (atSigil !== '@?') return tagged;
        const root = atPath.split('.')[0]!;
        const test = guardRoots && root !== atPath ? `${root} and ${atPath}` : atPath;
        return `{% if ${test} %}${tagged}{% endif %}`;
      }
      return `{{ ${dollarPath}|format() }}`;
    },
  );
}

/**
 * Expand the shorthands of a template.
 * @param template - template text as written in a bundle
 * @param options - `guardRoots`: expand `@?x.y` testing `x and x.y`, as the guard lint reads it (an `@?` reads its
 *   path only once its root is present; docs/language.md#optionality-presence-markers-and-absences)
 * @returns pure Jinja text
 * @see docs/template-rendering.md#shorthand-expansion
 */
export function expandShorthands(template: string, options: { guardRoots?: boolean } = {}): string {
  const guardRoots = options.guardRoots ?? false;
  let result = '';
  let last = 0;
  for (const region of template.matchAll(JINJA_REGION)) {
    result += expandPlainText(template.slice(last, region.index), guardRoots) + region[0];
    last = region.index + region[0].length;
  }
  return result + expandPlainText(template.slice(last), guardRoots);
}
