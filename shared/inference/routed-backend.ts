/**
 * The configured inference backend: each call's `model` reference goes through the model deck (preset, alias,
 * waterfall → handle and settings), then the routing profile (handle → backend and provider model name), then the
 * backend's SDK client (OpenAI-compatible, Anthropic, or the mock). Usage is reported under the handle, with the
 * provider model id, the backend and the cost when the model spec has rates (docs/inference.md#routing-profiles,
 * docs/inference.md#the-model-deck, docs/inference.md#from-a-pipes-model-to-a-call,
 * docs/inference.md#provider-wire-formats, docs/inference.md#token-usage-and-cost).
 */
import { PipelexConfigError } from '../errors/index.js';
import { createAnthropicBackend } from './anthropic-backend.js';
import type { InferenceConfig, ModelCategory } from './config/inference-config.js';
import { ModelDeck } from './config/model-deck.js';
import { ModelRouter, type Route } from './config/model-router.js';
import { createGeminiBackend } from './gemini-backend.js';
import { createLinkupBackend } from './linkup-backend.js';
import { createMockBackend } from './mock-backend.js';
import { createOpenAiBackend } from './openai-backend.js';
import { callCost, quoteOf } from './pricing.js';
import type { ThrottleObserver } from './rate-limits/call-gate.js';
import type { LimiterStore } from './rate-limits/limiter-store.js';
import { ProviderThrottle } from './rate-limits/provider-throttle.js';
import { throttledBackend } from './rate-limits/throttled-backend.js';
import type { InferenceBackend, QuotedCall, TokenUsage } from './types.js';

/** Options of the routed backend. */
export interface RoutedBackendOptions {
  config: InferenceConfig;
  /** A profile of `routing_profiles.toml`; its `active` one by default. */
  profile?: string;
  /** Timeout of one provider call, in ms. */
  timeoutMs: number;
  /** SDK retries of a failed provider call. */
  maxRetries: number;
  /** Artificial latency of the mock, in ms. */
  mockLatencyMs: number;
  /** Provider rate limits (docs/inference.md#rate-limits). */
  rateLimits: RateLimitOptions;
}

/** Where the rate limits count and how long a call may wait for them. */
export interface RateLimitOptions {
  /** Redis (every process of the deployment counts together) or memory (direct mode). */
  store: LimiterStore;
  /** Longest a call waits for admission, in ms (`INFERENCE_RATE_LIMIT_WAIT_MS`). */
  waitMs: number;
  /** Told of waits, refusals and backend pauses (metrics). */
  observer?: ThrottleObserver & { paused(backend: string, seconds: number): void };
  /** Window of the per-minute limits, in whole seconds (60; tests shorten it). */
  windowSeconds?: number;
  /**
   * An organization's share of each limit when its run names none (`INFERENCE_ORG_RATE_SHARE`, in (0, 1]; 1, no cap,
   * by default; docs/inference.md#organization-shares).
   */
  orgShare?: number;
}

/** The routed backend, with its deck and router (for `/v1/models`). */
export interface RoutedBackend extends InferenceBackend {
  readonly deck: ModelDeck;
  readonly router: ModelRouter;
}

const SPOKEN_SDKS = new Set(['openai', 'anthropic', 'google', 'linkup', 'mock']);
/**
 * Which SDKs can serve images and searches, and the model type a provider's spec must declare for it. The mock serves
 * every handle of every category (its `[defaults]` table stands for all of them), so it always can.
 */
const CAPABILITIES: Record<'images' | 'search', { sdks: ReadonlySet<string>; modelType: string }> = {
  images: { sdks: new Set(['openai']), modelType: 'img_gen' },
  search: { sdks: new Set(['linkup']), modelType: 'search' },
};

function sdkOf(route: Route): string {
  return route.spec.sdk ?? route.backend;
}

function withCost(usage: TokenUsage, route: Route, handle: string, call: QuotedCall, images = 0): TokenUsage {
  const cost = callCost(route.spec.costs, call, usage, images);
  // no leading spread that adds members (CONTRIBUTING.md#22-no-leading-spread-on-the-hot-path)
  return Object.assign({}, usage, { model: handle, model_id: route.modelId, backend: route.backend, cost });
}

/**
 * What each model reads, by handle, for the handles whose spec declares `inputs` (the first backend declaring a
 * handle wins, in the order the configuration lists the backends).
 */
function modelInputs(config: InferenceConfig): Map<string, readonly string[]> {
  const inputs = new Map<string, readonly string[]>();
  for (const models of Object.values(config.models))
    for (const [handle, spec] of Object.entries(models))
      if (spec.inputs !== undefined && handle !== '*' && !inputs.has(handle)) inputs.set(handle, spec.inputs);
  return inputs;
}

/**
 * Create the routed backend.
 * @param options - configuration, profile and client limits
 * @throws PipelexConfigError for an unknown profile
 */
export function createRoutedBackend(options: RoutedBackendOptions): RoutedBackend {
  const { config } = options;
  const router = new ModelRouter(config, options.profile);
  const deck = new ModelDeck(
    config.deck,
    (handle) => router.canServe(handle),
    modelInputs(config),
    (handle) => router.isEnabled(handle),
  );
  const clients = new Map<string, InferenceBackend>();
  const throttle = new ProviderThrottle(config, {
    ...options.rateLimits,
    callBoundMs: options.timeoutMs * (options.maxRetries + 1),
  });

  const client = (route: Route): InferenceBackend => {
    const key = `${route.backend}:${route.modelId}`;
    const existing = clients.get(key);
    if (existing) return existing;
    const sdk = sdkOf(route);
    const common = { timeoutMs: options.timeoutMs, maxRetries: options.maxRetries };
    const pausing = { fetch: throttle.pausingFetch(route.backend) };
    let created: InferenceBackend;
    if (sdk === 'mock') created = createMockBackend({ latencyMs: options.mockLatencyMs });
    else if (sdk === 'openai')
      created = createOpenAiBackend({
        apiKey: route.config.api_key ?? '',
        ...(route.config.endpoint ? { baseUrl: route.config.endpoint } : {}),
        model: route.modelId,
        provider: route.backend,
        ...common,
        ...pausing,
      });
    else if (sdk === 'linkup')
      created = createLinkupBackend({
        apiKey: route.config.api_key ?? '',
        ...(route.config.endpoint ? { baseUrl: route.config.endpoint } : {}),
        depth: String(route.spec['depth'] ?? 'standard'),
        timeoutMs: options.timeoutMs,
        ...pausing,
      });
    else if (sdk === 'anthropic')
      created = createAnthropicBackend({
        apiKey: route.config.api_key ?? '',
        ...(route.config.endpoint ? { baseUrl: route.config.endpoint } : {}),
        model: route.modelId,
        defaultMaxTokens: route.spec.max_tokens ?? 8192,
        ...common,
        ...pausing,
      });
    else if (sdk === 'google')
      created = createGeminiBackend({
        apiKey: route.config.api_key ?? '',
        ...(route.config.endpoint ? { baseUrl: route.config.endpoint } : {}),
        model: route.modelId,
        ...common,
        ...pausing,
      });
    else
      throw new PipelexConfigError(
        `Backend '${route.backend}' uses sdk '${sdk}', which this runner does not speak (it speaks: ${[...SPOKEN_SDKS].join(', ')}).`,
      );
    const limited =
      sdk === 'mock'
        ? created
        : throttledBackend(created, throttle.gate(route), throttle.pauses, route.spec.max_tokens);
    clients.set(key, limited);
    return limited;
  };

  const routeFor = (category: ModelCategory, handle: string, capability?: 'images' | 'search') =>
    router.route(handle, category, (backend) => {
      if (!capability) return true;
      const models = config.models[backend] ?? {};
      const spec = models[handle] ?? models['*'];
      if (spec === undefined) return false;
      const sdk = spec.sdk ?? backend;
      if (sdk === 'mock') return true;
      return CAPABILITIES[capability].sdks.has(sdk) && spec.model_type === CAPABILITIES[capability].modelType;
    });

  const providers = Object.keys(config.backends).filter(
    (name) => name !== 'mock' && name !== 'internal' && router.isUsable(name),
  );
  return {
    name: `routed:${router.profileName}`,
    isMock: router.profileName === 'mock' || providers.length === 0,
    deck,
    router,
    async generateText(request) {
      const choice = deck.resolve('llm', request.modelRef, 'for_text');
      const route = routeFor('llm', choice.handle);
      const result = await client(route).generateText({
        ...request,
        modelId: route.modelId,
        ...(request.temperature === undefined && choice.temperature !== undefined
          ? { temperature: choice.temperature }
          : {}),
        ...(request.maxTokens === undefined && choice.maxTokens !== undefined ? { maxTokens: choice.maxTokens } : {}),
      });
      return { ...result, usage: withCost(result.usage, route, choice.handle, 'text') };
    },
    async generateObject(request) {
      const choice = deck.resolve(request.modelCategory ?? 'llm', request.modelRef, 'for_object');
      const route = routeFor('llm', choice.handle);
      const result = await client(route).generateObject({
        ...request,
        modelId: route.modelId,
        ...(request.temperature === undefined && choice.temperature !== undefined
          ? { temperature: choice.temperature }
          : {}),
        ...(request.maxTokens === undefined && choice.maxTokens !== undefined ? { maxTokens: choice.maxTokens } : {}),
      });
      return { ...result, usage: withCost(result.usage, route, choice.handle, 'object') };
    },
    async generateImages(request) {
      const choice = deck.resolve('img_gen', request.modelRef);
      const route = routeFor('img_gen', choice.handle, 'images');
      const result = await client(route).generateImages!({ ...request, modelId: route.modelId });
      return { ...result, usage: withCost(result.usage, route, choice.handle, 'images', result.images.length) };
    },
    async search(request) {
      const choice = deck.resolve('search', request.modelRef);
      const route = routeFor('search', choice.handle, 'search');
      const result = await client(route).search!(request);
      return { ...result, usage: withCost(result.usage, route, choice.handle, 'search') };
    },
    quote(request) {
      if (request.call === 'images' || request.call === 'search') {
        const category = request.call === 'images' ? 'img_gen' : 'search';
        const choice = deck.resolve(category, request.modelRef);
        return quoteOf(routeFor(category, choice.handle, request.call).spec.costs, choice.handle, null);
      }
      const choice = deck.resolve('llm', request.modelRef, request.call === 'text' ? 'for_text' : 'for_object');
      const route = routeFor('llm', choice.handle);
      const bound = request.maxTokens ?? choice.maxTokens ?? route.spec.max_tokens ?? null;
      return quoteOf(route.spec.costs, choice.handle, bound);
    },
  };
}
