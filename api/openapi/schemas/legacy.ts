/**
 * Bodies of the older unversioned routes (spec §4.12; docs/api.md#older-unversioned-routes) as the OpenAPI document
 * describes them: the `/v1` run result and acknowledgement in the older envelope (`status`, `message`, `error`), and
 * the older `/validate` success body with this runner's `<runtime>_bundle_blueprint`.
 */
import { z } from 'zod';
import { LEGACY_BLUEPRINT_MEMBER } from '../../../shared/wire/index.js';
import { RUN_RESULT, RUN_START } from './run-result.js';

/** The older envelope members: a success is `status: "success"`; a failure is a problem document instead. */
const OLDER_ENVELOPE = {
  status: z.literal('success').meta({ description: 'Always `success`: a failure is a problem document.' }),
  message: z.string().nullable(),
  error: z.string().nullable(),
};

/** The 200 body of `POST /pipeline/execute`. */
export const LEGACY_RUN_RESULT = RUN_RESULT.extend(OLDER_ENVELOPE).meta({
  id: 'LegacyPipelineResponse',
  description: 'A finished run in the older envelope (spec §2.4, §4.12).',
});

/** The 200 body of `POST /pipeline/start`. */
export const LEGACY_RUN_START = RUN_START.extend(OLDER_ENVELOPE).meta({
  id: 'LegacyPipelineStartResponse',
  description: 'A started run in the older envelope (spec §4.12).',
});

const STRUCTURE = z.object({
  concept_code: z.string(),
  multiplicity: z.union([z.enum(['single', 'variable']), z.number().int()]),
});

const LEGACY_BLUEPRINT = z
  .object({
    domain: z.string(),
    description: z.string().nullable(),
    concepts: z.record(
      z.string(),
      z.object({
        concept_code: z.string(),
        description: z.string(),
        refines: z.string().nullable(),
        structure: z.record(z.string(), z.unknown()).nullable(),
      }),
    ),
    pipes: z.record(
      z.string(),
      z.object({
        pipe_code: z.string(),
        type: z.string(),
        description: z.string(),
        inputs: z.record(z.string(), STRUCTURE),
        output: STRUCTURE,
      }),
    ),
  })
  .meta({ id: 'LegacyBundleBlueprint', description: 'The bundle: its domain, concepts and pipes (spec §4.12).' });

/** The 200 body of `POST /validate`. */
export const LEGACY_VALIDATE_RESPONSE = z
  .object({
    mthds_content: z.string(),
    [LEGACY_BLUEPRINT_MEMBER]: LEGACY_BLUEPRINT,
    pipe_structures: z.record(z.string(), z.object({ inputs: z.record(z.string(), STRUCTURE), output: STRUCTURE })),
    success: z.literal(true),
    message: z.string(),
  })
  .meta({ id: 'LegacyValidateResponse', description: 'The older validation body (spec §4.12).' });
