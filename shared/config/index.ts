/**
 * Public surface of `shared/config`: environment settings (spec §1.1).
 */

export { type ApiConfig, loadApiConfig } from './api-config.js';
export {
  type AuthSettings,
  type ComputeSettings,
  type Environment,
  type HttpServerSettings,
  loadSettings,
  type Settings,
  SettingsError,
  type StorageSettings,
} from './settings.js';
