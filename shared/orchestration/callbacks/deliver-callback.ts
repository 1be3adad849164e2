/**
 * One delivery attempt of a completion callback: an HTTP POST through the SSRF guard of `shared/net` (the URL checked
 * before connecting, names checked on their resolved addresses at connect time, no redirects followed, the answer's
 * body read up to {@link MAX_CALLBACK_RESPONSE_BYTES} and dropped), signed with both signature headers.
 * Retries, backoff and dead-lettering belong to the callback queue, not to this function.
 * @see spec §6; docs/outbound-requests.md
 */
import { CallbackDeliveryError, OutboundRequestRefusedError } from '../../errors/index.js';
import { callbackPolicy, guardedRequest, type HostResolver } from '../../net/index.js';
import { BODY_SIGNATURE_HEADER, bodySignature, RUN_ID_SIGNATURE_HEADER, runIdSignature } from './callback-signature.js';

/** Most of a receiver's answer body read (then dropped), in bytes: the status alone decides the delivery. */
const MAX_CALLBACK_RESPONSE_BYTES = 64 * 1024;

/** What a delivery needs. */
export interface CallbackDelivery {
  url: string;
  runId: string;
  /** Exact JSON text to send. */
  body: string;
  secret: string;
  /** Unix time in seconds (signature timestamp). */
  nowSeconds: number;
  /** Bound of the attempt (`CALLBACK_TIMEOUT_MS`), in ms: connection, headers and body. */
  timeoutMs: number;
  /** `CALLBACK_ALLOW_PRIVATE_HOSTS`. */
  allowPrivateHosts: boolean;
  signal?: AbortSignal;
  /** How host names resolve; the system resolver by default (tests map names without DNS). */
  resolver?: HostResolver;
}

/**
 * Send one callback.
 * @returns the receiver's HTTP status (2xx)
 * @throws CallbackDeliveryError on a non-2xx answer (a 3xx included: redirects are not followed), a timeout or a
 *   transport error (retryable), or a refused destination (not retryable)
 */
export async function deliverCallback(delivery: CallbackDelivery): Promise<number> {
  let statusCode: number;
  try {
    const response = await guardedRequest(delivery.url, {
      subject: 'The callback URL',
      method: 'POST',
      policy: callbackPolicy(delivery.allowPrivateHosts),
      headers: {
        'content-type': 'application/json',
        'user-agent': 'mthds-runner-callbacks',
        [RUN_ID_SIGNATURE_HEADER]: runIdSignature(delivery.secret, delivery.runId),
        [BODY_SIGNATURE_HEADER]: bodySignature(delivery.secret, delivery.nowSeconds, delivery.body),
      },
      body: delivery.body,
      timeoutMs: delivery.timeoutMs,
      maxResponseBytes: MAX_CALLBACK_RESPONSE_BYTES,
      ...(delivery.signal ? { signal: delivery.signal } : {}),
      ...(delivery.resolver ? { resolver: delivery.resolver } : {}),
    });
    statusCode = response.statusCode;
  } catch (error) {
    if (error instanceof OutboundRequestRefusedError)
      throw new CallbackDeliveryError(error.message, { cause: error, retryable: false });
    throw new CallbackDeliveryError(`Callback to ${delivery.url} failed: ${(error as Error).message}.`, {
      cause: error,
      retryable: true,
    });
  }
  if (statusCode < 200 || statusCode >= 300)
    throw new CallbackDeliveryError(`Callback to ${delivery.url} answered ${statusCode}.`, { retryable: true });
  return statusCode;
}
