/**
 * The usage ledger (docs/api.md#usage): an owner's inference calls, tokens and cost over a creation range, grouped by
 * method, model, pipe or day, read from the run history's rows (each ended run's usage report, docs/run-events.md).
 */
import { type Kysely, sql } from 'kysely';
import type { ControlPlaneDatabase } from './open-database.js';
import type { ControlPlaneSchema } from './schema.js';

/** What the ledger groups by. */
export type UsageGrouping = 'method' | 'model' | 'pipe' | 'day';

/** One group's figures. */
export interface UsageGroup {
  /** The method id, model handle, pipe code or day (`YYYY-MM-DD`, UTC); null for runs of no method. */
  key: string | null;
  /** Runs that made the group's calls. */
  runs: number;
  calls: number;
  inputTokens: number;
  outputTokens: number;
  /** USD of the priced calls; null when none was priced. */
  costUsd: number | null;
}

interface GroupRow {
  key: string | null;
  runs: number | string;
  calls: number | string;
  input_tokens: number | string;
  output_tokens: number | string;
  cost_usd: number | string | null;
}

function groupOf(row: GroupRow): UsageGroup {
  return {
    key: row.key,
    runs: Number(row.runs),
    calls: Number(row.calls),
    inputTokens: Number(row.input_tokens),
    outputTokens: Number(row.output_tokens),
    costUsd: row.cost_usd === null ? null : Number(row.cost_usd),
  };
}

/** The usage ledger, in domain terms. */
export class UsageLedger {
  private readonly db: Kysely<ControlPlaneSchema>;

  /** @param database - the open control plane */
  constructor(database: ControlPlaneDatabase) {
    this.db = database.db;
  }

  /**
   * An owner's usage over a range, by group (largest cost first, then key; by day, in date order), and in total.
   * @param owner - the caller's owner id
   * @param range - runs created from `from` (inclusive) to `to` (exclusive)
   * @param groupBy - the grouping
   */
  async report(
    owner: string,
    range: { from: Date; to: Date },
    groupBy: UsageGrouping,
  ): Promise<{ groups: UsageGroup[]; total: UsageGroup }> {
    const inRange = sql`owner = ${owner} and created_at >= ${range.from} and created_at < ${range.to} and usage is not null`;
    const query =
      groupBy === 'model' || groupBy === 'pipe'
        ? sql<GroupRow>`
            select figures.key as key, count(distinct runs.pipeline_run_id) as runs,
              sum((figures.value->>'calls')::bigint) as calls,
              sum((figures.value->>'input_tokens')::bigint) as input_tokens,
              sum((figures.value->>'output_tokens')::bigint) as output_tokens,
              sum((figures.value->>'cost_usd')::double precision) as cost_usd
            from runs, jsonb_each(runs.usage->${groupBy === 'model' ? 'by_model' : 'by_pipe'}) as figures
            where ${inRange}
            group by figures.key
            order by cost_usd desc nulls last, key`
        : sql<GroupRow>`
            select ${groupBy === 'method' ? sql`method_id` : sql`to_char(created_at at time zone 'UTC', 'YYYY-MM-DD')`} as key,
              count(*) as runs, sum(calls) as calls, sum(input_tokens) as input_tokens,
              sum(output_tokens) as output_tokens, sum(cost_usd) as cost_usd
            from runs
            where ${inRange}
            group by 1
            order by ${groupBy === 'day' ? sql`key` : sql`cost_usd desc nulls last, key`}`;
    const total = sql<GroupRow>`
      select null as key, count(*) as runs, coalesce(sum(calls), 0) as calls,
        coalesce(sum(input_tokens), 0) as input_tokens, coalesce(sum(output_tokens), 0) as output_tokens,
        sum(cost_usd) as cost_usd
      from runs where ${inRange}`;
    const [grouped, summed] = await Promise.all([query.execute(this.db), total.execute(this.db)]);
    return { groups: grouped.rows.map(groupOf), total: groupOf(summed.rows[0] as GroupRow) };
  }
}
