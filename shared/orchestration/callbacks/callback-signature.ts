/**
 * Signatures of completion callbacks (spec §6 rule 2), keyed by `COMPLETION_CALLBACK_SECRET`:
 * - `X-Completion-Signature`: lowercase hex HMAC-SHA256 of the `pipeline_run_id` (reference-compatible);
 * - `X-Completion-Signature-256`: `t=<unix seconds>,v1=<hex HMAC-SHA256 of "<t>.<exact body bytes>">`, which binds the
 *   body and a timestamp (receivers should refuse stale timestamps to stop replays). See README "Completion callbacks".
 */
import { createHmac } from 'node:crypto';

/** Header of the reference-compatible signature. */
export const RUN_ID_SIGNATURE_HEADER = 'X-Completion-Signature';
/** Header of the body signature. */
export const BODY_SIGNATURE_HEADER = 'X-Completion-Signature-256';

/**
 * The reference signature.
 * @param secret - the shared secret (UTF-8)
 * @param runId - the `pipeline_run_id`
 */
export function runIdSignature(secret: string, runId: string): string {
  return createHmac('sha256', secret).update(runId, 'utf8').digest('hex');
}

/**
 * The timestamped body signature header value.
 * @param secret - the shared secret (UTF-8)
 * @param timestampSeconds - unix time of sending, in seconds
 * @param body - the exact body text sent
 */
export function bodySignature(secret: string, timestampSeconds: number, body: string): string {
  const digest = createHmac('sha256', secret).update(`${timestampSeconds}.${body}`, 'utf8').digest('hex');
  return `t=${timestampSeconds},v1=${digest}`;
}
