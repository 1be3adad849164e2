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
  SETTING_VARIABLES,
  type Settings,
  SettingsError,
  type StorageSettings,
} from './settings.js';
