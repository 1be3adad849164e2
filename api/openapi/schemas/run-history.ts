/**
 * Bodies of the run history and usage routes (docs/api.md#run-history, docs/api.md#usage), as the OpenAPI document
 * describes them. Members follow the hosted Pipelex API's shapes, which its SDK reads.
 */
import { z } from 'zod';
import { ERROR_REPORT, USAGE_FIGURES } from './run-result.js';

const TIME = z.string().meta({ description: 'ISO 8601, UTC.' });

const RUN_HISTORY_MEMBERS = {
  pipeline_run_id: z.string(),
  status: z.string().meta({ description: 'The run’s state: `STARTED`, `RUNNING`, `COMPLETED`, `FAILED`, …' }),
  created_at: TIME,
  started_at: TIME.nullable(),
  finished_at: TIME.nullable(),
  pipe_code: z.string().nullable(),
  method_id: z.string().nullable().meta({ description: 'The stored method the run ran or was linked to.' }),
  method_version: z.number().int().nullable().meta({ description: 'The published version that ran; null otherwise.' }),
  source_digest: z.string().nullable().meta({ description: 'SHA-256 (hex) of the run’s bundle texts, in order.' }),
  attempts: z.number().int().meta({ description: 'Attempts a worker made (0 while queued).' }),
  error: ERROR_REPORT.nullable(),
  usage: USAGE_FIGURES.nullable().meta({ description: 'Inference usage and cost in total, once the run ended.' }),
  retry_of: z
    .string()
    .nullable()
    .meta({ description: 'The run this one retries (`POST /v1/runs/{runId}/retry`); null otherwise.' }),
};

/** A listed run. */
const RUN_HISTORY_ITEM = z.object(RUN_HISTORY_MEMBERS).meta({ id: 'RunHistoryItem', description: 'A run.' });

/** `GET /v1/runs`. */
export const RUN_HISTORY_PAGE = z
  .object({
    items: z.array(RUN_HISTORY_ITEM).meta({ description: 'Newest first.' }),
    next_cursor: z.string().nullable().meta({ description: 'Pass as `cursor` for the next page; null on the last.' }),
  })
  .meta({ id: 'RunHistoryPage', description: 'One page of the caller’s runs.' });

/** `GET /v1/runs/{run_id}` and `PUT /v1/runs/{run_id}`. */
export const RUN_HISTORY_DETAIL = z
  .object({
    ...RUN_HISTORY_MEMBERS,
    org_id: z.string().meta({ description: 'Who owns the run: the organization, or the caller’s id.' }),
    created_by_user_id: z.string(),
    workflow_id: z.string().nullable(),
    result_url: z.string().nullable(),
    pipe_statuses: z.record(z.string(), z.string()),
    mthds_contents: z.array(z.string()).nullable().meta({ description: 'The bundle texts as sent, one per file.' }),
    inputs: z.unknown().meta({ description: 'The `inputs` as sent.' }),
    retries: z.array(z.string()).meta({ description: 'The runs that retry this one, oldest first.' }),
  })
  .meta({ id: 'RunHistoryDetail', description: 'A run, with what was sent.' });

/** `GET /v1/usage`. */
export const USAGE_LEDGER = z
  .object({
    from: TIME,
    to: TIME,
    group_by: z.enum(['method', 'model', 'pipe', 'day']),
    groups: z.array(
      z.object({
        key: z.string().nullable().meta({ description: 'Method id, model handle, pipe code or UTC day; null: none.' }),
        runs: z.number().int(),
        calls: z.number().int(),
        input_tokens: z.number().int(),
        output_tokens: z.number().int(),
        cost_usd: z.number().nullable(),
      }),
    ),
    total: z.object({
      runs: z.number().int(),
      calls: z.number().int(),
      input_tokens: z.number().int(),
      output_tokens: z.number().int(),
      cost_usd: z.number().nullable(),
    }),
  })
  .meta({ id: 'UsageLedger', description: 'Inference usage and cost of the caller’s runs.' });

/** `POST /v1/runs/cancel` (docs/cancellation.md#bulk-cancel). */
export const RUN_CANCELLATIONS = z
  .object({
    cancelled: z.number().int().meta({ description: 'How many of the caller’s runs this call cancelled.' }),
  })
  .meta({ id: 'RunCancellations', description: 'What a bulk cancel stopped.' });
