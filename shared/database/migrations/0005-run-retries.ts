/**
 * Migration 0005: the retries of runs (docs/control-plane.md#run-history): the run a run retries
 * (`POST /v1/runs/{id}/retry`), and the index that lists a run's retries.
 */
import { type Kysely, type Migration, sql } from 'kysely';

/** Adds `runs.retry_of` and the partial index `runs_retries`. */
export const runRetries: Migration = {
  async up(db: Kysely<unknown>): Promise<void> {
    await db.schema.alterTable('runs').addColumn('retry_of', 'text').execute();
    await db.schema
      .createIndex('runs_retries')
      .on('runs')
      .columns(['owner', 'retry_of'])
      .where(sql.ref('retry_of'), 'is not', null)
      .execute();
  },
};
