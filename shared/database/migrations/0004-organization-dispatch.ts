/**
 * Migration 0004: each organization's terms at the dispatch gate (docs/fair-dispatch.md): its share of the run queue
 * and its priority ceiling.
 */
import type { Kysely, Migration } from 'kysely';

/** Adds `run_share` (default 1) and `priority_ceiling` (null: the deployment's) to `organizations`. */
export const organizationDispatch: Migration = {
  async up(db: Kysely<unknown>): Promise<void> {
    await db.schema
      .alterTable('organizations')
      .addColumn('run_share', 'integer', (column) => column.notNull().defaultTo(1))
      .execute();
    await db.schema.alterTable('organizations').addColumn('priority_ceiling', 'integer').execute();
  },
};
