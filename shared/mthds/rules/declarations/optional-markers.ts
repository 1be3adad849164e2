/**
 * S2: the grammar of presence markers (docs/language.md#optionality-presence-markers-and-absences). A marker never
 * combines with multiplicity (`X[]?`,
 * `X[2]!`; `X[1]?` is the single form and takes one), an output takes only `?`, and concepts, their `refines` and
 * their structure fields never carry a marker. Every misuse is `optional_marker_invalid`.
 * @see docs/language.md#optionality-presence-markers-and-absences
 */
import type { ValidationErrorItem } from '../../../errors/index.js';
import type { LoadedBundle } from '../../library/library.js';
import { MESSAGES } from '../../messages.js';
import type { ConceptBlueprint } from '../../parse/concept-blueprint.js';
import type { PipeBlueprint } from '../../parse/pipe-blueprints.js';
import { parseConceptRef, splitPresence } from '../../references.js';
import type { Rule } from '../rule.js';
import { bundleItem, conceptItem } from '../rule-item.js';

/** True when a spec's multiplicity is plural (`X[]`, `X[N]` with N > 1). */
function plural(ref: string): boolean {
  const multiplicity = parseConceptRef(ref)?.multiplicity;
  return multiplicity === 'variable' || (typeof multiplicity === 'number' && multiplicity > 1);
}

function pipeMarkerItem(
  bundle: LoadedBundle,
  pipe: string,
  field: string,
  name: string | undefined,
  message: string,
): ValidationErrorItem {
  const item = bundleItem(optionalMarkers, bundle, message, {
    field_path: `pipe.${pipe}.${field}`,
    field_name: name ?? field,
    ...(name === undefined ? {} : { variable_names: [name] }),
  });
  return { ...item, pipe_code: pipe };
}

function pipeItems(bundle: LoadedBundle, code: string, pipe: PipeBlueprint): ValidationErrorItem[] {
  const items: ValidationErrorItem[] = [];
  for (const [name, spec] of Object.entries(pipe.inputs ?? {})) {
    const { ref, marker } = splitPresence(spec);
    if (marker !== undefined && plural(ref))
      items.push(
        pipeMarkerItem(
          bundle,
          code,
          `inputs.${name}`,
          name,
          MESSAGES.optional_marker_plural({ pipe: code, slot: `input '${name}'`, spec: spec.trim(), marker }),
        ),
      );
  }
  const output = splitPresence(pipe.output);
  if (output.marker === '!')
    items.push(
      pipeMarkerItem(
        bundle,
        code,
        'output',
        undefined,
        MESSAGES.optional_marker_force_output({ pipe: code, spec: pipe.output.trim() }),
      ),
    );
  else if (output.marker === '?' && plural(output.ref))
    items.push(
      pipeMarkerItem(
        bundle,
        code,
        'output',
        undefined,
        MESSAGES.optional_marker_plural({ pipe: code, slot: 'output', spec: pipe.output.trim(), marker: '?' }),
      ),
    );
  return items;
}

function conceptItems(bundle: LoadedBundle, code: string, concept: ConceptBlueprint | string): ValidationErrorItem[] {
  if (typeof concept === 'string') return [];
  const refs: [field: string, spec: string | undefined][] = [['refines', concept.refines]];
  if (concept.structure !== undefined && typeof concept.structure !== 'string')
    for (const [name, field] of Object.entries(concept.structure))
      if (typeof field !== 'string')
        refs.push(
          [`structure.${name}.concept_ref`, field.concept_ref],
          [`structure.${name}.item_concept_ref`, field.item_concept_ref],
        );
  return refs
    .filter(
      (entry): entry is [string, string] => entry[1] !== undefined && splitPresence(entry[1]).marker !== undefined,
    )
    .map(([field, spec]) =>
      conceptItem(optionalMarkers, bundle, code, MESSAGES.optional_marker_concept({ concept: code, field, spec }), {
        field_path: `concept.${code}.${field}`,
        field_name: field.split('.').at(-1) ?? field,
      }),
    );
}

/** S2 presence-marker grammar (`optional_marker_invalid`). */
export const optionalMarkers: Rule = {
  id: 'S2-optional-markers',
  stage: 'S2',
  severity: 'error',
  category: 'blueprint_validation',
  error_type: 'optional_marker_invalid',
  see: 'docs/rules.md#s2-optional-markers',
  check: ({ bundles }) =>
    bundles.flatMap((bundle) => [
      ...Object.entries(bundle.blueprint.concept).flatMap(([code, concept]) => conceptItems(bundle, code, concept)),
      ...Object.entries(bundle.blueprint.pipe).flatMap(([code, pipe]) => pipeItems(bundle, code, pipe)),
    ]),
};
