/**
 * Public surface of `shared/config`: environment settings (spec §1.1).
 */
export { loadSettings, SettingsError, type AuthSettings, type ComputeSettings, type Environment, type Settings } from './settings.js';
export { loadApiConfig, type ApiConfig } from './api-config.js';
