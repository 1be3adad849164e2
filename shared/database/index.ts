/**
 * The control plane's database (docs/control-plane.md): PostgreSQL or the embedded PGlite, its schema and migrations,
 * and the repositories that speak of it in domain terms (organizations and their API keys).
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
export {
  type ControlPlaneDatabase,
  type DatabaseOptions,
  embeddedDatabaseExists,
  openDatabase,
} from './open-database.js';
export { type Organization, Organizations, type RandomBytes } from './organizations.js';
export type { ApiKeyRow, ControlPlaneSchema, NewApiKeyRow, OrganizationRow } from './schema.js';
