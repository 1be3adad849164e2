/**
 * The inputs template of `POST /v1/build/inputs` (spec §4.8; docs/codegen.md#post-v1buildinputs): a static read of a
 * pipe's
 * declared inputs, in authored order, with placeholder contents. Light form: a text-like input is a bare string (a
 * list of strings for a list), any other input its content object (a list of them). Explicit form: every input is
 * `{concept, content}` with the qualified concept ref. A list holds one item, or N for a fixed `[N]`. An input declared
 * optional (`X?`, docs/language.md#optionality-presence-markers-and-absences) is in the template too, with a
 * placeholder: the TOML form says it may be left
 * out.
 */
import { stringify } from 'smol-toml';
import type { Library, Pipe } from '../mthds/index.js';
import { placeholderContent, repeatByMultiplicity } from './placeholder.js';
import type { TypeSet } from './type-model.js';

/**
 * The template as a JSON object, keyed by input name.
 * @param library - the closure's library
 * @param types - its type model
 * @param pipe - the selected pipe
 * @param explicit - emit `{concept, content}` for every input
 */
export function inputsTemplate(
  library: Library,
  types: TypeSet,
  pipe: Pipe,
  explicit: boolean,
): Record<string, unknown> {
  const template: Record<string, unknown> = {};
  for (const input of pipe.inputs) {
    const concept = library.resolveConcept(input.conceptRef, pipe.domain_code);
    const content = placeholderContent(types, concept.ref);
    if (explicit)
      template[input.name] = { concept: concept.ref, content: repeatByMultiplicity(input.multiplicity, content) };
    else
      template[input.name] = repeatByMultiplicity(
        input.multiplicity,
        library.isTextLike(concept) ? content['text'] : content,
      );
  }
  return template;
}

function isTable(value: unknown): boolean {
  if (Array.isArray(value))
    return value.length > 0 && value.every((item) => item !== null && typeof item === 'object' && !Array.isArray(item));
  return value !== null && typeof value === 'object';
}

/** An input's spec as declared, presence marker included, and what an optional one may do. */
function declaredSpec(input: Pipe['inputs'][number]): string {
  if (input.presence === 'optional') return `${input.raw}? (optional: may be left out)`;
  return input.presence === 'force' ? `${input.raw}!` : input.raw;
}

/**
 * The template as TOML text: one `# <name>: <concept ref as declared>` comment above each input (with its presence
 * marker; an optional input's comment says it may be left out); plain values first, then tables (TOML cannot put a
 * plain key after a table). Empty for a pipe without inputs.
 * @param pipe - the selected pipe
 * @param template - the JSON template of {@link inputsTemplate}
 */
export function inputsTemplateToml(pipe: Pipe, template: Record<string, unknown>): string {
  const declared = new Map(pipe.inputs.map((input) => [input.name, declaredSpec(input)]));
  const names = Object.keys(template);
  const ordered = [
    ...names.filter((name) => !isTable(template[name])),
    ...names.filter((name) => isTable(template[name])),
  ];
  return ordered
    .map((name) => `# ${name}: ${declared.get(name) ?? ''}\n${stringify({ [name]: template[name] })}`)
    .join('\n');
}
