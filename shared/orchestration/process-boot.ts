/**
 * The boot of a service process, shared by the API (`api/server.ts`) and the worker (`worker/main.ts`): settings and
 * inference configuration (a bad one refuses to start: one line on stderr naming the variable or file, exit status
 * 1), the logger and the fatal-error policy, the resource stack released on shutdown, metrics, the inference backend
 * (loudly labelled when it is the mock), and the facts every startup line gives.
 */
import type { RedisClient } from '../config/index.js';
import { loadSettings, type Settings, SettingsError } from '../config/index.js';
import { PipelexConfigError } from '../errors/index.js';
import {
  genAiTelemetry,
  type LimiterStore,
  meteredBackend,
  type RoutedBackend,
  selectInferenceBackend,
  throttleMetrics,
} from '../inference/index.js';
import { installFatalErrorPolicy, ResourceStack } from '../lifecycle/index.js';
import { captureGenAiContent, createLogger, type Logger, Metrics, swallowedErrors } from '../observability/index.js';
import type { InferencePort } from '../runtime/index.js';
import { IMPLEMENTATION_VERSION } from '../version.js';

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
  /** What the process's startup line says of it (besides what only its entry point knows). */
  startup: StartupFacts;
}

/** The facts of a startup line common to the API and the worker (README.md#logs). */
export interface StartupFacts {
  /** The runner's version (package.json). */
  version: string;
  /** `INFERENCE_PROFILE` as set: `auto`, `mock` or a routing profile. */
  inference_profile: string;
  /** True when every inference call is answered by the offline mock (no provider configured, or the `mock` profile). */
  mock_inference: boolean;
}

/**
 * Refuse to start: one line on stderr, exit status 1 (README.md#configuration).
 * @param line - what is wrong and, where there is one, the variable or file to change
 */
export function refuseToStart(line: string): never {
  process.stderr.write(`${line.replace(/\s*\n\s*/g, ' ')}\n`);
  process.exit(1);
}

/**
 * A Redis URL as logs may show it: any user and password replaced by `***`.
 * @param url - a `redis://` or `rediss://` URL (`REDIS_URL`)
 * @returns the URL without its credentials, e.g. `redis://***@redis.internal:6379/0`
 */
export function redisUrlForLogs(url: string): string {
  return url.replace(/^(rediss?:\/\/)[^/]*@/, '$1***@');
}

/**
 * Load configuration, or refuse to start with the one-line message of a {@link SettingsError} (it names the variable
 * or file); a `PipelexConfigError` (a malformed inference configuration, an unknown `INFERENCE_PROFILE`) is refused the
 * same way.
 * @param load - reads the configuration
 * @returns what `load` returns
 * @throws whatever `load` throws other than those two
 */
export function configurationOrExit<T>(load: () => T): T {
  try {
    return load();
  } catch (error) {
    if (error instanceof SettingsError) refuseToStart(error.message);
    if (error instanceof PipelexConfigError) refuseToStart(new SettingsError([error.message]).message);
    throw error;
  }
}

/**
 * Load a process's settings from its environment, or refuse to start (see {@link configurationOrExit}).
 * @param environment - the process environment (`process.env`)
 * @returns the settings; exits with status 1 and one line on stderr when they are invalid
 */
export function loadProcessSettings(environment: NodeJS.ProcessEnv): Settings {
  return configurationOrExit(() => loadSettings(environment));
}

/**
 * Boot a process from its settings.
 * @param role - `api` or `worker`: the logger's name and the wording of the mock-inference warning
 * @param settings - the process's settings ({@link loadProcessSettings})
 * @param environment - the process environment (`process.env`): provider keys
 * @param openRateLimitConnection - in queue mode, opens the Redis connection on which the process's provider rate
 *   limits count with every other process of the deployment (keys under `QUEUE_PREFIX`; closed with the process);
 *   without it they count in the process's own memory (direct mode); docs/inference.md#rate-limits. Passed by the
 *   entry point, so a process in direct mode never loads the Redis client.
 * @returns settings, logger, resources, metrics, the inference backend and the startup facts; refuses to start (exit
 *   status 1) on an invalid inference configuration
 */
export function bootProcess(
  role: 'api' | 'worker',
  settings: Settings,
  environment: NodeJS.ProcessEnv,
  openRateLimitConnection?: () => RedisClient,
): BootedProcess {
  const logger = createLogger(settings.logLevel, role);
  installFatalErrorPolicy(logger);
  swallowedErrors.useLogger(logger);
  const metrics = new Metrics();
  const resources = new ResourceStack();
  let store: LimiterStore = { kind: 'memory' };
  if (openRateLimitConnection) {
    const client = openRateLimitConnection();
    resources.defer('rate limit connection', () => client.disconnect());
    store = { kind: 'redis', client, keyPrefix: settings.queue.prefix };
  }
  const backend = configurationOrExit(() =>
    selectInferenceBackend(settings.inference, settings.serviceConfigDir, environment, {
      store,
      observer: throttleMetrics(metrics),
    }),
  );
  if (backend.isMock) {
    logger.warn(
      `MOCK INFERENCE: no provider is configured (set OPENAI_API_KEY, ANTHROPIC_API_KEY or GEMINI_API_KEY; or INFERENCE_PROFILE=mock is forcing it). Every LLM output of this ${role === 'api' ? 'server' : 'worker'} is deterministic placeholder text, not a model answer.`,
    );
  }
  if (settings.callbacks.allowPrivateHosts)
    logger.warn(
      'CALLBACK_ALLOW_PRIVATE_HOSTS=true: callbacks may reach private and loopback hosts (development and tests only).',
    );
  return {
    settings,
    logger,
    resources,
    metrics,
    backend,
    inference: genAiTelemetry(meteredBackend(backend, metrics), {
      metrics,
      captureContent: captureGenAiContent(environment),
    }),
    startup: {
      version: IMPLEMENTATION_VERSION,
      inference_profile: settings.inference.profile,
      mock_inference: backend.isMock,
    },
  };
}
