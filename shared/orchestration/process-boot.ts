/**
 * The boot of a service process, shared by the API (`api/server.ts`) and the worker (`worker/main.ts`): settings
 * (exit 1 naming the variable when invalid), the logger and the fatal-error policy, the resource stack released on
 * shutdown, metrics, and the inference backend (loudly labelled when it is the mock).
 */
import { loadSettings, type Settings, SettingsError } from '../config/index.js';
import { meteredBackend, type RoutedBackend, selectInferenceBackend } from '../inference/index.js';
import { installFatalErrorPolicy, ResourceStack } from '../lifecycle/index.js';
import { createLogger, type Logger, Metrics } from '../observability/index.js';
import type { InferencePort } from '../runtime/index.js';

/** A booted process: what both entry points build first. */
export interface BootedProcess {
  settings: Settings;
  logger: Logger;
  /** What the process opened, released last opened first on shutdown (`shutdownOnSignals`). */
  resources: ResourceStack;
  metrics: Metrics;
  /** The selected backend (its model deck serves `GET /v1/models`). */
  backend: RoutedBackend;
  /** The backend, counted in `metrics`. */
  inference: InferencePort;
}

/**
 * Load configuration, or exit with status 1 and the message of a {@link SettingsError} (it names the variable).
 * @param load - reads the configuration
 * @returns what `load` returns
 * @throws whatever `load` throws other than a SettingsError
 */
export function configurationOrExit<T>(load: () => T): T {
  try {
    return load();
  } catch (error) {
    if (error instanceof SettingsError) {
      process.stderr.write(`${error.message}\n`);
      process.exit(1);
    }
    throw error;
  }
}

/**
 * Boot a process from its environment.
 * @param role - `api` or `worker`: the logger's name and the wording of the mock-inference warning
 * @param environment - the process environment (`process.env`)
 * @returns settings, logger, resources, metrics and the inference backend; exits with status 1 on invalid settings
 */
export function bootProcess(role: 'api' | 'worker', environment: NodeJS.ProcessEnv): BootedProcess {
  const settings = configurationOrExit(() => loadSettings(environment));
  const logger = createLogger(settings.logLevel, role);
  installFatalErrorPolicy(logger);
  const metrics = new Metrics();
  const backend = selectInferenceBackend(settings.inference, settings.serviceConfigDir, environment);
  if (backend.isMock) {
    logger.warn(
      `MOCK INFERENCE: no provider is configured (set OPENAI_API_KEY, ANTHROPIC_API_KEY or GEMINI_API_KEY; or INFERENCE_PROFILE=mock is forcing it). Every LLM output of this ${role === 'api' ? 'server' : 'worker'} is deterministic placeholder text, not a model answer.`,
    );
  } else {
    logger.info({ backend: backend.name }, 'inference backend selected');
  }
  if (settings.callbacks.allowPrivateHosts)
    logger.warn(
      'CALLBACK_ALLOW_PRIVATE_HOSTS=true: callbacks may reach private and loopback hosts (development and tests only).',
    );
  return {
    settings,
    logger,
    resources: new ResourceStack(),
    metrics,
    backend,
    inference: meteredBackend(backend, metrics),
  };
}
