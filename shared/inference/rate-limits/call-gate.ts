/**
 * The gate of one route (a backend and a model): a call is admitted when the backend is not paused and every scope of
 * the route (the backend's limits, then the model's) has room for it — and, for a call of an organization whose share
 * is under 1, when the organization's share of each scope has room too (docs/inference.md#organization-shares). Calls
 * of a process wait in order (one admission at a time per route and organization, first come first served: a capped
 * organization waiting for its share holds no other organization's calls back) for at most the wait deadline, then
 * fail with the retryable {@link InferenceRateLimitWaitError}. A route without limits waits only for its backend's
 * pause, without a turn.
 */
import { setTimeout as sleep } from 'node:timers/promises';
import pLimit from 'p-limit';
import { InferenceRateLimitWaitError } from '../../errors/index.js';
import type { BackendCall } from '../types.js';
import type { BackendPauses } from './backend-pauses.js';
import type { ScopeGrant, ScopeLimiter, ScopeRefusal, ThrottleReason } from './scope-limiter.js';
import type { RateTenant } from './tenant.js';

/** What the gate reports, for metrics. */
export interface ThrottleObserver {
  /**
   * A call was admitted.
   * @param waitedMs - how long it waited, in ms (0 when nothing held it)
   * @param reasons - the limits that made it wait
   */
  admitted(backend: string, model: string, waitedMs: number, reasons: ReadonlySet<ThrottleReason>): void;
  /** A call waited the whole deadline and was refused. */
  timedOut(backend: string, model: string, reason: ThrottleReason): void;
}

/**
 * How recent the gate's lookup of the backend's pause must be for a call's first HTTP attempt to leave without looking
 * again, in ms. An attempt made later (an SDK loading on its first call, a busy event loop) looks again.
 */
const PAUSE_CHECK_FRESH_MS = 10;

/** What an admission was granted: each scope's grant, and when the backend was last found unpaused (epoch ms). */
interface Granted {
  grants: ScopeGrant[];
  pauseCheckedAt: number;
}

/** Why a call's admission attempts stop: it was admitted, or its wait deadline passed. */
const ENTRY_ENDED = 'the call was admitted or its wait deadline passed';

/** The reasons of a call nothing held. */
const NO_REASONS: ReadonlySet<ThrottleReason> = new Set();

/** The limits a waiting call polls (a slot freed in another process is not signalled) rather than sleeps out. */
const POLLED: ReadonlySet<ThrottleReason> = new Set(['concurrency', 'org_concurrency']);

/** What a refused call was waiting for, in its error's message. */
const WAITED_FOR: Readonly<Record<ThrottleReason, string>> = {
  requests: 'its requests limit',
  tokens: 'its tokens limit',
  concurrency: 'its concurrency limit',
  org_requests: "its organization's share of its requests limit",
  org_tokens: "its organization's share of its tokens limit",
  org_concurrency: "its organization's share of its concurrency limit",
  paused: 'the backend to be unpaused (a provider 429)',
};

/** An organization whose calls are capped: its key and its share, under 1. */
interface CappedTenant {
  key: string;
  share: number;
}

/** One line of waiting calls: its turns, and how many calls are in it (the line is dropped when none is). */
interface Line {
  turns: ReturnType<typeof pLimit>;
  calls: number;
}

/** Give back everything some grants hold. */
async function cancelAll(grants: readonly ScopeGrant[]): Promise<void> {
  for (const grant of grants) await grant.cancel();
}

/** An admitted call: mark it sent when its request leaves, settle it when it ends. */
export interface Admission {
  /**
   * The call's first HTTP attempt is leaving: its request and tokens count from now on (the provider counts from the
   * arrival, and the call may have taken a while to reach the wire: an SDK loading, a busy event loop). Only the first
   * mark counts; the SDK's retries are not counted again.
   */
  sent(): Promise<void>;
  /**
   * Whether the call's next HTTP attempt must look up the backend's pause before it leaves: false only for its first
   * attempt, made within {@link PAUSE_CHECK_FRESH_MS} of the gate finding the backend unpaused.
   */
  pauseCheckNeeded(): boolean;
  /**
   * The call ended.
   * @param usedTokens - input plus output tokens it used; undefined when it failed
   */
  settle(usedTokens: number | undefined): Promise<void>;
}

/**
 * The header that tags each HTTP attempt of an admitted call with its admission, for the throttle's `fetch` under the
 * SDK; it is taken off before the request leaves. (A tag, not an async context: on Node 20 an async context slows
 * every promise of the process.)
 */
const ADMISSION_HEADER = 'x-mthds-admission';

/** The admissions of the calls under way in this process, by tag. */
const admissions = new Map<string, Admission>();
let lastTag = 0;

/**
 * Make a call with its admission: the call's backend sends the given headers with each HTTP attempt, so that
 * {@link untagAttempt} finds the admission.
 * @param admission - the call's admission
 * @param call - the call, given the headers its attempts carry
 * @returns what the call resolves to
 * @throws what the call throws
 */
export async function withAdmission<T>(admission: Admission, call: (tagged: BackendCall) => Promise<T>): Promise<T> {
  lastTag += 1;
  const tag = String(lastTag);
  admissions.set(tag, admission);
  try {
    return await call({ headers: { [ADMISSION_HEADER]: tag } });
  } finally {
    admissions.delete(tag);
  }
}

/**
 * The admission an HTTP attempt is tagged with, and the attempt's options without the tag.
 * @param init - the options the SDK gives `fetch`
 * @returns the admission (undefined for an untagged attempt, or one whose call has ended) and the options to send
 */
export function untagAttempt(init: RequestInit | undefined): {
  admission: Admission | undefined;
  init: RequestInit | undefined;
} {
  const headers = new Headers(init?.headers);
  const tag = headers.get(ADMISSION_HEADER);
  if (tag === null) return { admission: undefined, init };
  headers.delete(ADMISSION_HEADER);
  return { admission: admissions.get(tag), init: { ...init, headers } };
}

/** The gate of one route. */
export class CallGate {
  /** The lines of calls waiting, by organization key (`''`: the calls of no capped organization). */
  private readonly lines = new Map<string, Line>();

  /**
   * @param backend - the backend's name
   * @param model - the provider model id
   * @param scopes - the backend's limiter, then the model's (either may be absent)
   * @param pauses - the deployment's backend pauses
   * @param waitMs - longest a call may wait (`INFERENCE_RATE_LIMIT_WAIT_MS`)
   * @param observer - told of admissions and refusals
   * @param orgShare - an organization's share of each limit when its calls name none (`INFERENCE_ORG_RATE_SHARE`),
   *   in (0, 1]; 1 caps no organization
   */
  constructor(
    readonly backend: string,
    readonly model: string,
    private readonly scopes: readonly ScopeLimiter[],
    private readonly pauses: BackendPauses,
    private readonly waitMs: number,
    private readonly observer: ThrottleObserver,
    private readonly orgShare = 1,
  ) {}

  /**
   * Wait in order until the call may be made.
   * @param estimatedTokens - its input plus output token estimate
   * @param tenant - the organization it is made for; none for a call of no organization (not capped)
   * @returns the admission to settle when the call ends
   * @throws InferenceRateLimitWaitError when it could not be admitted within the wait deadline
   */
  async enter(estimatedTokens: number, tenant?: RateTenant): Promise<Admission> {
    const started = Date.now();
    // a route without limits, its backend unpaused: admitted at once, with no line, timer or stop set up for it
    if (this.scopes.length === 0 && (await this.pauses.remainingMs(this.backend)) <= 0)
      return this.admitted({ grants: [], pauseCheckedAt: started }, started, NO_REASONS);
    const deadline = started + this.waitMs;
    const reasons = new Set<ThrottleReason>();
    const stop = new AbortController();
    const share = tenant?.share ?? this.orgShare;
    const capped = tenant !== undefined && share < 1 ? { key: tenant.key, share } : undefined;
    const admit = () =>
      stop.signal.aborted ? null : this.admit(estimatedTokens, capped, deadline, reasons, stop.signal);
    // without limits only the backend's pause can hold a call: nothing to take in order, so no turn to wait for
    const turn = this.scopes.length === 0 ? Promise.resolve().then(admit) : this.inLine(capped?.key ?? '', admit);
    // a plain timer, cleared, and an abort with a reason: nothing builds an AbortError or a DOMException per call
    let expiry: NodeJS.Timeout | undefined;
    const timer = new Promise<null>((resolve) => {
      expiry = setTimeout(resolve, this.waitMs, null);
    });
    let granted: Granted | null;
    try {
      granted = await Promise.race([turn, timer]);
    } finally {
      clearTimeout(expiry);
      stop.abort(ENTRY_ENDED);
    }
    if (granted === null) {
      turn.then(
        (late) => cancelAll(late?.grants ?? []),
        () => undefined,
      );
      throw this.refusal(reasons, this.waitMs);
    }
    return this.admitted(granted, started, reasons);
  }

  /**
   * The admission of a call the scopes granted.
   * @param granted - the grants, and when the backend was found unpaused
   * @param started - when the call came to the gate (epoch ms)
   * @param reasons - the limits that made it wait
   */
  private admitted(granted: Granted, started: number, reasons: ReadonlySet<ThrottleReason>): Admission {
    const { grants: admitted, pauseCheckedAt } = granted;
    this.observer.admitted(this.backend, this.model, Date.now() - started, reasons);
    let sent: Promise<void> | undefined;
    return {
      pauseCheckNeeded: () => sent !== undefined || Date.now() - pauseCheckedAt > PAUSE_CHECK_FRESH_MS,
      sent() {
        sent ??= Promise.all(admitted.map((grant) => grant.sent())).then(() => undefined);
        return sent;
      },
      async settle(usedTokens) {
        for (const grant of admitted) await grant.settle(usedTokens);
      },
    };
  }

  /**
   * Run an admission in its line: the line of the call's organization, or the line of the calls of none.
   * @param key - the line's key
   * @param admit - the admission
   */
  private inLine<T>(key: string, admit: () => T | Promise<T>): Promise<T> {
    let line = this.lines.get(key);
    if (!line) {
      line = { turns: pLimit(1), calls: 0 };
      this.lines.set(key, line);
    }
    const joined = line;
    joined.calls += 1;
    return joined.turns(admit).finally(() => {
      joined.calls -= 1;
      if (joined.calls === 0 && this.lines.get(key) === joined) this.lines.delete(key);
    });
  }

  /** Admit the head of the line: try until every scope grants, the deadline passes, or the caller gave up. */
  private async admit(
    estimatedTokens: number,
    capped: CappedTenant | undefined,
    deadline: number,
    reasons: Set<ThrottleReason>,
    signal: AbortSignal,
  ): Promise<Granted | null> {
    for (;;) {
      const attempt = await this.tryScopes(estimatedTokens, capped);
      if ('grants' in attempt) return attempt;
      reasons.add(attempt.reason);
      const left = deadline - Date.now();
      if (signal.aborted) return null;
      if (left <= 0 || (!POLLED.has(attempt.reason) && attempt.waitMs > left))
        throw this.refusal(reasons, this.waitMs, attempt);
      await sleep(Math.min(attempt.waitMs, left), undefined, { signal });
    }
  }

  /**
   * One try: the pause, then the organization's share of each scope (when it is capped), then each scope, in order;
   * what earlier ones granted is given back when a later one refuses. The share comes first, so that an organization
   * over its share takes nothing of the room every organization shares.
   */
  private async tryScopes(estimatedTokens: number, capped: CappedTenant | undefined): Promise<Granted | ScopeRefusal> {
    const pauseCheckedAt = Date.now();
    const pausedMs = await this.pauses.remainingMs(this.backend);
    if (pausedMs > 0) return { reason: 'paused', waitMs: pausedMs };
    const tries = [
      ...(capped
        ? this.scopes.map((scope) => () => scope.tryAcquireShare(capped.key, capped.share, estimatedTokens))
        : []),
      ...this.scopes.map((scope) => () => scope.tryAcquire(estimatedTokens)),
    ];
    const grants: ScopeGrant[] = [];
    for (const attempt of tries) {
      const result = await attempt();
      if ('reason' in result) {
        await cancelAll(grants);
        return result;
      }
      grants.push(result);
    }
    return { grants, pauseCheckedAt };
  }

  private refusal(
    reasons: ReadonlySet<ThrottleReason>,
    waitedMs: number,
    last?: ScopeRefusal,
  ): InferenceRateLimitWaitError {
    const reason = last?.reason ?? [...reasons].at(-1) ?? 'requests';
    this.observer.timedOut(this.backend, this.model, reason);
    return new InferenceRateLimitWaitError(
      `Backend '${this.backend}', model '${this.model}': the call could not be made within ${waitedMs} ms (INFERENCE_RATE_LIMIT_WAIT_MS) waiting for ${WAITED_FOR[reason]}; nothing was sent to the provider.`,
      {
        errorDomain: 'runtime',
        retryable: true,
        retryAfterSeconds: Math.max(1, Math.ceil((last?.waitMs ?? 1000) / 1000)),
        provider: this.backend,
        model: this.model,
        userAction: { kind: 'wait_and_retry', detail: 'The provider rate limits are saturated; retry later.' },
      },
    );
  }
}
