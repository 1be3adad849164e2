/**
 * The control plane's database (docs/control-plane.md): PostgreSQL or the embedded PGlite, its schema and migrations,
 * and the repositories that speak of it in domain terms (organizations and their API keys, the methods catalog, the
 * run history, the idempotency keys, the usage ledger).
 */
export {
  API_KEY_PREFIX,
  type ApiKey,
  ApiKeys,
  type ApiKeysOptions,
  apiKeyDigest,
  type IssuedApiKey,
  type NewApiKey,
  type VerifiedApiKey,
} from './api-keys.js';
export { whenDatabaseReachable } from './database-outage.js';
export {
  IdempotencyKeys,
  type IdempotencyKeysOptions,
  type IdempotencyScope,
  type KeptResponse,
} from './idempotency-keys.js';
export { type MethodErasure, MethodErasures } from './method-erasures.js';
export type { Method, MethodSummary, MethodVersion, MethodVersionSummary } from './method-rows.js';
export { type MethodFile, methodFiles } from './method-sources.js';
export {
  type MethodPublication,
  type MethodVersionPage,
  type MethodVersionSelector,
  MethodVersions,
  type PublishedPosition,
  type PublishedVersion,
  type PublishedVersionPage,
  type SelectedSources,
} from './method-versions.js';
export { type MethodDraft, type MethodPage, Methods } from './methods.js';
export {
  type ControlPlaneDatabase,
  type DatabaseOptions,
  embeddedDatabaseExists,
  openDatabase,
} from './open-database.js';
export { type Organization, Organizations, type RandomBytes } from './organizations.js';
export {
  RunHistory,
  type RunHistoryEntry,
  type RunHistoryFilter,
  type RunHistoryPage,
  type RunHistoryRow,
  type RunHistoryUpdate,
} from './run-history.js';
export type {
  ApiKeyRow,
  ControlPlaneSchema,
  MethodDeletionState,
  NewApiKeyRow,
  OrganizationRow,
} from './schema.js';
export { type UsageGroup, type UsageGrouping, UsageLedger } from './usage-ledger.js';
