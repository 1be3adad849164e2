/**
 * A run record as the run history keeps it (docs/control-plane.md#run-history): the mapping from the registry's record
 * to the history's row, in one place.
 */
import type { RunHistoryEntry } from '../../database/index.js';
import { objectPath } from '../../storage/index.js';
import type { RunRecord } from '../registry/index.js';
import { submissionKey } from '../storage/index.js';

/** How far along each state is: a write of an earlier state never replaces a later one. */
function stateRank(state: RunRecord['state']): number {
  if (state === 'STARTED') return 0;
  return state === 'RUNNING' ? 1 : 2;
}

/**
 * The history row of a run record.
 * @param record - the run's record as the run store keeps it
 */
export function historyEntryOf(record: RunRecord): RunHistoryEntry {
  const usage = record.result?.usage ?? record.usage;
  return {
    owner: record.owner,
    pipelineRunId: record.pipeline_run_id,
    requestId: record.request_id,
    workflowId: record.workflow_id,
    methodId: record.method_id ?? null,
    methodVersion: record.method_version ?? null,
    pipeCode: record.pipe_code,
    state: record.state,
    stateRank: stateRank(record.state),
    storageScope: record.storage_scope,
    createdAt: record.created_at,
    startedAt: record.started_at,
    finishedAt: record.finished_at,
    attempts: record.attempts ?? 0,
    error: record.error
      ? { errorType: record.error.error_type, message: record.error.message, report: record.error }
      : null,
    usage: usage
      ? {
          report: usage,
          calls: usage.total.calls,
          inputTokens: usage.total.input_tokens,
          outputTokens: usage.total.output_tokens,
          costUsd: usage.total.cost_usd,
        }
      : null,
    sourceDigest: record.source_digest ?? null,
    submissionObject: objectPath(submissionKey(record.storage_scope, record.pipeline_run_id)),
    retryOf: record.retry_of ?? null,
  };
}
