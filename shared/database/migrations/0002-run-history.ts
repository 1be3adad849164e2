/**
 * Migration 0002: the run history and the idempotency keys (docs/control-plane.md#data-model).
 */
import { type Kysely, type Migration, sql } from 'kysely';

/** Creates `runs` and `idempotency_keys`. */
export const runHistory: Migration = {
  async up(db: Kysely<unknown>): Promise<void> {
    await db.schema
      .createTable('runs')
      .addColumn('owner', 'text', (column) => column.notNull())
      .addColumn('pipeline_run_id', 'text', (column) => column.notNull())
      .addColumn('request_id', 'text', (column) => column.notNull())
      .addColumn('workflow_id', 'text')
      .addColumn('method_id', 'text')
      .addColumn('method_version', 'integer')
      .addColumn('pipe_code', 'text')
      .addColumn('state', 'text', (column) => column.notNull())
      .addColumn('state_rank', 'smallint', (column) => column.notNull())
      .addColumn('storage_scope', 'text', (column) => column.notNull())
      .addColumn('created_at', 'timestamptz', (column) => column.notNull())
      .addColumn('started_at', 'timestamptz')
      .addColumn('finished_at', 'timestamptz')
      .addColumn('updated_at', 'timestamptz', (column) => column.notNull().defaultTo(sql`now()`))
      .addColumn('attempts', 'integer', (column) => column.notNull().defaultTo(0))
      .addColumn('error_type', 'text')
      .addColumn('error_message', 'text')
      .addColumn('error', 'jsonb')
      .addColumn('usage', 'jsonb')
      .addColumn('calls', 'integer', (column) => column.notNull().defaultTo(0))
      .addColumn('input_tokens', 'bigint', (column) => column.notNull().defaultTo(0))
      .addColumn('output_tokens', 'bigint', (column) => column.notNull().defaultTo(0))
      .addColumn('cost_usd', 'double precision')
      .addColumn('source_digest', 'text')
      .addColumn('submission_object', 'text')
      .addColumn('result_url', 'text')
      .addPrimaryKeyConstraint('runs_pkey', ['owner', 'pipeline_run_id'])
      .execute();
    await db.schema
      .createIndex('runs_by_owner')
      .on('runs')
      .expression(sql`owner, created_at desc, pipeline_run_id desc`)
      .execute();
    await db.schema
      .createIndex('runs_by_owner_and_method')
      .on('runs')
      .expression(sql`owner, method_id, created_at desc, pipeline_run_id desc`)
      .execute();
    await db.schema.createIndex('runs_by_age').on('runs').column('created_at').execute();
    await db.schema
      .createTable('idempotency_keys')
      .addColumn('owner', 'text', (column) => column.notNull())
      .addColumn('route', 'text', (column) => column.notNull())
      .addColumn('key', 'text', (column) => column.notNull())
      .addColumn('request_digest', 'text', (column) => column.notNull())
      .addColumn('status', 'integer')
      .addColumn('response', 'text')
      .addColumn('created_at', 'timestamptz', (column) => column.notNull().defaultTo(sql`now()`))
      .addColumn('expires_at', 'timestamptz', (column) => column.notNull())
      .addPrimaryKeyConstraint('idempotency_keys_pkey', ['owner', 'route', 'key'])
      .execute();
    await db.schema.createIndex('idempotency_keys_by_expiry').on('idempotency_keys').column('expires_at').execute();
  },
};
