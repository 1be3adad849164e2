/**
 * The run history in the shapes of the hosted run routes (docs/api.md#run-history): snake_case members, times as
 * ISO 8601 UTC strings, the state under the hosted name `status`.
 */
import type { RunHistoryRow } from '../database/index.js';
import type { ErrorReport } from '../errors/index.js';
import type { UsageFigures } from './usage.js';

/** A run as `GET /v1/runs` lists it. */
export interface RunHistoryItem {
  pipeline_run_id: string;
  /** The run's state: `STARTED`, `RUNNING`, `COMPLETED`, `FAILED`, … (a client's `PUT` may set another). */
  status: string;
  created_at: string;
  started_at: string | null;
  finished_at: string | null;
  pipe_code: string | null;
  method_id: string | null;
  method_version: number | null;
  source_digest: string | null;
  attempts: number;
  /** Why it failed (the run's error report), else null. */
  error: ErrorReport | null;
  /** Its inference usage and cost in total, once it ended; null before. */
  usage: UsageFigures | null;
  /** The run this one retries (`POST /v1/runs/{id}/retry`); null for a run started otherwise. */
  retry_of: string | null;
}

/** A run as `GET /v1/runs/{id}` answers it: the listed members, the owner and the run as it was sent. */
export interface RunHistoryDetail extends RunHistoryItem {
  /** The organization (or caller) that owns the run. */
  org_id: string;
  created_by_user_id: string;
  workflow_id: string | null;
  result_url: string | null;
  /** Each pipe's status; empty (the history keeps the run's state, the event stream its pipes). */
  pipe_statuses: Record<string, string>;
  /** The bundle texts as sent, one per file; null once no longer kept. */
  mthds_contents: string[] | null;
  /** The `inputs` as sent; null once no longer kept. */
  inputs: unknown;
  /** The runs that retry this one, oldest first; empty when none does. */
  retries: string[];
}

function iso(time: Date | null): string | null {
  return time === null ? null : time.toISOString();
}

function totalOf(usage: unknown): UsageFigures | null {
  if (usage === null || typeof usage !== 'object' || !('total' in usage)) return null;
  return (usage as { total: UsageFigures }).total;
}

/**
 * A listed run.
 * @param row - its history row
 */
export function runHistoryItem(row: RunHistoryRow): RunHistoryItem {
  return {
    pipeline_run_id: row.pipeline_run_id,
    status: row.state,
    created_at: row.created_at.toISOString(),
    started_at: iso(row.started_at),
    finished_at: iso(row.finished_at),
    pipe_code: row.pipe_code,
    method_id: row.method_id,
    method_version: row.method_version,
    source_digest: row.source_digest,
    attempts: row.attempts,
    error: (row.error as ErrorReport | null) ?? null,
    usage: totalOf(row.usage),
    retry_of: row.retry_of,
  };
}

/**
 * A run's detail.
 * @param row - its history row
 * @param submission - the run as it was sent, when still kept
 * @param retries - the ids of the runs that retry it, oldest first
 */
export function runHistoryDetail(
  row: RunHistoryRow,
  submission: { mthds_contents: string[]; inputs: unknown } | undefined,
  retries: string[],
): RunHistoryDetail {
  return {
    ...runHistoryItem(row),
    org_id: row.owner,
    created_by_user_id: row.owner,
    workflow_id: row.workflow_id,
    result_url: row.result_url,
    pipe_statuses: {},
    mthds_contents: submission?.mthds_contents ?? null,
    inputs: submission ? submission.inputs : null,
    retries,
  };
}
