/**
 * S5: every concept reference resolves (LANGUAGE.md §5.3): pipe inputs and outputs, `combined_output`, `refines`,
 * `concept_ref` and `item_concept_ref`. Cross-package references (`x->domain.Code`) are deferred to package loading.
 * A bare name resolves among the natives and the same domain; compat mode also accepts the single loaded domain
 * declaring it (spec §2.3 rule 2).
 */
import type { ValidationErrorItem } from '../../errors/index.js';
import type { Library } from '../library.js';
import { parseConceptRef, stripMultiplicity } from '../references.js';
import { aboutPipe, pipesOf, type Rule, type ValidationMode } from './rule.js';

/**
 * Why a concept reference does not resolve, or undefined when it does (or is deferred).
 * @param library - the library
 * @param ref - as written
 * @param fromDomain - where it is written
 * @param mode - strict refuses bare cross-domain references
 */
export function conceptRefProblem(library: Library, ref: string, fromDomain: string, mode: ValidationMode): string | undefined {
  const parts = parseConceptRef(ref);
  if (!parts) return `'${ref}' is not a concept reference (expected Code, domain.Code, optionally with [] or [N])`;
  if (parts.packageRef !== undefined) return undefined;
  const found = library.findConcept(ref, fromDomain);
  if (!found) return `concept '${stripMultiplicity(ref)}' is not declared and is not native`;
  if ('ambiguous' in found) return `concept '${parts.code}' is declared in several domains (${found.ambiguous.map((concept) => concept.ref).join(', ')}); write domain.${parts.code}`;
  if (mode === 'strict' && parts.domain === undefined && !found.isNative && found.domain_code !== fromDomain) {
    return `concept '${parts.code}' is in domain '${found.domain_code}'; write ${found.ref}`;
  }
  return undefined;
}

function item(message: string, ref: string, extra: Partial<ValidationErrorItem>): ValidationErrorItem {
  return {
    category: 'pipe_validation',
    message,
    error_type: 'unresolved_concept',
    missing_concept_code: stripMultiplicity(ref),
    ...extra,
  };
}

export const unresolvedConcepts: Rule = {
  id: 'S5-unresolved-concepts',
  stage: 'S5',
  severity: 'error',
  see: 'LANGUAGE.md §5.3',
  check: (context) => {
    const { library, mode } = context;
    const items: ValidationErrorItem[] = [];
    for (const pipe of pipesOf(context)) {
      const declared = [...library.concepts.values()].filter((concept) => !concept.isNative).map((concept) => concept.ref);
      const refs: [string, string][] = [
        ...Object.entries(pipe.blueprint.inputs ?? {}).map(([name, ref]): [string, string] => [`inputs.${name}`, ref]),
        ['output', pipe.blueprint.output],
      ];
      if (pipe.blueprint.type === 'PipeParallel' && pipe.blueprint.combined_output) refs.push(['combined_output', pipe.blueprint.combined_output]);
      for (const [field, ref] of refs) {
        const problem = conceptRefProblem(library, ref, pipe.domain_code, mode);
        if (problem === undefined) continue;
        items.push(
          item(`Pipe '${pipe.code}', ${field}: ${problem}.`, ref, {
            ...aboutPipe(pipe),
            field_path: `pipe.${pipe.code}.${field}`,
            field_name: field.split('.').pop()!,
            declared_concepts: declared,
          }),
        );
      }
    }
    for (const { blueprint, source } of context.bundles) {
      for (const [code, concept] of Object.entries(blueprint.concept)) {
        if (typeof concept === 'string') continue;
        const refs: [string, string][] = concept.refines ? [['refines', concept.refines]] : [];
        if (typeof concept.structure === 'object') {
          for (const [name, field] of Object.entries(concept.structure)) {
            if (typeof field === 'string') continue;
            if (field.concept_ref) refs.push([`structure.${name}.concept_ref`, field.concept_ref]);
            if (field.item_concept_ref) refs.push([`structure.${name}.item_concept_ref`, field.item_concept_ref]);
          }
        }
        for (const [field, ref] of refs) {
          const problem = conceptRefProblem(library, ref, blueprint.domain, mode);
          if (problem === undefined) continue;
          items.push(
            item(`Concept '${code}', ${field}: ${problem}.`, ref, {
              category: 'blueprint_validation',
              source,
              concept_code: code,
              domain_code: blueprint.domain,
              field_path: `concept.${code}.${field}`,
            }),
          );
        }
      }
    }
    return items;
  },
};
