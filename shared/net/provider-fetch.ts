/**
 * The `fetch` the provider SDKs (OpenAI, Anthropic, Gemini) are given for their calls (docs/inference.md#provider-calls):
 * undici's `request` API, its answer handed back as a WHATWG `Response` read whole. Node's global `fetch` runs every
 * request and answer through WHATWG streams, abort signals and header objects of its own; on an inference call that
 * machinery costs about three times the CPU of the exchange itself, and a worker makes one call per step of every run.
 *
 * It behaves as `fetch` does for what the SDKs send: a URL, a method, headers, a text or byte body, an abort signal
 * (aborting closes the connection); redirects are followed (20 at most). It asks for an uncompressed answer
 * (`accept-encoding: identity`): a model's answer is a few kilobytes of JSON, and inflating it would cost more than
 * the bytes saved. The answer's body is read whole before the SDK sees it: no SDK call of the service streams. A call it
 * does not cover (a `Request` object, a form or stream body, its own `accept-encoding`) goes to the global `fetch`.
 *
 * Provider base URLs are the operator's settings, never a caller's, so this path has no SSRF guard
 * (docs/outbound-requests.md#the-outbound-paths); undici is loaded on the first call, not at boot
 * (docs/architecture.md#startup).
 */
import type { Dispatcher } from 'undici';

/** Redirects followed, as `fetch` follows them. */
const MAX_REDIRECTS = 20;
/** Statuses whose answer has no body (the `Response` constructor refuses one). */
const NULL_BODY_STATUSES = new Set([101, 103, 204, 205, 304]);

let dispatcher: Promise<Dispatcher> | undefined;

/** The process's dispatcher of provider calls (connections pooled per origin), made on the first call. */
function providerDispatcher(): Promise<Dispatcher> {
  dispatcher ??= import('undici').then(({ Agent, interceptors }) =>
    new Agent().compose(interceptors.redirect({ maxRedirections: MAX_REDIRECTS })),
  );
  return dispatcher;
}

/** The request's headers as undici takes them, an uncompressed answer asked for; undefined when the call asks itself. */
function requestHeaders(init: RequestInit | undefined): Record<string, string> | undefined {
  const headers: Record<string, string> = {};
  // the SDKs hand a `Headers`, read as it is; any other form is read through one
  const given = init?.headers instanceof Headers ? init.headers : new Headers(init?.headers);
  for (const [name, value] of given) headers[name] = value;
  if (headers['accept-encoding'] !== undefined) return undefined;
  headers['accept-encoding'] = 'identity';
  return headers;
}

/** The answer's headers as a WHATWG `Headers` (a repeated header keeps each value). */
function responseHeaders(raw: Record<string, string | string[] | undefined>): Headers {
  const headers = new Headers();
  for (const [name, value] of Object.entries(raw)) {
    if (Array.isArray(value)) for (const each of value) headers.append(name, each);
    else if (value !== undefined) headers.append(name, value);
  }
  return headers;
}

/** Whether undici's `request` covers the call as `fetch` would (else it goes to the global `fetch`). */
function covered(input: Parameters<typeof fetch>[0], init: RequestInit | undefined): input is string | URL {
  const body = init?.body;
  return (
    (typeof input === 'string' || input instanceof URL) &&
    (body === undefined || body === null || typeof body === 'string' || body instanceof Uint8Array)
  );
}

/**
 * `fetch` for provider SDK calls (see the module's comment).
 * @param input - the URL (anything else goes to the global `fetch`)
 * @param init - method, headers, body, signal
 * @returns the answer, its body read whole
 * @throws the signal's reason once aborted; undici's error when the exchange fails (the SDKs report it as a connection
 *   error)
 */
export const providerFetch: typeof fetch = async (input, init) => {
  const headers = covered(input, init) ? requestHeaders(init) : undefined;
  if (!headers) return fetch(input, init);
  const url = new URL(input as string | URL);
  const answer = await (await providerDispatcher()).request({
    origin: url.origin,
    path: `${url.pathname}${url.search}`,
    method: (init?.method ?? 'GET') as Dispatcher.HttpMethod,
    headers,
    body: (init?.body as string | Uint8Array | null | undefined) ?? null,
    ...(init?.signal ? { signal: init.signal } : {}),
  });
  const bytes = await answer.body.arrayBuffer();
  return new Response(NULL_BODY_STATUSES.has(answer.statusCode) ? null : bytes, {
    status: answer.statusCode,
    headers: responseHeaders(answer.headers),
  });
};
