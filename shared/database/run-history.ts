/**
 * The run history (docs/control-plane.md#run-history): one row per run of an owner, written in batches from the run
 * records (the history outbox, never on a request's path) and listed newest first with a keyset cursor. Writes only
 * move a run forward: a row takes a write of a later submission of its id, or of the same submission in a state at
 * least as far along (`state_rank`), so batches that cross or repeat leave the latest state.
 */
import { type Kysely, type Selectable, sql } from 'kysely';
import type { ControlPlaneDatabase } from './open-database.js';
import { rowCursor, rowPosition } from './page-cursors.js';
import type { ControlPlaneSchema, RunsTable } from './schema.js';

/** A run's row as the outbox writes it. Times are ISO-8601. */
export interface RunHistoryEntry {
  owner: string;
  pipelineRunId: string;
  requestId: string;
  workflowId: string | null;
  methodId: string | null;
  methodVersion: number | null;
  pipeCode: string | null;
  state: string;
  /** 0 accepted, 1 running, 2 ended. */
  stateRank: number;
  storageScope: string;
  createdAt: string;
  startedAt: string | null;
  finishedAt: string | null;
  /** Attempts made so far (0 until a worker takes the run). */
  attempts: number;
  /** Why the run failed: its error type, message and whole report (JSON). */
  error: { errorType: string; message: string; report: unknown } | null;
  /** What the run used: its usage report (JSON) and totals; null before it ends. */
  usage: { report: unknown; calls: number; inputTokens: number; outputTokens: number; costUsd: number | null } | null;
  sourceDigest: string | null;
  submissionObject: string | null;
  /** The run this one retries; null for a run started otherwise. */
  retryOf: string | null;
}

/** A run row as read. */
export type RunHistoryRow = Selectable<RunsTable>;

/** What `GET /v1/runs` filters on; every filter is exact, the creation range inclusive. */
export interface RunHistoryFilter {
  methodId?: string;
  states?: readonly string[];
  pipeCode?: string;
  errorType?: string;
  createdFrom?: Date;
  createdTo?: Date;
}

/** One page of runs, newest first. */
export interface RunHistoryPage {
  items: RunHistoryRow[];
  /** Where the next page starts; null on the last page. */
  nextCursor: string | null;
}

/** A client's update of a run (`PUT /v1/runs/{id}`). */
export interface RunHistoryUpdate {
  state: string;
  resultUrl?: string | null;
  finishedAt?: string | null;
}

function rowOf(entry: RunHistoryEntry) {
  return {
    owner: entry.owner,
    pipeline_run_id: entry.pipelineRunId,
    request_id: entry.requestId,
    workflow_id: entry.workflowId,
    method_id: entry.methodId,
    method_version: entry.methodVersion,
    pipe_code: entry.pipeCode,
    state: entry.state,
    state_rank: entry.stateRank,
    storage_scope: entry.storageScope,
    created_at: entry.createdAt,
    started_at: entry.startedAt,
    finished_at: entry.finishedAt,
    attempts: entry.attempts,
    error_type: entry.error?.errorType ?? null,
    error_message: entry.error?.message ?? null,
    error: entry.error ? JSON.stringify(entry.error.report) : null,
    usage: entry.usage ? JSON.stringify(entry.usage.report) : null,
    calls: entry.usage?.calls ?? 0,
    input_tokens: entry.usage?.inputTokens ?? 0,
    output_tokens: entry.usage?.outputTokens ?? 0,
    cost_usd: entry.usage?.costUsd ?? null,
    source_digest: entry.sourceDigest,
    submission_object: entry.submissionObject,
    retry_of: entry.retryOf,
  };
}

/** The run history table, in domain terms. */
export class RunHistory {
  private readonly db: Kysely<ControlPlaneSchema>;

  /** @param database - the open control plane */
  constructor(database: ControlPlaneDatabase) {
    this.db = database.db;
  }

  /**
   * Write runs, each moving its row forward only (see the module comment).
   * @param entries - at most one entry per owner and run id
   */
  async record(entries: readonly RunHistoryEntry[]): Promise<void> {
    if (entries.length === 0) return;
    await this.db
      .insertInto('runs')
      .values(entries.map(rowOf))
      .onConflict((conflict) =>
        conflict
          .columns(['owner', 'pipeline_run_id'])
          // A later write replaces the run's state; the facts of its first write stay when the later one lacks them.
          .doUpdateSet((eb) => ({
            request_id: eb.ref('excluded.request_id'),
            workflow_id: eb.ref('excluded.workflow_id'),
            pipe_code: eb.ref('excluded.pipe_code'),
            state: eb.ref('excluded.state'),
            state_rank: eb.ref('excluded.state_rank'),
            storage_scope: eb.ref('excluded.storage_scope'),
            created_at: eb.ref('excluded.created_at'),
            started_at: eb.ref('excluded.started_at'),
            finished_at: eb.ref('excluded.finished_at'),
            attempts: eb.ref('excluded.attempts'),
            error_type: eb.ref('excluded.error_type'),
            error_message: eb.ref('excluded.error_message'),
            error: eb.ref('excluded.error'),
            usage: eb.ref('excluded.usage'),
            calls: eb.ref('excluded.calls'),
            input_tokens: eb.ref('excluded.input_tokens'),
            output_tokens: eb.ref('excluded.output_tokens'),
            cost_usd: eb.ref('excluded.cost_usd'),
            method_id: eb.fn.coalesce(eb.ref('excluded.method_id'), eb.ref('runs.method_id')),
            method_version: eb.fn.coalesce(eb.ref('excluded.method_version'), eb.ref('runs.method_version')),
            source_digest: eb.fn.coalesce(eb.ref('excluded.source_digest'), eb.ref('runs.source_digest')),
            submission_object: eb.fn.coalesce(eb.ref('excluded.submission_object'), eb.ref('runs.submission_object')),
            retry_of: eb.fn.coalesce(eb.ref('excluded.retry_of'), eb.ref('runs.retry_of')),
            updated_at: sql`now()`,
          }))
          .where((eb) =>
            eb.or([
              eb('excluded.created_at', '>', eb.ref('runs.created_at')),
              eb.and([
                eb('excluded.created_at', '=', eb.ref('runs.created_at')),
                eb('excluded.state_rank', '>=', eb.ref('runs.state_rank')),
              ]),
            ]),
          ),
      )
      .execute();
  }

  /**
   * Drop the rows of runs that were accepted but never enqueued: their record is gone (abandoned) while their row
   * still says accepted. A run id is held by one owner at a time, so the id alone names the row.
   * @param pipelineRunIds - the runs' ids
   */
  async dropUnstarted(pipelineRunIds: readonly string[]): Promise<void> {
    if (pipelineRunIds.length === 0) return;
    await this.db
      .deleteFrom('runs')
      .where('state_rank', '=', 0)
      .where('pipeline_run_id', 'in', pipelineRunIds)
      .execute();
  }

  /**
   * One page of an owner's runs, newest first.
   * @param owner - the caller's owner id
   * @param filter - exact filters and the inclusive creation range
   * @param page - page size (1–200) and the cursor a previous page handed out
   * @throws ValidationError (422) for a cursor this service did not hand out
   */
  async list(
    owner: string,
    filter: RunHistoryFilter,
    page: { limit: number; cursor?: string },
  ): Promise<RunHistoryPage> {
    let query = this.db.selectFrom('runs').selectAll().where('owner', '=', owner);
    if (filter.methodId !== undefined) query = query.where('method_id', '=', filter.methodId);
    if (filter.states !== undefined && filter.states.length > 0) query = query.where('state', 'in', filter.states);
    if (filter.pipeCode !== undefined) query = query.where('pipe_code', '=', filter.pipeCode);
    if (filter.errorType !== undefined) query = query.where('error_type', '=', filter.errorType);
    if (filter.createdFrom !== undefined) query = query.where('created_at', '>=', filter.createdFrom);
    if (filter.createdTo !== undefined) query = query.where('created_at', '<=', filter.createdTo);
    if (page.cursor !== undefined) {
      const after = rowPosition('runs', page.cursor);
      query = query.where((eb) =>
        eb(eb.refTuple('created_at', 'pipeline_run_id'), '<', eb.tuple(after.createdAt, after.id)),
      );
    }
    const rows = await query
      .orderBy('created_at', 'desc')
      .orderBy('pipeline_run_id', 'desc')
      .limit(page.limit + 1)
      .execute();
    const items = rows.slice(0, page.limit);
    const last = items.at(-1);
    const position = last && { createdAt: last.created_at, id: last.pipeline_run_id };
    return { items, nextCursor: rows.length > page.limit && position ? rowCursor('runs', position) : null };
  }

  /**
   * The ids of an owner's runs that have not ended as the history knows them (accepted or running), matching a
   * filter, oldest first: the runs a bulk cancel stops (docs/cancellation.md#bulk-cancel).
   * @param owner - the caller's owner id
   * @param filter - exact filters and the inclusive creation range (`errorType` is not read: such runs have none)
   * @param limit - most ids answered
   */
  async unfinished(owner: string, filter: Omit<RunHistoryFilter, 'errorType'>, limit: number): Promise<string[]> {
    let query = this.db
      .selectFrom('runs')
      .select('pipeline_run_id')
      .where('owner', '=', owner)
      .where('state_rank', '<', 2);
    if (filter.methodId !== undefined) query = query.where('method_id', '=', filter.methodId);
    if (filter.states !== undefined && filter.states.length > 0) query = query.where('state', 'in', filter.states);
    if (filter.pipeCode !== undefined) query = query.where('pipe_code', '=', filter.pipeCode);
    if (filter.createdFrom !== undefined) query = query.where('created_at', '>=', filter.createdFrom);
    if (filter.createdTo !== undefined) query = query.where('created_at', '<=', filter.createdTo);
    const rows = await query.orderBy('created_at').orderBy('pipeline_run_id').limit(limit).execute();
    return rows.map((row) => row.pipeline_run_id);
  }

  /**
   * One run of an owner.
   * @returns its row, or undefined for an unknown id and for another owner's run alike
   */
  find(owner: string, pipelineRunId: string): Promise<RunHistoryRow | undefined> {
    return this.db
      .selectFrom('runs')
      .selectAll()
      .where('owner', '=', owner)
      .where('pipeline_run_id', '=', pipelineRunId)
      .executeTakeFirst();
  }

  /**
   * The retries of one run of an owner, oldest first.
   * @returns their `pipeline_run_id`s (none for a run never retried, an unknown id, another owner's run)
   */
  async retriesOf(owner: string, pipelineRunId: string): Promise<string[]> {
    const rows = await this.db
      .selectFrom('runs')
      .select('pipeline_run_id')
      .where('owner', '=', owner)
      .where('retry_of', '=', pipelineRunId)
      .orderBy('created_at')
      .orderBy('pipeline_run_id')
      .execute();
    return rows.map((row) => row.pipeline_run_id);
  }

  /**
   * Record a client's update of a run: its state, result URL and end time.
   * @returns the updated row, or undefined for an unknown id and for another owner's run alike
   */
  update(owner: string, pipelineRunId: string, update: RunHistoryUpdate): Promise<RunHistoryRow | undefined> {
    return this.db
      .updateTable('runs')
      .set({
        state: update.state,
        ...(update.resultUrl !== undefined ? { result_url: update.resultUrl } : {}),
        ...(update.finishedAt !== undefined ? { finished_at: update.finishedAt } : {}),
        updated_at: sql`now()`,
      })
      .where('owner', '=', owner)
      .where('pipeline_run_id', '=', pipelineRunId)
      .returningAll()
      .executeTakeFirst();
  }

  /**
   * Delete the rows of runs created before a time, a batch at a time (the retention sweep).
   * @param before - rows created before it go
   * @param limit - most rows deleted by this call
   * @returns how many rows went (their submissions in storage go with their leaf's retention, docs/storage.md)
   */
  async sweep(before: Date, limit: number): Promise<number> {
    const doomed = this.db
      .selectFrom('runs')
      .select(['owner', 'pipeline_run_id'])
      .where('created_at', '<', before)
      .limit(limit);
    const result = await this.db
      .deleteFrom('runs')
      .where(sql<boolean>`(owner, pipeline_run_id) in (${doomed})`)
      .executeTakeFirst();
    return Number(result.numDeletedRows);
  }
}
