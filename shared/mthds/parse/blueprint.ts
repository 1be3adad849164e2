/**
 * Bundle blueprints: the `.mthds` data as written, typed. This module holds the bundle itself (its header and
 * {@link BundleBlueprint}); the blueprint types beside it are grouped by family: `pipe-blueprints.ts` (one schema per
 * pipe type), `concept-blueprint.ts`, `model-settings.ts`, `sequence-steps.ts`, `template-blueprint.ts` and
 * `judge-blueprint.ts`. Each schema mirrors `mthds_schema.json` (every field of every blueprint;
 * `additionalProperties: false` where the schema says so).
 *
 * @see docs/bundle-format.md, docs/concepts.md, docs/language.md, ../shared/reference/mthds_schema.json
 */
import { z } from 'zod';
import type { ConceptBlueprint } from './concept-blueprint.js';
import { nullish } from './nullish-field.js';
import type { PipeBlueprint } from './pipe-blueprints.js';

/** The bundle header (docs/bundle-format.md#header); `concept` and `pipe` are validated entry by entry. */
export const BUNDLE_HEADER = z.strictObject({
  domain: z.string(),
  description: nullish(z.string()),
  system_prompt: nullish(z.string()),
  main_pipe: nullish(z.string()),
  concept: nullish(z.record(z.string(), z.unknown())),
  pipe: nullish(z.record(z.string(), z.unknown())),
});

/** A bundle as written, typed: header, concepts (string shorthand or table) and pipes. */
export interface BundleBlueprint {
  domain: string;
  description?: string;
  system_prompt?: string;
  main_pipe?: string;
  concept: Record<string, ConceptBlueprint | string>;
  pipe: Record<string, PipeBlueprint>;
}
