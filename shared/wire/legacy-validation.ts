/**
 * The success body of the older `POST /validate` (spec §4.12; docs/api.md#older-unversioned-routes):
 * `{mthds_content, <runtime>_bundle_blueprint, pipe_structures, success: true, message}`, from the verdict of a valid
 * library. The blueprint member begins with this runner's own name (`mthds_runner_bundle_blueprint`, from
 * {@link IMPLEMENTATION_NAME}); it describes the bundle's domain, its concepts and its pipes, each concept and pipe keyed
 * by its code, with concepts and the pipes' inputs and output named by their qualified refs.
 */
import type { Multiplicity } from '../mthds/index.js';
import type { LibraryVerdict } from '../runtime/index.js';
import { IMPLEMENTATION_NAME } from '../version.js';
import { type IOStructure, type PipeStructure, pipeStructures } from './run-result.js';

/** The name of the blueprint member: the runner's name in snake case, then `_bundle_blueprint`. */
export const LEGACY_BLUEPRINT_MEMBER = `${IMPLEMENTATION_NAME.replaceAll('-', '_')}_bundle_blueprint`;

/** A concept of the older blueprint; `structure` is the concept's own fields, null when it has none. */
export interface LegacyConcept {
  /** Qualified ref, `domain.Code`. */
  concept_code: string;
  description: string;
  /** Qualified ref of the refined concept, or null. */
  refines: string | null;
  structure: Record<string, unknown> | null;
}

/** A pipe of the older blueprint: its declared inputs and output as `pipe_structures` writes them. */
export interface LegacyPipe {
  pipe_code: string;
  type: string;
  description: string;
  inputs: Record<string, IOStructure>;
  output: { concept_code: string; multiplicity: Multiplicity };
}

/** The older blueprint of the bundle. */
export interface LegacyBlueprint {
  domain: string;
  description: string | null;
  concepts: Record<string, LegacyConcept>;
  pipes: Record<string, LegacyPipe>;
}

/** The older success body; its {@link LegacyBlueprint} is the member named {@link LEGACY_BLUEPRINT_MEMBER}. */
export interface LegacyValidation {
  mthds_content: string;
  pipe_structures: Record<string, PipeStructure>;
  success: true;
  message: string;
  [blueprintMember: string]: unknown;
}

/**
 * The older `/validate` body of a valid library.
 * @param verdict - the verdict of the one bundle sent (valid)
 * @param content - the bundle text, echoed
 */
export function legacyValidation(verdict: Extract<LibraryVerdict, { ok: true }>, content: string): LegacyValidation {
  const { library } = verdict;
  const { blueprint } = verdict.primary;
  const structures = pipeStructures(library);
  const concepts: Record<string, LegacyConcept> = {};
  for (const concept of library.concepts.values()) {
    if (concept.isNative || concept.domain_code !== blueprint.domain) continue;
    concepts[concept.code] = {
      concept_code: concept.ref,
      description: concept.description,
      refines: concept.refines,
      structure: concept.structure,
    };
  }
  const pipes: Record<string, LegacyPipe> = {};
  for (const pipe of library.pipes.values()) {
    if (pipe.domain_code !== blueprint.domain) continue;
    const structure = structures[pipe.code]!;
    pipes[pipe.code] = {
      pipe_code: pipe.code,
      type: pipe.type,
      description: pipe.description,
      inputs: structure.inputs,
      output: structure.output,
    };
  }
  const described: LegacyBlueprint = {
    domain: blueprint.domain,
    description: blueprint.description ?? null,
    concepts,
    pipes,
  };
  return {
    mthds_content: content,
    [LEGACY_BLUEPRINT_MEMBER]: described,
    pipe_structures: structures,
    success: true,
    message: 'MTHDS content validated successfully',
  };
}
