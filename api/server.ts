/**
 * Entry point of the API process: read settings, build the app, listen on `PORT` (default 8081).
 *
 * Exits with status 1 and a message naming the variable when the configuration is invalid.
 */
import { loadSettings, SettingsError } from '../shared/config/index.js';
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
  const app = createApp({ settings, logger });
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
