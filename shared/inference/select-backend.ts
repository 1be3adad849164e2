/**
 * Choosing the inference backend from settings: the routed backend of the inference configuration, under the profile
 * `INFERENCE_PROFILE` names (`auto`: the configuration's active profile; `mock`: everything offline; or any profile of
 * `routing_profiles.toml`). README.md#inference.
 */
import { join } from 'node:path';
import { PipelexConfigError } from '../errors/index.js';
import { loadInferenceConfig } from './config/inference-config.js';
import { createRoutedBackend, type RateLimitOptions, type RoutedBackend } from './routed-backend.js';

/** The inference part of the settings, plus where the configuration lives. */
export interface InferenceSelection {
  /** `auto`, `mock`, or a profile name. */
  profile: string;
  /** Timeout of one provider call, in ms. */
  timeoutMs: number;
  /** SDK retries of a failed provider call. */
  maxRetries: number;
  /** Artificial latency of the mock, in ms. */
  mockLatencyMs: number;
  /** Longest a call waits for its provider rate limits, in ms (`INFERENCE_RATE_LIMIT_WAIT_MS`). */
  rateLimitWaitMs: number;
  /** Window of the per-minute rate limits, in seconds (`INFERENCE_RATE_LIMIT_WINDOW_SECONDS`: 60). */
  rateLimitWindowSeconds: number;
  /** An organization's share of each rate limit, in (0, 1] (`INFERENCE_ORG_RATE_SHARE`: 1, no cap). */
  orgRateShare: number;
}

/**
 * Build the backend the settings select.
 * @param selection - profile and client limits
 * @param serviceConfigDir - `SERVICE_CONFIG_DIR`; its `inference/` folder overrides the packaged configuration
 * @param environment - variables for `${VAR}` substitution (provider keys, endpoints)
 * @param rateLimits - where the rate limits count (Redis in queue mode; this process's memory by default) and who is
 *   told of waits and pauses
 * @throws PipelexConfigError for a malformed configuration (the message names the file) or an unknown profile (it names
 *   `INFERENCE_PROFILE` and the profiles there are)
 */
export function selectInferenceBackend(
  selection: InferenceSelection,
  serviceConfigDir: string,
  environment: Record<string, string | undefined>,
  rateLimits: Omit<RateLimitOptions, 'waitMs' | 'windowSeconds' | 'orgShare'> = { store: { kind: 'memory' } },
): RoutedBackend {
  const config = loadInferenceConfig(join(serviceConfigDir, 'inference'), environment);
  if (selection.profile !== 'auto' && !Object.hasOwn(config.routing.profiles, selection.profile)) {
    throw new PipelexConfigError(
      `INFERENCE_PROFILE: '${selection.profile}' is not a routing profile of routing_profiles.toml (use auto, or one of: ${Object.keys(config.routing.profiles).join(', ')})`,
    );
  }
  return createRoutedBackend({
    config,
    ...(selection.profile === 'auto' ? {} : { profile: selection.profile }),
    timeoutMs: selection.timeoutMs,
    maxRetries: selection.maxRetries,
    mockLatencyMs: selection.mockLatencyMs,
    rateLimits: {
      ...rateLimits,
      waitMs: selection.rateLimitWaitMs,
      windowSeconds: selection.rateLimitWindowSeconds,
      orgShare: selection.orgRateShare,
    },
  });
}
