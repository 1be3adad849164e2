/**
 * The `artifacts` query parameter of `GET /v1/runs/{id}/results` (docs/api.md#run-results): which artifacts of a
 * completed run's result to return.
 */
import { z } from 'zod';
import { BadRequest } from '../../shared/errors/index.js';
import { RUN_RESULT_ARTIFACTS, type RunResultArtifact } from '../../shared/wire/index.js';
import { refuseAs } from '../request-schema.js';

const ARTIFACT_NAMES: ReadonlySet<string> = new Set(RUN_RESULT_ARTIFACTS);

/**
 * `?artifacts=a,b`: the artifacts a results read returns (docs/api.md#run-results). Repeating the parameter adds
 * names; an empty name or one outside {@link RUN_RESULT_ARTIFACTS} is a 400.
 */
export const RESULT_ARTIFACTS = z
  .union([z.string(), z.array(z.string())])
  .transform((value, context) => {
    const names = (Array.isArray(value) ? value.join(',') : value).split(',').map((name) => name.trim());
    const unknown = names.filter((name) => !ARTIFACT_NAMES.has(name));
    if (unknown.length > 0) {
      const named = unknown.map((name) => (name === '' ? 'an empty name' : `'${name.slice(0, 60)}'`)).join(', ');
      const verb = unknown.length === 1 ? 'is not an artifact name' : 'are not artifact names';
      refuseAs(
        context,
        BadRequest,
        `artifacts: ${named} ${verb}; name one or more of ${RUN_RESULT_ARTIFACTS.join(', ')}, comma-separated.`,
      );
      return z.NEVER;
    }
    return new Set(names as RunResultArtifact[]);
  })
  .meta({
    description: `Comma-separated artifacts to return, among ${RUN_RESULT_ARTIFACTS.map((name) => `\`${name}\``).join(', ')} (\`tokens_usages\` brings \`usage_assembly_error\`); the others are left out. Default: all of them, with \`pipe_output\` and \`usage\` (docs/api.md#run-results).`,
  });
