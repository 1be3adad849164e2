/**
 * Migration 0001: organizations and their API keys (docs/control-plane.md#data-model).
 */
import { type Kysely, type Migration, sql } from 'kysely';

/** Creates `organizations` and `api_keys`. */
export const organizationsAndApiKeys: Migration = {
  async up(db: Kysely<unknown>): Promise<void> {
    await db.schema
      .createTable('organizations')
      .addColumn('id', 'text', (column) => column.primaryKey())
      .addColumn('name', 'text', (column) => column.notNull())
      .addColumn('created_at', 'timestamptz', (column) => column.notNull().defaultTo(sql`now()`))
      .execute();
    await db.schema
      .createTable('api_keys')
      .addColumn('id', 'text', (column) => column.primaryKey())
      .addColumn('organization_id', 'text', (column) =>
        column.notNull().references('organizations.id').onDelete('cascade'),
      )
      .addColumn('label', 'text', (column) => column.notNull())
      .addColumn('prefix', 'text', (column) => column.notNull())
      .addColumn('digest', 'text', (column) => column.notNull().unique())
      .addColumn('created_at', 'timestamptz', (column) => column.notNull().defaultTo(sql`now()`))
      .addColumn('last_used_at', 'timestamptz')
      .addColumn('expires_at', 'timestamptz')
      .addColumn('revoked_at', 'timestamptz')
      .execute();
    await db.schema
      .createIndex('api_keys_by_organization')
      .on('api_keys')
      .columns(['organization_id', 'created_at'])
      .execute();
  },
};
