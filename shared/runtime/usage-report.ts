/**
 * The usage of one inference call, and a run's usage and cost summary (docs/run-events.md#usage-and-cost) computed
 * from its calls: totals, then the same figures by model handle and by pipe. Costs are USD at the model specs' prices;
 * a call whose model has no price counts its tokens and its call, and is counted in `unpricedCalls` — its cost is
 * unknown, never 0. These are domain values: `shared/wire/usage.ts` maps them to the records and reports the API, the
 * events and the callbacks send.
 */

/** One inference call a run made. Times are epoch milliseconds. */
export interface InferenceCall {
  /** What kind of model served it. */
  modelType: 'llm' | 'img_gen' | 'search';
  /** The model handle. */
  modelName: string;
  /** The provider's name for the model (the handle when it has none of its own). */
  modelId: string;
  /** The pipe that made the call. */
  pipeCode: string | null;
  /** The kind of job (`llm_job`, `img_gen_job`, `search_job`). */
  jobCategory: string | null;
  inputTokens: number;
  outputTokens: number;
  /** USD at the model spec's prices; null when the model has no price. */
  costUsd: number | null;
  /** The backend that served the call (mock, openai, anthropic, …). */
  backend: string | null;
  startedAt: number | null;
  completedAt: number | null;
}

/** Usage figures of a group of inference calls. */
export interface UsageTotals {
  /** Inference calls made. */
  calls: number;
  inputTokens: number;
  outputTokens: number;
  /**
   * Sum of the priced calls' costs in USD; null when the group has calls and none of them is priced. With
   * `unpricedCalls` > 0 the group's true cost is unknown and this is only what the priced calls cost.
   */
  costUsd: number | null;
  /** Calls whose model has no price (their cost is unknown). */
  unpricedCalls: number;
}

/** A run's usage and cost summary. */
export interface UsageSummary {
  total: UsageTotals;
  /** By model handle ({@link InferenceCall.modelName}). */
  byModel: Record<string, UsageTotals>;
  /** By the pipe that made the calls (an operator's code). */
  byPipe: Record<string, UsageTotals>;
}

function emptyTotals(): UsageTotals {
  return { calls: 0, inputTokens: 0, outputTokens: 0, costUsd: null, unpricedCalls: 0 };
}

/** The members of a call a summary reads. */
type UsageFacts = Pick<InferenceCall, 'modelName' | 'pipeCode' | 'inputTokens' | 'outputTokens' | 'costUsd'>;

function add(totals: UsageTotals, call: UsageFacts): void {
  totals.calls += 1;
  totals.inputTokens += call.inputTokens;
  totals.outputTokens += call.outputTokens;
  if (call.costUsd === null) totals.unpricedCalls += 1;
  else totals.costUsd = (totals.costUsd ?? 0) + call.costUsd;
}

function copy(groups: Map<string, UsageTotals>): Record<string, UsageTotals> {
  return Object.fromEntries([...groups].map(([key, totals]) => [key, { ...totals }]));
}

/** A run's usage summary kept up to date call by call. */
export class UsageTally {
  private readonly total: UsageTotals = emptyTotals();
  private readonly byModel = new Map<string, UsageTotals>();
  private readonly byPipe = new Map<string, UsageTotals>();

  /**
   * Count one call.
   * @param call - the call
   */
  add(call: UsageFacts): void {
    add(this.total, call);
    add(this.group(this.byModel, call.modelName), call);
    add(this.group(this.byPipe, call.pipeCode ?? ''), call);
  }

  /** The summary of the calls counted so far (a copy); with no call, zero totals and a `costUsd` of 0. */
  summary(): UsageSummary {
    const total = { ...this.total };
    if (total.calls === 0) total.costUsd = 0;
    return { total, byModel: copy(this.byModel), byPipe: copy(this.byPipe) };
  }

  private group(groups: Map<string, UsageTotals>, key: string): UsageTotals {
    const existing = groups.get(key);
    if (existing) return existing;
    const created = emptyTotals();
    groups.set(key, created);
    return created;
  }
}

/**
 * Summarize inference calls.
 * @param calls - a run's inference calls (any order)
 * @returns totals and the figures by model and by pipe; a run without calls has zero totals and a `costUsd` of 0
 */
export function summarizeUsage(calls: readonly UsageFacts[]): UsageSummary {
  const tally = new UsageTally();
  for (const call of calls) tally.add(call);
  return tally.summary();
}
