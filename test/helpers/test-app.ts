/**
 * Builds the API app for in-process tests (supertest), from an environment map and a silent logger.
 */
import type { Express } from 'express';
import { createApp } from '../../api/app.js';
import { loadSettings, type Environment } from '../../shared/config/index.js';
import { selectInferenceBackend } from '../../shared/inference/index.js';
import { createLogger } from '../../shared/observability/index.js';
import type { InferencePort, TemplateRenderer } from '../../shared/runtime/index.js';

/**
 * Build an app as `npm start` would, but from `environment` instead of `process.env`.
 * @param environment - variables to set (defaults apply to the rest)
 * @param inference - the backend runs call; by default the one the settings select (mock without `OPENAI_API_KEY`)
 * @param templates - renders the runs' templates; by default the render thread pool, as `npm start` wires it
 */
export function buildTestApp(environment: Environment = {}, inference?: InferencePort, templates?: TemplateRenderer): Express {
  const settings = loadSettings(environment);
  const routed = selectInferenceBackend(settings.inference, settings.serviceConfigDir, environment);
  return createApp({ settings, logger: createLogger('silent', 'test'), inference: inference ?? routed, modelDeck: routed.deck, ...(templates ? { templates } : {}) });
}
