/**
 * Choosing the orchestrator of a request (spec §1.1): the deployment default, or a requested token when the deployment
 * allows overrides; the token must name a registered orchestrator (`direct`, `bullmq`).
 */
import type { ApiConfig } from '../shared/config/index.js';
import { MissingOrchestratorError, OrchestrationModeOverrideForbidden } from '../shared/errors/index.js';
import type { Orchestrator } from './orchestrators/orchestrator.js';

/**
 * The mode a request runs under.
 * @param requested - the request's `orchestration_mode`, if any
 * @param config - the deployment's `api.toml` settings
 * @returns the default when nothing (or the default itself) is requested, else the requested token when allowed
 * @throws OrchestrationModeOverrideForbidden (403) when another token is requested and overrides are off
 */
export function resolveOrchestrationMode(requested: string | null | undefined, config: ApiConfig): string {
  if (requested === null || requested === undefined || requested === config.orchestrationMode) return config.orchestrationMode;
  if (config.allowRequestOrchestrationModeOverride) return requested;
  throw new OrchestrationModeOverrideForbidden(
    `This deployment does not allow overriding orchestration_mode per request (configured mode '${config.orchestrationMode}', requested '${requested}').`,
  );
}

/** The orchestrators of a deployment and its `api.toml` settings. */
export class Orchestration {
  constructor(
    readonly config: ApiConfig,
    private readonly orchestrators: ReadonlyMap<string, Orchestrator>,
  ) {}

  /**
   * The orchestrator of a request.
   * @param requested - the request's `orchestration_mode`
   * @throws OrchestrationModeOverrideForbidden (403); MissingOrchestratorError (500) for an unregistered token
   */
  select(requested: string | null | undefined): Orchestrator {
    const mode = resolveOrchestrationMode(requested, this.config);
    const orchestrator = this.orchestrators.get(mode);
    if (!orchestrator) {
      throw new MissingOrchestratorError(
        `Orchestration mode '${mode}' has no registered orchestrator on this deployment (registered: ${[...this.orchestrators.keys()].join(', ')}).`,
      );
    }
    return orchestrator;
  }
}
