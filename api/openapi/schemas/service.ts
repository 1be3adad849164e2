/**
 * Bodies of the probes and discovery routes (`GET /`, `/health`, `/ready`, `/v1/version`, `/v1/models`) as the
 * OpenAPI document describes them. Names and members follow the reference OpenAPI (`ServiceIdentity`,
 * `HealthResponse`, `PipelexVersionInfo`, `PipelexModelDeck`); `ReadyResponse` is this runner's own.
 */
import { z } from 'zod';
import { MODEL_CATEGORIES } from '../../../shared/inference/index.js';

/** `GET /` for a client that does not ask for HTML: who answers, and where the API reference is. */
export const SERVICE_IDENTITY = z
  .looseObject({
    message: z.string().meta({ description: 'Name of the service answering on this origin.' }),
    docs_url: z.string().meta({ description: 'Path of the interactive API reference page.' }),
    openapi_url: z.string().meta({ description: 'Path of the OpenAPI document.' }),
  })
  .meta({ id: 'ServiceIdentity', description: 'The service identity banner (a browser is redirected to `/docs`).' });

/** `GET /health` (spec §4.1). */
export const HEALTH_RESPONSE = z
  .object({ status: z.literal('ok'), message: z.string() })
  .meta({ id: 'HealthResponse', description: 'Liveness: the process is serving.' });

/** `GET /ready` (docs/api.md#get-health-and-get-ready). */
export const READY_RESPONSE = z
  .object({
    status: z.literal('ready'),
    checks: z
      .record(z.string(), z.enum(['ok', 'pending', 'failed']))
      .meta({ description: 'Each readiness check and its state: `diagnostics_threads`, and `redis` in queue mode.' }),
  })
  .meta({ id: 'ReadyResponse', description: 'Readiness: the process is warm and its dependencies answer.' });

/** `GET /v1/version` (spec §2.11; docs/api.md#get-v1version). */
export const VERSION_INFO = z
  .looseObject({
    protocol_version: z.string().meta({ description: 'The MTHDS protocol version implemented.' }),
    runner_version: z.string(),
    implementation: z.string().meta({ description: 'Identifies this runner: `mthds-runner`.' }),
    implementation_version: z.string(),
    runtime_version: z.string(),
    extensions: z.array(z.string()).optional().meta({
      description:
        'The hosted-API extensions this deployment serves (`api_keys` with a control plane); absent when none.',
    }),
  })
  .meta({ id: 'PipelexVersionInfo', description: 'The handshake for feature detection (spec §9 rule 4).' });

const MODEL_CATEGORY = z.enum(MODEL_CATEGORIES).meta({ id: 'ModelCategory' });

/** `GET /v1/models` (spec §4.2; docs/inference.md). */
export const MODEL_DECK = z
  .looseObject({
    models: z.array(
      z
        .looseObject({ name: z.string(), type: MODEL_CATEGORY, description: z.string().optional() })
        .meta({ id: 'ModelInfo', description: 'A model preset.' }),
    ),
    aliases: z
      .record(z.string(), z.record(z.string(), z.string()))
      .meta({ description: 'By category: alias → the preset or alias it names.' }),
    waterfalls: z
      .record(z.string(), z.record(z.string(), z.array(z.string())))
      .meta({ description: 'By category: waterfall → the presets tried in order.' }),
  })
  .meta({ id: 'PipelexModelDeck', description: 'The model deck: presets, aliases and waterfalls by category.' });
