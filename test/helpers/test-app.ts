/**
 * Builds the API app for in-process tests (supertest), from an environment map and a silent logger.
 */
import type { Express } from 'express';
import { createApp } from '../../api/app.js';
import { loadSettings, type Environment } from '../../shared/config/index.js';
import { createLogger } from '../../shared/observability/index.js';

/**
 * Build an app as `npm start` would, but from `environment` instead of `process.env`.
 * @param environment - variables to set (defaults apply to the rest)
 */
export function buildTestApp(environment: Environment = {}): Express {
  const settings = loadSettings(environment);
  return createApp({ settings, logger: createLogger('silent', 'test') });
}
