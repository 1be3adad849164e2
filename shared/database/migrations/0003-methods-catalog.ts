/**
 * Migration 0003: the methods catalog (docs/control-plane.md#data-model): stored methods, whose content is their draft,
 * and their published versions.
 */
import { type Kysely, type Migration, sql } from 'kysely';

/** Creates `methods` and `method_versions`. */
export const methodsCatalog: Migration = {
  async up(db: Kysely<unknown>): Promise<void> {
    await db.schema
      .createTable('methods')
      .addColumn('id', 'text', (column) => column.primaryKey())
      .addColumn('owner', 'text', (column) => column.notNull())
      .addColumn('created_by', 'text', (column) => column.notNull())
      .addColumn('name', 'text', (column) => column.notNull())
      .addColumn('description', 'text')
      .addColumn('mthds', 'text', (column) => column.notNull())
      .addColumn('python', 'text', (column) => column.notNull().defaultTo(''))
      .addColumn('input_data', 'jsonb')
      .addColumn('draft_digest', 'text', (column) => column.notNull())
      .addColumn('created_at', 'timestamptz', (column) => column.notNull().defaultTo(sql`now()`))
      .addColumn('updated_at', 'timestamptz', (column) => column.notNull().defaultTo(sql`now()`))
      .addColumn('deletion_state', 'text')
      .addColumn('deletion_job_id', 'text')
      .execute();
    await db.schema
      .createIndex('methods_by_owner')
      .on('methods')
      .columns(['owner', 'created_at desc', 'id desc'])
      .execute();
    await db.schema
      .createTable('method_versions')
      .addColumn('method_id', 'text', (column) => column.notNull().references('methods.id').onDelete('cascade'))
      .addColumn('version', 'integer', (column) => column.notNull())
      .addColumn('mthds', 'text', (column) => column.notNull())
      .addColumn('python', 'text', (column) => column.notNull())
      .addColumn('digest', 'text', (column) => column.notNull())
      .addColumn('crate_fingerprint', 'text')
      .addColumn('description', 'text')
      .addColumn('runner_version', 'text')
      .addColumn('published_by', 'text', (column) => column.notNull())
      .addColumn('published_at', 'timestamptz', (column) => column.notNull().defaultTo(sql`now()`))
      .addPrimaryKeyConstraint('method_versions_pkey', ['method_id', 'version'])
      .execute();
  },
};
