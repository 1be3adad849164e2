/**
 * Migration 0006: an organization's own share of the provider rate limits (docs/control-plane.md#data-model,
 * docs/inference.md#organization-shares).
 */
import { type Kysely, type Migration, sql } from 'kysely';

/** Adds `organizations.inference_rate_share`: null (the deployment's `INFERENCE_ORG_RATE_SHARE`), or in (0, 1]. */
export const organizationRateShare: Migration = {
  async up(db: Kysely<unknown>): Promise<void> {
    await db.schema
      .alterTable('organizations')
      .addColumn('inference_rate_share', 'double precision', (column) =>
        column.check(sql`inference_rate_share > 0 and inference_rate_share <= 1`),
      )
      .execute();
  },
};
