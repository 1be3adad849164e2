/**
 * One delivery attempt of a completion callback: an HTTP POST through undici whose connections resolve the host and
 * refuse blocked addresses at connect time (no DNS-rebinding bypass), signed with both signature headers.
 * Retries, backoff and dead-lettering belong to the callback queue, not to this function.
 */
import { request } from 'undici';
import { CallbackDeliveryError } from '../errors/index.js';
import { outboundDispatcher } from '../net/index.js';
import { BODY_SIGNATURE_HEADER, RUN_ID_SIGNATURE_HEADER, bodySignature, runIdSignature } from './callback-signature.js';

/** What a delivery needs. */
export interface CallbackDelivery {
  url: string;
  runId: string;
  /** Exact JSON text to send. */
  body: string;
  secret: string;
  /** Unix time in seconds (signature timestamp). */
  nowSeconds: number;
  timeoutMs: number;
  allowPrivateHosts: boolean;
  signal?: AbortSignal;
}

/**
 * Send one callback.
 * @returns the receiver's HTTP status (2xx)
 * @throws CallbackDeliveryError on a non-2xx answer, a timeout, a transport error or a blocked address
 */
export async function deliverCallback(delivery: CallbackDelivery): Promise<number> {
  const timeout = AbortSignal.timeout(delivery.timeoutMs);
  const signal = delivery.signal ? AbortSignal.any([delivery.signal, timeout]) : timeout;
  try {
    const response = await request(delivery.url, {
      method: 'POST',
      dispatcher: outboundDispatcher(delivery.allowPrivateHosts),
      headers: {
        'content-type': 'application/json',
        'user-agent': 'mthds-runner-callbacks',
        [RUN_ID_SIGNATURE_HEADER]: runIdSignature(delivery.secret, delivery.runId),
        [BODY_SIGNATURE_HEADER]: bodySignature(delivery.secret, delivery.nowSeconds, delivery.body),
      },
      body: delivery.body,
      signal,
    });
    await response.body.dump();
    if (response.statusCode < 200 || response.statusCode >= 300) {
      throw new CallbackDeliveryError(`Callback to ${delivery.url} answered ${response.statusCode}.`, { retryable: true });
    }
    return response.statusCode;
  } catch (error) {
    if (error instanceof CallbackDeliveryError) throw error;
    const reason = timeout.aborted ? `no answer within ${delivery.timeoutMs} ms` : (error as Error).message;
    throw new CallbackDeliveryError(`Callback to ${delivery.url} failed: ${reason}.`, { cause: error, retryable: true });
  }
}
