/**
 * The Linkup search backend (the reference's default search provider, docs/runtime.md#pipesearch,
 * docs/inference.md#provider-wire-formats): `POST {endpoint}/search`
 * with `outputType: "sourcedAnswer"` — or `"structured"` with the request's JSON schema as `structuredOutputSchema`
 * for a structured search, whose answer is the object itself — depth `standard` or `deep` (from the model spec), dates
 * and domain filters.
 * It serves searches only. Its request goes through the rate limits' pausing `fetch` like the SDK-based backends', so
 * it counts from when it leaves and a 429 with `Retry-After` pauses the backend for every process (docs/inference.md
 * "Rate limits").
 */
import { PipelexConfigError, SearchJobFailureError } from '../errors/index.js';
import { categoryOfStatus, retryAfterSeconds } from './provider-errors.js';
import type { InferenceBackend } from './types.js';

/** Options of the Linkup backend. */
export interface LinkupBackendOptions {
  apiKey: string;
  /** Base URL, default `https://api.linkup.so/v1`. */
  baseUrl?: string;
  /** `standard` or `deep`. */
  depth: string;
  timeoutMs: number;
  /** The `fetch` of the request (the rate limits' pausing fetch); the global one by default. */
  fetch?: typeof fetch;
}

interface LinkupAnswer {
  answer?: string;
  sources?: { name?: string; url?: string; snippet?: string }[];
}

/**
 * Create the backend.
 * @param options - key, endpoint, depth, timeout and `fetch`
 */
export function createLinkupBackend(options: LinkupBackendOptions): InferenceBackend {
  const refuse = () =>
    Promise.reject(
      new PipelexConfigError('The linkup backend serves web searches only; route LLM models to another backend.'),
    );
  return {
    name: 'linkup',
    isMock: false,
    generateText: refuse,
    generateObject: refuse,
    async search(search, call) {
      const url = `${(options.baseUrl ?? 'https://api.linkup.so/v1').replace(/\/+$/, '')}/search`;
      const body = {
        q: search.query,
        depth: options.depth,
        ...(search.jsonSchema === undefined
          ? { outputType: 'sourcedAnswer' }
          : { outputType: 'structured', structuredOutputSchema: JSON.stringify(search.jsonSchema) }),
        ...(search.fromDate ? { fromDate: search.fromDate } : {}),
        ...(search.toDate ? { toDate: search.toDate } : {}),
        ...(search.includeDomains ? { includeDomains: search.includeDomains } : {}),
        ...(search.excludeDomains ? { excludeDomains: search.excludeDomains } : {}),
      };
      const timeout = AbortSignal.timeout(options.timeoutMs);
      const failure = (message: string, status?: number, headers?: Headers) => {
        const retryAfter = retryAfterSeconds(headers, Date.now());
        return new SearchJobFailureError(`Pipe '${search.pipeCode}': the search provider ${message}`, {
          category: status === undefined ? 'TRANSIENT' : categoryOfStatus(status),
          model: options.depth,
          provider: 'linkup',
          providerMetadata: {
            provider: 'linkup',
            sdk_exception_type: 'HTTPError',
            message,
            ...(status === undefined ? {} : { status_code: status }),
            ...(retryAfter === undefined ? {} : { retry_after_seconds: retryAfter }),
          },
        });
      };
      let response: Response;
      try {
        response = await (options.fetch ?? fetch)(url, {
          method: 'POST',
          headers: {
            ...call?.headers,
            'content-type': 'application/json',
            authorization: `Bearer ${options.apiKey}`,
          },
          body: JSON.stringify(body),
          signal: search.signal ? AbortSignal.any([search.signal, timeout]) : timeout,
        });
      } catch (error) {
        if ((error as Error).name === 'AbortError' && search.signal?.aborted) throw error;
        throw failure(`could not be reached: ${(error as Error).message}`);
      }
      const text = await response.text();
      if (response.status !== 200)
        throw failure(`answered ${response.status}: ${text.slice(0, 200)}`, response.status, response.headers);
      const usage = { model: `linkup-${options.depth}`, input_tokens: 0, output_tokens: 0 };
      if (search.jsonSchema !== undefined)
        return { result: { answer: '', sources: [] }, object: JSON.parse(text), usage };
      const answer = JSON.parse(text) as LinkupAnswer;
      return {
        result: {
          answer: answer.answer ?? '',
          sources: (answer.sources ?? []).map((source) => ({
            url: source.url ?? '',
            title: source.name ?? null,
            snippet: source.snippet ?? null,
          })),
        },
        usage,
      };
    },
  };
}
