/**
 * Inference usage on the wire: the runtime's calls and usage summary (`shared/runtime/usage-report.ts`) as the records
 * and reports the run result, the run events and the callbacks carry (docs/run-events.md#usage-and-cost), and read
 * back where a record was kept as JSON (step checkpoints, fanned-out children's results: docs/checkpoints.md,
 * docs/fan-out.md), so that what was kept before keeps loading.
 */
import type { PipeTokenUsage } from '../runtime/run-observer.js';
import type { InferenceCall, UsageSummary, UsageTotals } from '../runtime/usage-report.js';

/**
 * One usage record: the reference's `TokensUsageRecord` (docs/api.md#post-v1execute) plus `backend`. Times are ISO-8601
 * UTC.
 */
export interface TokensUsageRecord {
  model_type: 'llm' | 'img_gen' | 'search';
  inference_model_name: string;
  inference_model_id: string;
  pipe_code: string | null;
  job_category: string | null;
  unit_job_id: string | null;
  nb_tokens_by_category: Record<string, number>;
  cost: number | null;
  /** The backend that served the call (mock, openai, anthropic, …). */
  backend: string | null;
  started_at: string | null;
  completed_at: string | null;
}

/** One `pipe_output.tokens_usages` record: the reference's `TokensUsageRecord`, member for member. */
export type TokensUsageWire = Omit<TokensUsageRecord, 'backend'>;

/** Usage figures of a group of inference calls. */
export interface UsageFigures {
  /** Inference calls made. */
  calls: number;
  input_tokens: number;
  output_tokens: number;
  /**
   * Sum of the priced calls' costs in USD; null when the group has calls and none of them is priced. With
   * `unpriced_calls` > 0 the group's true cost is unknown and this is only what the priced calls cost.
   */
  cost_usd: number | null;
  /** Calls whose model has no price (their cost is unknown). */
  unpriced_calls: number;
}

/** A run's usage and cost report. */
export interface RunUsageReport {
  total: UsageFigures;
  /** By model handle (`inference_model_name`). */
  by_model: Record<string, UsageFigures>;
  /** By the pipe that made the calls (an operator's `pipe_code`). */
  by_pipe: Record<string, UsageFigures>;
}

/** Tokens of one pipe run, its nested pipes included (a pipe event's `token_usage`). */
export interface TokenCounts {
  input_tokens: number;
  output_tokens: number;
}

function isoOrNull(epochMs: number | null): string | null {
  return epochMs === null ? null : new Date(epochMs).toISOString();
}

function epochOrNull(iso: string | null): number | null {
  return iso === null ? null : Date.parse(iso);
}

/**
 * The usage record of one inference call.
 * @param call - the call
 */
export function tokensUsageRecord(call: InferenceCall): TokensUsageRecord {
  return {
    model_type: call.modelType,
    inference_model_name: call.modelName,
    inference_model_id: call.modelId,
    pipe_code: call.pipeCode,
    job_category: call.jobCategory,
    unit_job_id: null,
    nb_tokens_by_category: { input: call.inputTokens, output: call.outputTokens },
    cost: call.costUsd,
    backend: call.backend,
    started_at: isoOrNull(call.startedAt),
    completed_at: isoOrNull(call.completedAt),
  };
}

/**
 * The inference call a kept usage record describes (the inverse of {@link tokensUsageRecord}). Token categories other
 * than `input` and `output` are dropped (no call records any), a missing one counts 0.
 * @param record - a record as kept
 */
export function inferenceCallOf(record: TokensUsageRecord): InferenceCall {
  return {
    modelType: record.model_type,
    modelName: record.inference_model_name,
    modelId: record.inference_model_id,
    pipeCode: record.pipe_code,
    jobCategory: record.job_category,
    inputTokens: record.nb_tokens_by_category['input'] ?? 0,
    outputTokens: record.nb_tokens_by_category['output'] ?? 0,
    costUsd: record.cost,
    backend: record.backend,
    startedAt: epochOrNull(record.started_at),
    completedAt: epochOrNull(record.completed_at),
  };
}

/**
 * The figures of a group of calls.
 * @param totals - the group's totals
 */
export function usageFigures(totals: UsageTotals): UsageFigures {
  return {
    calls: totals.calls,
    input_tokens: totals.inputTokens,
    output_tokens: totals.outputTokens,
    cost_usd: totals.costUsd,
    unpriced_calls: totals.unpricedCalls,
  };
}

function usageTotalsOf(figures: UsageFigures): UsageTotals {
  return {
    calls: figures.calls,
    inputTokens: figures.input_tokens,
    outputTokens: figures.output_tokens,
    costUsd: figures.cost_usd,
    unpricedCalls: figures.unpriced_calls,
  };
}

function mapGroups<From, To>(groups: Record<string, From>, map: (group: From) => To): Record<string, To> {
  return Object.fromEntries(Object.entries(groups).map(([key, group]) => [key, map(group)]));
}

/**
 * A run's usage and cost report.
 * @param summary - the run's usage summary
 */
export function runUsageReport(summary: UsageSummary): RunUsageReport {
  return {
    total: usageFigures(summary.total),
    by_model: mapGroups(summary.byModel, usageFigures),
    by_pipe: mapGroups(summary.byPipe, usageFigures),
  };
}

/**
 * The usage summary a kept report describes (the inverse of {@link runUsageReport}).
 * @param report - a report as kept
 */
export function usageSummaryOf(report: RunUsageReport): UsageSummary {
  return {
    total: usageTotalsOf(report.total),
    byModel: mapGroups(report.by_model, usageTotalsOf),
    byPipe: mapGroups(report.by_pipe, usageTotalsOf),
  };
}

/**
 * The tokens of one pipe run.
 * @param usage - the runtime's count
 */
export function tokenCounts(usage: PipeTokenUsage): TokenCounts {
  return { input_tokens: usage.inputTokens, output_tokens: usage.outputTokens };
}

/**
 * The runtime's count of kept token counts (the inverse of {@link tokenCounts}).
 * @param counts - counts as kept
 */
export function pipeTokenUsageOf(counts: TokenCounts): PipeTokenUsage {
  return { inputTokens: counts.input_tokens, outputTokens: counts.output_tokens };
}
