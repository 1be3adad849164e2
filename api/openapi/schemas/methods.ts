/**
 * Bodies of the catalog routes (docs/api.md#methods-catalog), as the OpenAPI document describes them. Members follow
 * the hosted Pipelex API's shapes, which its SDK and MCP server read.
 */
import { z } from 'zod';
import { VALIDATE_VERDICT } from './reports.js';

const TIME = z.string().meta({ description: 'ISO 8601, UTC.' });

const DELETION_STATE = z.enum(['pending', 'in_progress', 'failed']);

/** A published version without its sources. */
const VERSION_SUMMARY = z
  .object({
    version: z.number().int().meta({ description: 'From 1, never reused.' }),
    source_digest: z.string().meta({ description: 'The digest of the draft it was published from (64 hex).' }),
    crate_fingerprint: z
      .string()
      .nullable()
      .meta({ description: 'The fingerprint of its crate, as `POST /v1/resolve` answers it (docs/crate.md).' }),
    runner_version: z.string().nullable(),
    description: z.string().nullable(),
    published_at: TIME,
    published_by: z.string(),
  })
  .meta({ id: 'MethodVersionSummary', description: 'A published version of a method, without its sources.' });

/** `GET /v1/methods/{methodId}` and every write of a method. */
export const METHOD_DATA = z
  .object({
    method_id: z.string().meta({ description: 'The method’s id, `mt_…`.' }),
    org_id: z.string().meta({ description: 'The owner: the caller’s own id (an organization’s id for its keys).' }),
    created_by_user_id: z.string(),
    name: z.string(),
    mthds: z.string().meta({ description: 'The draft’s `.mthds` source, as written.' }),
    python: z.string().meta({ description: 'The draft’s Python files, JSON `[{name, content}]`; `""` for none.' }),
    input_data: z.record(z.string(), z.unknown()).nullable(),
    description: z.string().nullable().meta({ description: 'The draft’s first bundle’s `description`.' }),
    created_at: TIME,
    updated_at: TIME.meta({ description: 'The draft’s token: moves on every write of the draft, and only then.' }),
    draft_digest: z.string().meta({ description: 'SHA-256 (hex) of the draft’s sources.' }),
    latest_version: z.number().int().nullable(),
    latest_published: VERSION_SUMMARY.nullable(),
  })
  .meta({ id: 'MethodData', description: 'A stored method: its draft and its latest published version.' });

/** `GET /v1/methods`. */
export const METHOD_LIST = z
  .object({
    items: z.array(
      z.object({
        method_id: z.string(),
        name: z.string(),
        description: z.string().nullable(),
        created_at: TIME,
        deletion_state: DELETION_STATE.optional().meta({ description: 'Only while the method is being deleted.' }),
      }),
    ),
    next_cursor: z.string().nullable().meta({ description: 'Where the next page starts; null after the last.' }),
  })
  .meta({ id: 'MethodPage', description: 'A page of the catalog, newest first.' });

/** `DELETE /v1/methods/{methodId}`. */
export const METHOD_DELETION = z
  .object({ method_id: z.string(), deletion_state: DELETION_STATE, deletion_job_id: z.string() })
  .meta({
    id: 'MethodDeletionAccepted',
    description: 'The erasure is claimed; the method disappears once it is done.',
  });

/** `POST /v1/methods/{methodId}/publish`. */
export const METHOD_PUBLISH_RESULT = z
  .union([
    z.object({ outcome: z.enum(['published', 'unchanged']), version: VERSION_SUMMARY, method: METHOD_DATA }),
    z.object({
      outcome: z.literal('refused'),
      reason: z.enum(['invalid', 'not_runnable']),
      message: z.string(),
      validation: VALIDATE_VERDICT,
      method: METHOD_DATA,
    }),
  ])
  .meta({ id: 'MethodPublishResult', description: 'What the publish did with the draft, by `outcome`.' });

/** `GET /v1/methods/{methodId}/versions`. */
export const METHOD_VERSION_LIST = z
  .object({ items: z.array(VERSION_SUMMARY), next_cursor: z.string().nullable() })
  .meta({ id: 'MethodVersionPage', description: 'A page of a method’s published versions, newest first.' });

/** `GET /v1/methods/{methodId}/versions/{version}`. */
export const METHOD_VERSION = VERSION_SUMMARY.extend({
  method_id: z.string(),
  mthds: z.string(),
  python: z.string(),
}).meta({ id: 'MethodVersion', description: 'A published version of a method, with its sources.' });
