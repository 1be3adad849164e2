/**
 * Routing a model handle to a backend (docs/inference.md#routing-profiles): the active profile's exact routes, then its
 * glob patterns,
 * then its default. A profile with a `fallback` (the packaged `auto`) sends a call whose backend is disabled or lacks
 * credentials to the fallback; any other profile refuses it with `EnvVarNotFoundError` (500).
 */
import { EnvVarNotFoundError, PipelexConfigError } from '../../errors/index.js';
import type { BackendConfig, InferenceConfig, ModelCategory, ModelSpec, RoutingProfile } from './inference-config.js';

/** Where a handle is served. */
export interface Route {
  backend: string;
  /** The provider's model name. */
  modelId: string;
  spec: ModelSpec;
  config: BackendConfig;
}

const OFFLINE_SDKS = new Set(['mock', 'internal']);

function globMatches(pattern: string, handle: string): boolean {
  const regex = new RegExp(
    `^${pattern
      .split('*')
      .map((part) => part.replace(/[.+?^${}()|[\]\\]/g, '\\$&'))
      .join('.*')}$`,
  );
  return regex.test(handle);
}

/** The router of a configuration. */
export class ModelRouter {
  readonly profileName: string;
  private readonly profile: RoutingProfile;

  /**
   * @param config - the inference configuration
   * @param profileName - a profile of `routing_profiles.toml`, or undefined for its `active` one
   * @throws PipelexConfigError for an unknown profile
   */
  constructor(
    private readonly config: InferenceConfig,
    profileName?: string,
  ) {
    this.profileName = profileName ?? config.routing.active;
    const profile = config.routing.profiles[this.profileName];
    if (!profile)
      throw new PipelexConfigError(
        `Routing profile '${this.profileName}' is not defined in routing_profiles.toml (profiles: ${Object.keys(config.routing.profiles).join(', ')}).`,
      );
    this.profile = profile;
  }

  private sdkOf(backend: string, handle: string): string {
    const models = this.config.models[backend] ?? {};
    return (models[handle] ?? models['*'] ?? Object.values(models)[0])?.sdk ?? backend;
  }

  /** Whether a backend can take calls now (enabled, and credentials present unless it is offline). */
  isUsable(backend: string): boolean {
    const config = this.config.backends[backend];
    if (!config?.enabled) return false;
    return OFFLINE_SDKS.has(this.sdkOf(backend, '*')) || config.api_key !== undefined;
  }

  private chosenBackend(handle: string): string {
    const exact = this.profile.routes[handle];
    if (exact !== undefined) return exact;
    const pattern = Object.keys(this.profile.routes).find((key) => key.includes('*') && globMatches(key, handle));
    return pattern === undefined ? this.profile.default : this.profile.routes[pattern]!;
  }

  /**
   * Route a handle.
   * @param handle - a model handle
   * @param category - its category (for messages)
   * @param canServe - optional capability check; a backend that cannot serve the call goes to the fallback too
   * @throws EnvVarNotFoundError (500) when a strict profile's backend lacks credentials
   */
  route(handle: string, category: ModelCategory, canServe: (backend: string) => boolean = () => true): Route {
    let backend = this.chosenBackend(handle);
    if (!this.isUsable(backend) || !canServe(backend)) {
      if (this.profile.fallback === undefined) {
        throw new EnvVarNotFoundError(
          `Model '${handle}' (${category}) routes to backend '${backend}' of profile '${this.profileName}', which is disabled, lacks its credentials or cannot serve this call; set its api_key variable or choose another routing profile.`,
        );
      }
      backend = this.profile.fallback;
    }
    const models = this.config.models[backend] ?? {};
    const spec = models[handle] ?? models['*'] ?? {};
    return {
      backend,
      modelId: spec.model_id ?? handle,
      spec,
      config: this.config.backends[backend] ?? { enabled: true },
    };
  }

  /**
   * Whether the backend a handle routes to is enabled on this boot, credentials or not (what the reference's deck holds
   * specs for: a keyless boot keeps every enabled backend); PipeJudge's load-time check resolves waterfalls with it.
   */
  isEnabled(handle: string): boolean {
    return this.config.backends[this.chosenBackend(handle)]?.enabled === true;
  }

  /** Whether a handle could be served now (for waterfalls). */
  canServe(handle: string): boolean {
    return this.isUsable(this.chosenBackend(handle));
  }
}
