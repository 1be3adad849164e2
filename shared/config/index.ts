/**
 * Public surface of `shared/config`: environment settings (spec §1.1).
 */

export { type ApiConfig, loadApiConfig } from './api-config.js';
export type {
  RedisClient,
  RedisClusterNodes,
  RedisSentinels,
  RedisTarget,
  RedisTls,
  SentinelAddress,
} from './redis-target.js';
export {
  type AuthSettings,
  type ComputeSettings,
  type Environment,
  type HttpServerSettings,
  loadSettings,
  type QueueSettings,
  SETTING_VARIABLES,
  type Settings,
  SettingsError,
  type StorageSettings,
} from './settings.js';
