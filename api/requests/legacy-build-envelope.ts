/**
 * The legacy body of the build routes, `{mthds_contents, pipe_code}` (plus `format` on `/v1/build/output`): what the
 * official JS SDK 0.10 (`buildInputs`, `buildOutput`, `buildRunner`, and so `mthds build inputs|output|runner`) still
 * sends, from before the closure selector of spec §4.8–4.10. A body carrying `mthds_contents` is read as this
 * compatibility alias and answered in the shapes the SDK reads (`offload/legacy-build-operations.ts`); every other body
 * is the spec's request.
 *
 * @see docs/codegen.md#legacy-envelope-mthds_contents-pipe_code;
 * docs/codegen.md#legacy-envelope-mthds_contents-pipe_code
 */
import { z } from 'zod';
import { ValidationError } from '../../shared/errors/index.js';
import type { LegacyBuildInput } from '../offload/legacy-build-operations.js';
import { parseRequest } from '../request-schema.js';
import { mthdsContent } from './mthds-content.js';

/** Members of the spec's request that the legacy envelope cannot be combined with. */
const SELECTOR_MEMBERS = ['files', 'method_ref', 'pipe_ref'] as const;

/**
 * Whether a body is the legacy envelope: a JSON object with an `mthds_contents` member.
 * @param value - the decoded body
 * @throws ValidationError (422) when it also carries a member of the spec's selector (`files`, `method_ref`,
 * `pipe_ref`)
 */
export function isLegacyBuildEnvelope(value: unknown): boolean {
  if (value === null || typeof value !== 'object' || !Object.hasOwn(value, 'mthds_contents')) return false;
  const mixed = SELECTOR_MEMBERS.filter((member) => Object.hasOwn(value, member));
  if (mixed.length > 0)
    throw new ValidationError(
      `body: the legacy envelope {mthds_contents, pipe_code} cannot be combined with ${mixed.map((member) => `\`${member}\``).join(', ')}; send either {mthds_contents, pipe_code} or the closure selector (files or method_ref, with pipe_ref)`,
    );
  return true;
}

function legacySchema(maxMthdsFileKib: number) {
  return z.object({
    mthds_contents: z.array(mthdsContent(maxMthdsFileKib)).min(1).max(16),
    pipe_code: z.string().min(1).max(256),
  });
}

/**
 * Check a legacy envelope of `/v1/build/inputs` or `/v1/build/runner`.
 * @param value - the decoded body
 * @param maxMthdsFileKib - `MAX_MTHDS_FILE_KIB`, the ceiling of each `mthds_contents` entry
 * @returns the bundles (without source names) and the pipe code
 * @throws ValidationError (422) naming each offending member
 */
export function legacyBuildRequest(value: unknown, maxMthdsFileKib: number): LegacyBuildInput {
  const body = parseRequest(legacySchema(maxMthdsFileKib), value);
  return { sources: body.mthds_contents.map((content) => ({ content, source: null })), pipeCode: body.pipe_code };
}

/**
 * Check a legacy envelope of `/v1/build/output`: as {@link legacyBuildRequest}, plus `format` (default `schema`).
 * @param value - the decoded body
 * @param maxMthdsFileKib - `MAX_MTHDS_FILE_KIB`
 * @throws ValidationError (422) naming each offending member
 */
export function legacyBuildOutputRequest(
  value: unknown,
  maxMthdsFileKib: number,
): LegacyBuildInput & { format: 'schema' | 'json' | 'python' } {
  const body = parseRequest(
    legacySchema(maxMthdsFileKib).extend({ format: z.enum(['schema', 'json', 'python']).default('schema') }),
    value,
  );
  return {
    sources: body.mthds_contents.map((content) => ({ content, source: null })),
    pipeCode: body.pipe_code,
    format: body.format,
  };
}
