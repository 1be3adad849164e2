/**
 * S4 PipeDocGen: the dotted reads of its `template` and `filename` (`invoice.customer.name`) name fields the input
 * concepts declare. The walk follows `concept` fields and lists of concepts; it stops, accepting the rest, at a native
 * or structureless concept, at a scalar field, at a private name (left to `S4-template-private-names`) and at a list
 * input (read through loops).
 * @see docs/document-generation.md
 */

import { templateVariables } from '../../../templating/index.js';
import type { Concept, ConceptField, Pipe } from '../../library/concept.js';
import type { Library } from '../../library/library.js';
import { MESSAGES } from '../../messages.js';
import type { Rule } from '../rule.js';
import { pipeField, pipeItem, pipesOfType } from '../rule-item.js';
import { readTemplate, templateSites } from './template-sites.js';

/** The first segment of a path its concepts do not have, with where it was looked up. */
interface UnknownSegment {
  segment: string;
  concept: Concept;
  available: string[];
}

function fieldsOf(library: Library, concept: Concept): Record<string, ConceptField> | null {
  if (concept.isNative) return null;
  return library.ancestry(concept).find((ancestor) => ancestor.structure !== null)?.structure ?? null;
}

function nextConcept(library: Library, field: ConceptField, from: Concept): Concept | undefined {
  const ref = field.type === 'concept' ? field.concept_ref : field.type === 'list' ? field.item_concept_ref : undefined;
  return ref === undefined ? undefined : library.findConcept(ref, from.domain_code);
}

function unknownSegment(library: Library, root: Concept, segments: readonly string[]): UnknownSegment | undefined {
  let concept: Concept | undefined = root;
  for (const segment of segments) {
    if (concept === undefined || segment.startsWith('_')) return undefined;
    const fields = fieldsOf(library, concept);
    if (fields === null) return undefined;
    const field = fields[segment];
    if (field === undefined) return { segment, concept, available: Object.keys(fields) };
    concept = nextConcept(library, field, concept);
  }
  return undefined;
}

function pathItems(library: Library, pipe: Pipe & { blueprint: { type: 'PipeDocGen' } }) {
  const inputs = new Map(pipe.inputs.map((input) => [input.name, input]));
  return templateSites(pipe).flatMap((site) => {
    if ('error' in readTemplate(site)) return [];
    return templateVariables(site.template).paths.flatMap((path) => {
      const [root, ...segments] = path.split('.');
      const input = root === undefined ? undefined : inputs.get(root);
      if (input === undefined || input.multiplicity !== 'single' || segments.length === 0) return [];
      const concept = library.findConcept(input.conceptRef, pipe.domain_code);
      const unknown = concept === undefined ? undefined : unknownSegment(library, concept, segments);
      if (unknown === undefined) return [];
      const message = MESSAGES.doc_gen_field_path({
        pipe: pipe.code,
        field: site.field,
        path,
        segment: unknown.segment,
        concept: unknown.concept.ref,
        available: unknown.available,
      });
      return [pipeItem(docGenFieldPaths, pipe, message, { ...pipeField(pipe, site.field), variable_names: [path] })];
    });
  });
}

/** S4 PipeDocGen field paths (`input_stuff_spec_mismatch`). */
export const docGenFieldPaths: Rule = {
  id: 'S4-doc-gen-field-paths',
  stage: 'S4',
  severity: 'error',
  category: 'pipe_validation',
  error_type: 'input_stuff_spec_mismatch',
  see: 'docs/rules.md#s4-doc-gen-field-paths',
  check: (context) => pipesOfType(context, 'PipeDocGen').flatMap((pipe) => pathItems(context.library, pipe)),
};
