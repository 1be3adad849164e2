/**
 * The inference configuration, in the reference runtime's file layout (docs/inference.md#configuration-files,
 * docs/inference.md#backends, docs/inference.md#model-specs, docs/inference.md#routing-profiles,
 * docs/inference.md#the-model-deck): `backends.toml`,
 * `backends/<name>.toml` (model specs), `routing_profiles.toml` and `deck/*.toml` (model deck). The packaged
 * defaults (`shared/inference/defaults/`) are overridden file by file by `<SERVICE_CONFIG_DIR>/inference/`: a file
 * present there replaces the packaged file of the same name whole; deck files are read in name order and merged
 * entry by entry (a later file's aliases, presets and waterfalls add to or replace earlier ones). String values
 * may reference environment variables as `${VAR}` (unset → the key counts as absent).
 */
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parse } from 'smol-toml';
import { z } from 'zod';
import { PipelexConfigError } from '../../errors/index.js';

/** The packaged defaults directory. */
const PACKAGED_INFERENCE_DIR = fileURLToPath(new URL('../defaults/', import.meta.url));

/**
 * Provider rate limits of a backend (all its models together) or of one model (docs/inference.md#rate-limits); every
 * key is optional and a missing key sets no limit.
 */
const RATE_LIMITS = z.strictObject({
  requests_per_minute: z.number().int().positive().optional(),
  tokens_per_minute: z.number().int().positive().optional(),
  max_concurrent: z.number().int().positive().optional(),
});
const BACKEND = z.looseObject({
  display_name: z.string().optional(),
  enabled: z.boolean().default(true),
  endpoint: z.string().optional(),
  api_key: z.string().optional(),
  rate_limits: RATE_LIMITS.optional(),
});
const MODEL_SPEC = z.looseObject({
  model_type: z.enum(['llm', 'img_gen', 'extract', 'search']).optional(),
  model_id: z.string().optional(),
  sdk: z.string().optional(),
  outputs: z.array(z.string()).optional(),
  /**
   * What the model reads (the reference's spec `inputs`): `text`, `images`, `pdf`. Absent: unknown, so a static check
   * that needs it (PipeJudge's input capability, docs/language.md#pipejudge) is left out.
   */
  inputs: z.array(z.string()).optional(),
  /**
   * Prices in USD (docs/inference.md#prices): `input` / `output` per million tokens, `image` per generated image,
   * `search` per search call. An absent price is unknown: the call's cost is reported as unknown (null), never 0.
   */
  costs: z
    .strictObject({
      input: z.number().nonnegative().optional(),
      output: z.number().nonnegative().optional(),
      image: z.number().nonnegative().optional(),
      search: z.number().nonnegative().optional(),
    })
    .optional(),
  max_tokens: z.number().int().positive().optional(),
  rate_limits: RATE_LIMITS.optional(),
});
const PROFILE = z.object({
  description: z.string().optional(),
  default: z.string(),
  fallback: z.string().optional(),
  routes: z.record(z.string(), z.string()).default({}),
});
const ROUTING = z.object({ active: z.string(), profiles: z.record(z.string(), PROFILE) });
const PRESET = z.looseObject({
  model: z.string(),
  temperature: z.number().min(0).max(2).optional(),
  max_tokens: z.number().int().positive().optional(),
  description: z.string().optional(),
});
const CATEGORY_DECK = z.object({
  choice_default: z.string().optional(),
  choice_defaults: z
    .object({
      default_temperature: z.number().optional(),
      for_text: z.string().optional(),
      for_object: z.string().optional(),
    })
    .optional(),
  aliases: z.record(z.string(), z.string()).default({}),
  presets: z.record(z.string(), PRESET).default({}),
  waterfalls: z.record(z.string(), z.array(z.string())).default({}),
});

/** Rate limits of a backend or a model: requests and tokens per minute, calls in flight. */
export type RateLimits = z.infer<typeof RATE_LIMITS>;
/** A backend's connection settings. */
export type BackendConfig = z.infer<typeof BACKEND>;
/** A model served by a backend. */
export type ModelSpec = z.infer<typeof MODEL_SPEC>;
/** A routing profile. */
export type RoutingProfile = z.infer<typeof PROFILE>;
/** A preset (`$name`). */
export type Preset = z.infer<typeof PRESET>;
/** The deck of one category. */
export type CategoryDeck = z.infer<typeof CATEGORY_DECK>;
/**
 * Model categories (docs/inference.md#the-model-deck): the four of the 0.16 contract and `judgment` (the models
 * PipeJudge asks, docs/language.md#pipejudge), which protocol 0.7.0 adds and `GET /v1/models` lists.
 */
export type ModelCategory = 'llm' | 'img_gen' | 'extract' | 'search' | 'judgment';
/** Every category, in listing order. */
export const MODEL_CATEGORIES: readonly ModelCategory[] = ['extract', 'img_gen', 'judgment', 'llm', 'search'];

/** The loaded configuration. */
export interface InferenceConfig {
  backends: Record<string, BackendConfig>;
  /** Model specs by backend, then by handle (the `[defaults]` table merged into each). */
  models: Record<string, Record<string, ModelSpec>>;
  routing: z.infer<typeof ROUTING>;
  deck: Record<ModelCategory, CategoryDeck>;
}

function substitute(value: unknown, environment: Record<string, string | undefined>): unknown {
  if (typeof value === 'string') {
    if (!/\$\{[A-Za-z_][A-Za-z0-9_]*\}/.test(value)) return value;
    let missing = false;
    const replaced = value.replace(/\$\{([A-Za-z_][A-Za-z0-9_]*)\}/g, (_match, name: string) => {
      const resolved = environment[name];
      if (resolved === undefined || resolved === '') missing = true;
      return resolved ?? '';
    });
    return missing ? undefined : replaced;
  }
  if (Array.isArray(value)) return value.map((item) => substitute(item, environment));
  if (value !== null && typeof value === 'object') {
    return Object.fromEntries(
      Object.entries(value).flatMap(([key, item]) => {
        const resolved = substitute(item, environment);
        return resolved === undefined ? [] : [[key, resolved]];
      }),
    );
  }
  return value;
}

function readToml(path: string, environment: Record<string, string | undefined>): Record<string, unknown> {
  try {
    return substitute(parse(readFileSync(path, 'utf8')), environment) as Record<string, unknown>;
  } catch (error) {
    throw new PipelexConfigError(`Inference configuration ${path}: ${(error as Error).message.split('\n')[0]}`, {
      cause: error,
    });
  }
}

function layeredFiles(relative: string, overrideDir: string | undefined): Map<string, string> {
  const files = new Map<string, string>();
  for (const root of [PACKAGED_INFERENCE_DIR, overrideDir]) {
    if (!root || !existsSync(join(root, relative))) continue;
    for (const name of readdirSync(join(root, relative)).filter((file) => file.endsWith('.toml')))
      files.set(name, join(root, relative, name));
  }
  return files;
}

function layeredFile(name: string, overrideDir: string | undefined): string {
  return overrideDir && existsSync(join(overrideDir, name))
    ? join(overrideDir, name)
    : join(PACKAGED_INFERENCE_DIR, name);
}

function parsed<T extends z.ZodType>(schema: T, value: unknown, label: string): z.infer<T> {
  const result = schema.safeParse(value);
  if (!result.success)
    throw new PipelexConfigError(
      `Inference configuration ${label}: ${result.error.issues.map((issue) => `${issue.path.join('.')}: ${issue.message}`).join('; ')}`,
    );
  return result.data;
}

/**
 * Load the configuration.
 * @param overrideDir - `<SERVICE_CONFIG_DIR>/inference`, or undefined for the packaged defaults only
 * @param environment - variables for `${VAR}` substitution
 * @throws PipelexConfigError naming the file and key of a malformed value
 */
export function loadInferenceConfig(
  overrideDir: string | undefined,
  environment: Record<string, string | undefined>,
): InferenceConfig {
  const backendsData = readToml(layeredFile('backends.toml', overrideDir), environment);
  const backends = Object.fromEntries(
    Object.entries(backendsData).map(([name, table]) => [name, parsed(BACKEND, table, `backends.toml [${name}]`)]),
  );
  const models: InferenceConfig['models'] = {};
  for (const [file, path] of layeredFiles('backends', overrideDir)) {
    const { defaults = {}, ...handles } = readToml(path, environment) as Record<string, Record<string, unknown>>;
    models[file.replace(/\.toml$/, '')] = Object.fromEntries(
      Object.entries(handles).map(([handle, spec]) => [
        handle,
        parsed(MODEL_SPEC, { ...defaults, ...spec }, `backends/${file} [${handle}]`),
      ]),
    );
    if (Object.keys(handles).length === 0)
      models[file.replace(/\.toml$/, '')] = { '*': parsed(MODEL_SPEC, defaults, `backends/${file} [defaults]`) };
  }
  const routing = parsed(
    ROUTING,
    readToml(layeredFile('routing_profiles.toml', overrideDir), environment),
    'routing_profiles.toml',
  );
  if (!routing.profiles[routing.active])
    throw new PipelexConfigError(
      `Inference configuration routing_profiles.toml: active profile '${routing.active}' is not defined.`,
    );
  const deckData: Record<string, unknown> = {};
  for (const [, path] of [...layeredFiles('deck', overrideDir)].sort(([a], [b]) => a.localeCompare(b))) {
    for (const [category, table] of Object.entries(readToml(path, environment))) {
      const merged = { ...((deckData[category] ?? {}) as Record<string, unknown>) };
      for (const [key, value] of Object.entries(table as Record<string, unknown>)) {
        const previous = merged[key];
        const bothTables =
          previous !== null &&
          typeof previous === 'object' &&
          !Array.isArray(previous) &&
          value !== null &&
          typeof value === 'object' &&
          !Array.isArray(value);
        merged[key] = bothTables ? { ...(previous as object), ...(value as object) } : value;
      }
      deckData[category] = merged;
    }
  }
  const deck = Object.fromEntries(
    MODEL_CATEGORIES.map((category) => [
      category,
      parsed(CATEGORY_DECK, deckData[category] ?? {}, `deck [${category}]`),
    ]),
  ) as Record<ModelCategory, CategoryDeck>;
  return { backends, models, routing, deck };
}
