/**
 * The Express application factory. Returns an app without listening, so tests drive it in-process.
 *
 * Request lifecycle, in order (STYLE.md rule 20):
 * 1. request id (`X-Request-ID` on every response, spec §7.4)
 * 2. body-size guard on the declared length (413, spec §8), before routing and auth
 * 3. `GET /health` (outside `/v1` and outside auth, spec §4.1)
 * 4. authentication of every `/v1` route (spec §5)
 * 5. per-route JSON body parsing (413 / 422) and zod request schema (422)
 * 6. route handler (a thin call into the core)
 * 7. unknown route → 404 problem without a `code` member
 * 8. the problem handler: every error as `application/problem+json` (spec §7)
 */
import express, { type Express } from 'express';
import type { Settings } from '../shared/config/index.js';
import type { Logger } from '../shared/observability/index.js';
import { randomIdSource, type IdSource, type InferencePort } from '../shared/runtime/index.js';
import { authenticate } from './middleware/authenticate.js';
import { bodySizeGuard } from './middleware/body-size-guard.js';
import { problemHandler, routeNotFound } from './middleware/problem-handler.js';
import { requestId } from './middleware/request-id.js';
import { DEFAULT_ORCHESTRATION } from './orchestration.js';
import { executeRouter } from './routes/execute.js';
import { healthRouter } from './routes/health.js';
import { validateRouter } from './routes/validate.js';
import { versionRouter } from './routes/version.js';

/** What the app is built from. Tests pass their own settings, a silent logger and their inference backend. */
export interface AppDeps {
  settings: Settings;
  logger: Logger;
  /** The inference backend runs call (mock or a provider). */
  inference: InferencePort;
  /** Stuff-code source; random by default. */
  ids?: IdSource;
  /** Clock in epoch milliseconds; `Date.now` by default. */
  now?: () => number;
}

/**
 * Build the application.
 * @param deps - validated settings, logger and the runtime's ports
 * @returns an Express app, not listening
 */
export function createApp(deps: AppDeps): Express {
  const { settings, logger } = deps;
  const maxBodyBytes = settings.maxRequestBodyMib * 1024 * 1024;
  const app = express();
  app.disable('x-powered-by');
  app.set('json spaces', 0);
  app.use(requestId);
  app.use(bodySizeGuard(maxBodyBytes));
  app.use(healthRouter());
  app.use('/v1', authenticate(settings.auth));
  app.use(versionRouter());
  app.use(validateRouter({ maxBodyBytes, orchestration: DEFAULT_ORCHESTRATION }));
  app.use(
    executeRouter({
      maxBodyBytes,
      orchestration: DEFAULT_ORCHESTRATION,
      inference: deps.inference,
      ids: deps.ids ?? randomIdSource(),
      now: deps.now ?? Date.now,
    }),
  );
  app.use(routeNotFound);
  app.use(problemHandler({ docsUrl: settings.errorDocsUrl, disclosure: settings.errorDisclosure, logger }));
  return app;
}
