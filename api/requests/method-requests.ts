/**
 * The request schemas of the catalog routes (docs/api.md#methods-catalog), built once per deployment's limits: a
 * method's `.mthds` source holds at most `MAX_BUNDLE_FILES` files of at most `MAX_MTHDS_FILE_KIB` KiB each, and its
 * stored texts at most `MAX_BUNDLE_TOTAL_KIB` KiB each.
 */
import { z } from 'zod';
import { methodFiles } from '../../shared/database/index.js';
import { ValidationError } from '../../shared/errors/index.js';
import { parseRequest } from '../request-schema.js';

/** The ceilings of a stored method's sources. */
export interface MethodLimits {
  /** `MAX_MTHDS_FILE_KIB`: the largest `.mthds` file, in KiB. */
  maxMthdsFileKib: number;
  /** `MAX_BUNDLE_FILES`: the most `.mthds` files. */
  maxFiles: number;
  /** `MAX_BUNDLE_TOTAL_KIB` × 1024: the largest stored text (`mthds`, `python`), in bytes. */
  maxTotalBytes: number;
}

/** Longest method name, in characters. */
const MAX_NAME_LENGTH = 200;
/** Longest search string, in characters. */
const MAX_QUERY_LENGTH = 200;

const NAME = z
  .string()
  .trim()
  .min(1)
  .max(MAX_NAME_LENGTH)
  .meta({ description: `The method's name, 1 to ${MAX_NAME_LENGTH} characters.` });

const INPUT_DATA = z
  .record(z.string(), z.unknown())
  .nullable()
  .meta({ description: 'The editor’s form inputs, kept with the draft (outside its digest); null clears them.' });

const EXPECTED_UPDATED_AT = z.iso.datetime({ offset: true }).meta({
  description:
    'The draft’s `updated_at` as last read: the write happens only if it is still the draft’s (else 409 `method_update_conflict`).',
});

function byteLength(text: string): number {
  return Buffer.byteLength(text, 'utf8');
}

function mthdsSource(limits: MethodLimits) {
  const maxFileBytes = limits.maxMthdsFileKib * 1024;
  return z
    .string()
    .superRefine((text, context) => {
      const files = methodFiles(text);
      if (byteLength(text) > limits.maxTotalBytes)
        context.addIssue({ code: 'custom', message: `exceeds ${limits.maxTotalBytes} bytes (MAX_BUNDLE_TOTAL_KIB)` });
      else if (files.length === 0) context.addIssue({ code: 'custom', message: 'holds no .mthds text' });
      else if (files.length > limits.maxFiles)
        context.addIssue({
          code: 'custom',
          message: `holds ${files.length} files, more than ${limits.maxFiles} (MAX_BUNDLE_FILES)`,
        });
      else
        for (const file of files) {
          const bytes = byteLength(file.content);
          if (bytes > maxFileBytes)
            context.addIssue({
              code: 'custom',
              message: `MTHDS file${file.name ? ` ${file.name}` : ''} exceeds ${limits.maxMthdsFileKib} KiB limit (${bytes} bytes)`,
            });
        }
    })
    .meta({
      description:
        'The method’s `.mthds` source: one raw `.mthds` text, or the JSON text of `[{name, content}]` for several files.',
    });
}

function isPythonText(text: string): boolean {
  if (text === '') return true;
  try {
    const parsed: unknown = JSON.parse(text);
    return (
      Array.isArray(parsed) &&
      parsed.every(
        (entry: unknown) =>
          typeof entry === 'object' &&
          entry !== null &&
          typeof (entry as Record<string, unknown>)['name'] === 'string' &&
          typeof (entry as Record<string, unknown>)['content'] === 'string',
      )
    );
  } catch {
    return false;
  }
}

function pythonSource(limits: MethodLimits) {
  return z
    .string()
    .max(limits.maxTotalBytes)
    .refine(isPythonText, 'must be "" (none) or the JSON text of [{name, content}]')
    .meta({
      description:
        'Custom Python files, as the JSON text of `[{name, content}]`; `""` for none; omitted on a write: keep the stored ones. Stored, never run: a run of a method with Python is refused (403).',
    });
}

/**
 * The bodies and queries of the catalog routes for a deployment's limits.
 * @param limits - the ceilings of a method's sources
 */
export function methodRequests(limits: MethodLimits) {
  const mthds = mthdsSource(limits);
  const python = pythonSource(limits).optional();
  return {
    create: z
      .object({ name: NAME, mthds, python, input_data: INPUT_DATA.optional() })
      .meta({ id: 'MethodCreate', description: 'A new method: its name and its draft.' }),
    rewrite: z
      .object({
        name: NAME,
        mthds,
        python,
        input_data: INPUT_DATA.optional(),
        expected_updated_at: EXPECTED_UPDATED_AT.optional(),
      })
      .meta({ id: 'MethodRewrite', description: 'A whole rewrite of a method: its name and its draft.' }),
    draft: z
      .object({ mthds, python, input_data: INPUT_DATA.optional(), expected_updated_at: EXPECTED_UPDATED_AT.optional() })
      .meta({ id: 'MethodDraftWrite', description: 'A write of a method’s draft.' }),
    rename: z.object({ name: NAME }).meta({ id: 'MethodRename', description: 'A method’s new name.' }),
    publish: z
      .object({
        expected_draft_updated_at: EXPECTED_UPDATED_AT.optional().meta({
          description:
            'The draft’s `updated_at` as last read: the publish happens only if it is still the draft’s (else 409 `method_update_conflict`).',
        }),
      })
      .meta({ id: 'MethodPublish', description: 'The draft to publish.' }),
  };
}

/** The query of `GET /v1/methods`. */
export const METHOD_LIST_QUERY = z.object({
  q: z
    .string()
    .max(MAX_QUERY_LENGTH)
    .optional()
    .meta({ description: 'Case-insensitive substring of the name or the description.' }),
  limit: z.coerce.number().int().min(1).max(200).optional().meta({ description: 'Page size: 1 to 200, default 50.' }),
  cursor: z.string().max(512).optional().meta({ description: 'The `next_cursor` of the page before.' }),
});

/** The query of `GET /v1/methods/{methodId}/versions`. */
export const VERSION_LIST_QUERY = z.object({
  limit: z.coerce.number().int().min(1).max(100).optional().meta({ description: 'Page size: 1 to 100, default 20.' }),
  cursor: z.string().max(512).optional().meta({ description: 'The `next_cursor` of the page before.' }),
});

/** The path parameter naming a method. */
export const METHOD_PARAMS = z.object({
  methodId: z.string().meta({ description: 'The method’s bare id, `mt_…` (no `@` suffix).' }),
});

/** The path parameters naming a version of a method. */
export const VERSION_PARAMS = METHOD_PARAMS.extend({
  version: z.coerce.number().int().min(1).max(2_147_483_647).meta({ description: 'The version number, from 1.' }),
});

/**
 * The method a catalog route names: its bare id.
 * @param params - the route's path parameters
 * @throws ValidationError (422) for an id with a version suffix: the method routes name the method itself
 */
export function methodIdOf(params: unknown): string {
  const { methodId } = parseRequest(METHOD_PARAMS, params, 'path');
  const at = methodId.indexOf('@');
  if (at >= 0)
    throw new ValidationError(
      `path.methodId: '${methodId}' carries a version suffix; the method routes take the bare id '${methodId.slice(0, at)}' (a suffix selects content on the run and tooling routes only: docs/methods.md#method_id)`,
    );
  return methodId;
}
