/**
 * The control plane's migrations, in order (docs/control-plane.md#migrations). A migration, once released, never
 * changes: a schema change is a new entry. Names sort in the order they apply.
 */
import type { Migration, MigrationProvider } from 'kysely';
import { organizationsAndApiKeys } from './0001-organizations-and-api-keys.js';
import { runHistory } from './0002-run-history.js';
import { methodsCatalog } from './0003-methods-catalog.js';
import { organizationDispatch } from './0004-organization-dispatch.js';
import { runRetries } from './0005-run-retries.js';
import { organizationRateShare } from './0006-organization-rate-share.js';

const MIGRATIONS: Readonly<Record<string, Migration>> = {
  '0001-organizations-and-api-keys': organizationsAndApiKeys,
  '0002-run-history': runHistory,
  '0003-methods-catalog': methodsCatalog,
  '0004-organization-dispatch': organizationDispatch,
  '0005-run-retries': runRetries,
  '0006-organization-rate-share': organizationRateShare,
};

/** Kysely's migration provider over {@link MIGRATIONS}: the migrations ship in the code, not as files to find. */
export const CONTROL_PLANE_MIGRATIONS: MigrationProvider = {
  getMigrations: async () => ({ ...MIGRATIONS }),
};
