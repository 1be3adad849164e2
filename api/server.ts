/**
 * Entry point of the API process: read settings, pick the inference backend (mock unless a provider key is set, and
 * then loudly labelled), build the app, listen on `PORT` (default 8081).
 *
 * Exits with status 1 and a message naming the variable when the configuration is invalid.
 */
import { loadSettings, SettingsError } from '../shared/config/index.js';
import { selectInferenceBackend } from '../shared/inference/index.js';
import { createLogger } from '../shared/observability/index.js';
import { createApp } from './app.js';

function main(): void {
  let settings;
  try {
    settings = loadSettings(process.env);
  } catch (error) {
    if (error instanceof SettingsError) {
      process.stderr.write(`${error.message}\n`);
      process.exit(1);
    }
    throw error;
  }
  const logger = createLogger(settings.logLevel, 'api');
  const inference = selectInferenceBackend(settings.inference);
  if (inference.isMock) {
    logger.warn(
      'MOCK INFERENCE: no provider is configured (set OPENAI_API_KEY, or INFERENCE_PROFILE=mock is forcing it). Every LLM output of this server is deterministic placeholder text, not a model answer.',
    );
  } else {
    logger.info({ backend: inference.name, model: settings.inference.openaiModel }, 'inference backend selected');
  }
  const app = createApp({ settings, logger, inference });
  const server = app.listen(settings.port, settings.host, () => {
    const address = server.address();
    const port = typeof address === 'object' && address ? address.port : settings.port;
    logger.info({ port, auth_mode: settings.auth.mode }, `MTHDS runner listening on http://${settings.host}:${port}`);
  });
  const shutdown = (signal: string) => {
    logger.info({ signal }, 'shutting down');
    server.close(() => process.exit(0));
  };
  process.once('SIGTERM', () => shutdown('SIGTERM'));
  process.once('SIGINT', () => shutdown('SIGINT'));
}

main();
