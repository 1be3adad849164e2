/**
 * `Idempotency-Key` at the edge (docs/api.md#idempotency): a request that carries one is answered once per caller,
 * route and key for `IDEMPOTENCY_KEY_TTL_HOURS`. A repeat with the same body (compared by the SHA-256 of its canonical
 * JSON) gets the first answer again, marked `Idempotent-Replayed: true`; a repeat with another body gets 409
 * `idempotency_key_reused`. A refusal is not kept. Without the header, nothing changes.
 */
import { createHash } from 'node:crypto';
import canonicalize from 'canonicalize';
import type { Request, Response } from 'express';
import { z } from 'zod';
import { type KeptResponse, whenDatabaseReachable } from '../shared/database/index.js';
import { parseRequest } from './request-schema.js';
import type { RunHistoryService } from './run-history-service.js';
import { sendJson } from './send-json.js';

/** The header's value: 1 to 255 visible ASCII characters (n8n sends `<execution>:<node>:<item>`). */
const IDEMPOTENCY_KEY = z.string().regex(/^[\x21-\x7E]{1,255}$/, 'must be 1 to 255 visible ASCII characters');

/** The header that marks a replayed answer. */
const REPLAYED_HEADER = 'Idempotent-Replayed';

/**
 * How an answer is made: `quick` holds the key's row (and a database connection) while it is made, so it must not use
 * the database itself (the embedded one has a single connection); `long` (a blocking run, a write to the catalog) does
 * not hold it.
 */
export type AnswerDuration = 'quick' | 'long';

/**
 * Answer a request once per `Idempotency-Key`, or as usual when it carries none (or no control plane keeps keys).
 * @param req - the request: its header and parsed body
 * @param res - where the answer (first or replayed) is sent
 * @param service - the control plane's services, when served
 * @param route - the route's method and path (`POST /v1/start`), part of the key's scope
 * @param duration - how long `act` takes
 * @param act - makes the first answer
 * @throws ValidationError (422) for a malformed key; IdempotencyKeyReusedError (409); IdempotencyKeyInUseError (409,
 *   retryable); ControlPlaneUnavailableError (503) when the keys cannot be read; what `act` throws
 */
export async function answerOnce(
  req: Request,
  res: Response,
  service: Promise<RunHistoryService> | undefined,
  route: string,
  duration: AnswerDuration,
  act: () => Promise<KeptResponse>,
): Promise<void> {
  const keyed = { owner: res.locals.identity.userId as string, route, key: req.get('Idempotency-Key'), body: req.body };
  sendKeptAnswer(res, await keptAnswerOnce(service, keyed, duration, act));
}

/**
 * Send an answer made once per key, a replay marked `Idempotent-Replayed: true`.
 * @param res - where it goes
 * @param outcome - the answer and whether it is a replay
 */
export function sendKeptAnswer(res: Response, outcome: { answer: KeptResponse; replayed: boolean }): void {
  if (outcome.replayed) res.setHeader(REPLAYED_HEADER, 'true');
  sendJson(res, outcome.answer.status, outcome.answer.body);
}

/** A request as its idempotency key scopes it: whose, on which route, under which key, with which body. */
export interface KeyedRequest {
  /** The caller's own id. */
  owner: string;
  /** The route's method and path (`POST /v1/start`), or another name of the entry point (the MCP endpoint's). */
  route: string;
  /** The key as sent; undefined for a request without one. */
  key: string | undefined;
  /** The decoded request body, whose canonical JSON's SHA-256 a repeat must match. */
  body: unknown;
}

/**
 * Make a request's answer once per key, or afresh when it has none (or no control plane keeps keys): the part of
 * {@link answerOnce} that needs no HTTP exchange, shared with the MCP endpoint (docs/mcp.md#durable-calls).
 * @param service - the control plane's services, when served
 * @param keyed - owner, route, key and body
 * @param duration - how long `act` takes
 * @param act - makes the first answer
 * @returns the answer, and whether it is a replay of the first one
 * @throws ValidationError (422) for a malformed key; IdempotencyKeyReusedError (409); IdempotencyKeyInUseError (409,
 *   retryable); ControlPlaneUnavailableError (503) when the keys cannot be read; what `act` throws
 */
export async function keptAnswerOnce(
  service: Promise<RunHistoryService> | undefined,
  keyed: KeyedRequest,
  duration: AnswerDuration,
  act: () => Promise<KeptResponse>,
): Promise<{ answer: KeptResponse; replayed: boolean }> {
  if (keyed.key === undefined || service === undefined) return { answer: await act(), replayed: false };
  const key = parseRequest(IDEMPOTENCY_KEY, keyed.key, 'header.Idempotency-Key');
  const { idempotency } = await service;
  const scope = { owner: keyed.owner, route: keyed.route, key };
  const digest = createHash('sha256')
    .update(canonicalize(keyed.body) ?? '')
    .digest('hex');
  if (duration === 'quick') {
    const outcome = await whenDatabaseReachable(() => idempotency.once(scope, digest, act));
    return { answer: outcome.response, replayed: outcome.replayed };
  }
  const claim = await whenDatabaseReachable(() => idempotency.begin(scope, digest));
  if (claim !== 'claimed') return { answer: claim.replay, replayed: true };
  let answer: KeptResponse;
  try {
    answer = await act();
  } catch (error) {
    await idempotency.release(scope).catch(() => undefined);
    throw error;
  }
  // The run is done: its answer goes out even when it cannot be kept (the key is then freed, not left pending).
  await idempotency.settle(scope, answer).catch(() => idempotency.release(scope).catch(() => undefined));
  return { answer, replayed: false };
}

/**
 * Claim a request's `Idempotency-Key` for an answer that is never replayed (an upload grant, used once:
 * docs/uploads.md#post-v1uploadgrant). Without the header, or without a control plane, every request is a first use.
 * @param req - the request: its header and parsed body
 * @param res - the response (its caller's identity scopes the key)
 * @param service - the control plane's services, when served
 * @param route - the route's method and path, part of the key's scope
 * @returns true on the key's first use; false when the key was used before with the same body
 * @throws ValidationError (422) for a malformed key; IdempotencyKeyReusedError (409) for a key used with another
 *   body; IdempotencyKeyInUseError (409, retryable); ControlPlaneUnavailableError (503)
 */
export async function firstUseOfKey(
  req: Request,
  res: Response,
  service: Promise<RunHistoryService> | undefined,
  route: string,
): Promise<boolean> {
  const header = req.get('Idempotency-Key');
  if (header === undefined || service === undefined) return true;
  const key = parseRequest(IDEMPOTENCY_KEY, header, 'header.Idempotency-Key');
  const { idempotency } = await service;
  const scope = { owner: res.locals.identity.userId as string, route, key };
  const digest = createHash('sha256')
    .update(canonicalize(req.body) ?? '')
    .digest('hex');
  const claimed = async () => ({ status: 201, body: { claimed: true } });
  const outcome = await whenDatabaseReachable(() => idempotency.once(scope, digest, claimed));
  return !outcome.replayed;
}
