/**
 * Building a {@link Library} from checked blueprints: natives materialised, concepts and pipes keyed by qualified ref,
 * references qualified where they resolve (kept as written where they do not, for the rules to report).
 */
import type { ConceptBlueprint, ConceptFieldBlueprint } from '../parse/concept-blueprint.js';
import { parseConceptRef, splitPresence, stripMultiplicity } from '../references.js';
import type { Concept, ConceptField, Domain, Pipe, PipeIO } from './concept.js';
import type { LoadedBundle } from './library.js';
import { MthdsLibrary } from './mthds-library.js';
import { NATIVE_CONCEPTS, NATIVE_DOMAIN } from './natives.js';
import { reconciles } from './signature-reconciliation.js';

function nativeConcepts(): Concept[] {
  return [...NATIVE_CONCEPTS.values()].map((native) => ({
    ref: `${NATIVE_DOMAIN}.${native.code}`,
    code: native.code,
    domain_code: NATIVE_DOMAIN,
    description: native.description,
    refines: native.refines ?? null,
    structure: null,
    structure_class_name: native.structureClassName,
    isNative: true,
  }));
}

function normaliseField(field: string | ConceptFieldBlueprint): ConceptField {
  if (typeof field === 'string') return { type: 'text', description: field, required: false };
  const normalised: ConceptField = { description: field.description, required: field.required ?? false };
  if (field.type !== undefined && !(field.type === 'text' && field.choices !== undefined)) normalised.type = field.type;
  if (field.choices !== undefined) normalised.choices = field.choices;
  if (field.item_type !== undefined) normalised.item_type = field.item_type;
  if (field.item_concept_ref !== undefined) normalised.item_concept_ref = field.item_concept_ref;
  if (field.concept_ref !== undefined) normalised.concept_ref = field.concept_ref;
  if (field.key_type !== undefined) normalised.key_type = field.key_type;
  if (field.value_type !== undefined) normalised.value_type = field.value_type;
  if (field.default_value !== undefined) normalised.default_value = field.default_value;
  return normalised;
}

function declaredConcept(domain: string, code: string, blueprint: ConceptBlueprint | string): Concept {
  const table: ConceptBlueprint =
    typeof blueprint === 'string'
      ? { description: blueprint, structure: undefined, refines: undefined, hints: undefined }
      : blueprint;
  const structure =
    typeof table.structure === 'object' && table.structure !== null
      ? Object.fromEntries(Object.entries(table.structure).map(([name, field]) => [name, normaliseField(field)]))
      : null;
  return {
    ref: `${domain}.${code}`,
    code,
    domain_code: domain,
    description: table.description,
    refines: table.refines ?? null,
    structure,
    structure_class_name: structure ? code : 'TextContent',
    isNative: false,
  };
}

function qualify(library: MthdsLibrary, ref: string, fromDomain: string): string {
  return library.findConcept(ref, fromDomain)?.ref ?? stripMultiplicity(ref);
}

function qualifyConcepts(library: MthdsLibrary, concepts: Concept[]): void {
  for (const concept of concepts) {
    if (concept.refines !== null) concept.refines = qualify(library, concept.refines, concept.domain_code);
    for (const field of Object.values(concept.structure ?? {})) {
      if (field.concept_ref) field.concept_ref = qualify(library, field.concept_ref, concept.domain_code);
      if (field.item_concept_ref)
        field.item_concept_ref = qualify(library, field.item_concept_ref, concept.domain_code);
    }
  }
  for (const concept of concepts) {
    if (concept.structure !== null || concept.refines === null) continue;
    const shape = library.ancestry(concept).find((ancestor) => ancestor.isNative || ancestor.structure !== null);
    concept.structure_class_name = shape ? shape.structure_class_name : 'TextContent';
  }
}

function pipeIO(library: MthdsLibrary, name: string, spec: string, domain: string): PipeIO {
  const { ref: raw, presence } = splitPresence(spec);
  return {
    name,
    conceptRef: qualify(library, raw, domain),
    multiplicity: parseConceptRef(raw)?.multiplicity ?? 'single',
    raw,
    presence,
  };
}

function outputOf(library: MthdsLibrary, spec: string, domain: string): Pipe['output'] {
  const { conceptRef, multiplicity, raw, presence } = pipeIO(library, 'output', spec, domain);
  return { conceptRef, multiplicity, raw, presence };
}

function domainsOf(bundles: readonly LoadedBundle[]): Map<string, Domain> {
  const domains = new Map<string, Domain>();
  for (const { blueprint } of bundles) {
    const domain = domains.get(blueprint.domain) ?? { code: blueprint.domain };
    domain.description ??= blueprint.description;
    domain.system_prompt ??= blueprint.system_prompt;
    domain.main_pipe ??= blueprint.main_pipe;
    for (const key of ['description', 'system_prompt', 'main_pipe'] as const)
      if (domain[key] === undefined) delete domain[key];
    domains.set(blueprint.domain, domain);
  }
  return domains;
}

/**
 * Build the library of checked bundles. Duplicates keep the first declaration (the duplicate rule reports them), except
 * that a concrete pipe replaces a signature of the same code and contract, in either order
 * (docs/pipes.md#pipesignature).
 * @param bundles - bundles whose blueprints passed the schema check
 */
export function buildLibrary(bundles: readonly LoadedBundle[]): MthdsLibrary {
  const concepts = new Map<string, Concept>(nativeConcepts().map((concept) => [concept.ref, concept]));
  const declared: Concept[] = [];
  for (const { blueprint } of bundles) {
    for (const [code, table] of Object.entries(blueprint.concept)) {
      const concept = declaredConcept(blueprint.domain, code, table);
      if (concepts.has(concept.ref)) continue;
      concepts.set(concept.ref, concept);
      declared.push(concept);
    }
  }
  const domains = domainsOf(bundles);
  const conceptsOnly = new MthdsLibrary(bundles, concepts, new Map(), domains);
  qualifyConcepts(conceptsOnly, declared);
  const pipes = new Map<string, Pipe>();
  for (const { blueprint, source } of bundles) {
    for (const [code, pipeBlueprint] of Object.entries(blueprint.pipe)) {
      const ref = `${blueprint.domain}.${code}`;
      const earlier = pipes.get(ref);
      if (earlier && !(earlier.type === 'PipeSignature' && reconciles(earlier.blueprint, pipeBlueprint))) continue;
      pipes.set(ref, {
        ref,
        code,
        domain_code: blueprint.domain,
        type: pipeBlueprint.type,
        description: pipeBlueprint.description,
        inputs: Object.entries(pipeBlueprint.inputs ?? {}).map(([name, raw]) =>
          pipeIO(conceptsOnly, name, raw, blueprint.domain),
        ),
        output: outputOf(conceptsOnly, pipeBlueprint.output, blueprint.domain),
        blueprint: pipeBlueprint,
        source,
      });
    }
  }
  return new MthdsLibrary(bundles, concepts, pipes, domains);
}
