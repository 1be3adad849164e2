/**
 * The one way the service sends an HTTP request on a caller's behalf (documents fetched by URL, completion callbacks):
 * the URL is checked before connecting ({@link outboundUrlProblem}), every connection is checked again at connect time
 * (literal hosts, and names on their resolved addresses: {@link guardedDispatcher}), redirects are followed only when
 * the caller of this function allows some (each hop's URL passes the same URL rule, then its connection the same
 * connect-time check, as the first), and the exchange is bounded in time (connect, headers and body) and in response
 * size.
 *
 * @see spec §2.3, §6 rule 3; `docs/outbound-requests.md`
 */
import type { IncomingHttpHeaders } from 'node:http';
import { OutboundRequestRefusedError } from '../errors/index.js';
import { type OutboundPolicy, outboundUrlProblem } from './destination-policy.js';
import { guardedDispatcher, type HostResolver, RefusedResolution, systemResolver } from './guarded-dispatcher.js';

/** One outbound request. */
export interface GuardedRequest {
  /** What the URL is, for refusal details: e.g. `The document URL`. */
  subject: string;
  method: 'GET' | 'POST';
  headers?: Record<string, string>;
  body?: string;
  policy: OutboundPolicy;
  /** Bound of the whole exchange (connection, headers, body), in ms; also undici's headers and body timeouts. */
  timeoutMs: number;
  /** Largest response body read, in bytes. */
  maxResponseBytes: number;
  /** Redirects followed (GET only); 0 or absent: a 3xx is returned as it is. */
  maxRedirects?: number;
  /** Aborts the request. */
  signal?: AbortSignal;
  /** How names resolve; the system resolver by default (tests map names without DNS). */
  resolver?: HostResolver;
}

/** A response, its body read within the size bound. */
export interface GuardedResponse {
  /** HTTP status; a 3xx is returned as it is when redirects are not followed (or too many). */
  statusCode: number;
  headers: IncomingHttpHeaders;
  /** The body, or null when it is over `maxResponseBytes` (reading stopped there and the connection was dropped). */
  body: Buffer | null;
}

async function readBounded(
  body: AsyncIterable<Buffer> & { destroy(): unknown },
  maxBytes: number,
): Promise<Buffer | null> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of body) {
    size += chunk.length;
    if (size > maxBytes) {
      body.destroy();
      return null;
    }
    chunks.push(chunk);
  }
  return Buffer.concat(chunks);
}

/** Why a dispatched request was refused, as a clause of the caller's refusal: a redirect hop is named. */
function refusal(error: RefusedResolution): string {
  return error.url === undefined ? error.problem : `its redirect to ${error.url.slice(0, 200)} ${error.problem}`;
}

/**
 * Send a request through the SSRF guard.
 * @param url - an http(s) URL
 * @param options - method, body, policy and bounds
 * @returns the status, headers and bounded body
 * @throws OutboundRequestRefusedError (422) when the URL, a redirect's `Location` or a resolved address is refused;
 *   the detail names the address class and the setting that governs it (and the redirect's URL)
 * @throws Error (not an MthdsError; the caller words it) when no answer came within `timeoutMs`, the connection
 *   failed, or `signal` aborted
 */
export async function guardedRequest(url: string, options: GuardedRequest): Promise<GuardedResponse> {
  const problem = outboundUrlProblem(url, options.policy);
  if (problem)
    throw new OutboundRequestRefusedError(`${options.subject} ${url.slice(0, 200)} is refused: it ${problem}.`);
  const timeout = AbortSignal.timeout(options.timeoutMs);
  const signal = options.signal ? AbortSignal.any([options.signal, timeout]) : timeout;
  try {
    const { request } = await import('undici');
    const response = await request(url, {
      method: options.method,
      dispatcher: await guardedDispatcher(
        options.policy,
        options.resolver ?? systemResolver,
        options.method === 'GET' ? (options.maxRedirects ?? 0) : 0,
      ),
      headersTimeout: options.timeoutMs,
      bodyTimeout: options.timeoutMs,
      signal,
      ...(options.headers ? { headers: options.headers } : {}),
      ...(options.body === undefined ? {} : { body: options.body }),
    });
    const body = await readBounded(response.body, options.maxResponseBytes);
    return { statusCode: response.statusCode, headers: response.headers, body };
  } catch (error) {
    if (error instanceof RefusedResolution)
      throw new OutboundRequestRefusedError(`${options.subject} ${url.slice(0, 200)} is refused: ${refusal(error)}.`, {
        cause: error,
      });
    throw new Error(timeout.aborted ? `no answer within ${options.timeoutMs} ms` : (error as Error).message, {
      cause: error,
    });
  }
}
