/**
 * The control plane's database (docs/control-plane.md): PostgreSQL or the embedded PGlite, its schema and migrations,
 * and the repositories that speak of it in domain terms (organizations, their API keys, the methods catalog).
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
export { type MethodErasure, MethodErasures } from './method-erasures.js';
export type { Method, MethodSummary, MethodVersion, MethodVersionSummary } from './method-rows.js';
export { type MethodFile, methodFiles } from './method-sources.js';
export {
  type MethodPublication,
  type MethodVersionPage,
  type MethodVersionSelector,
  MethodVersions,
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
export type {
  ApiKeyRow,
  ControlPlaneSchema,
  MethodDeletionState,
  NewApiKeyRow,
  OrganizationRow,
} from './schema.js';
