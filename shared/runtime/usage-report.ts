/**
 * The usage record of one inference call, and a run's usage and cost report (docs/run-events.md "Usage and cost")
 * computed from its records: totals, then the same figures by model handle and by pipe. Costs are USD at the model specs' prices; a call whose model has no
 * price counts its tokens and its call, and is counted in `unpriced_calls` — its cost is unknown, never 0.
 */

/** One usage record: the reference's `TokensUsageRecord` (API-CONTRACT.md §3.5) plus `backend`. Times are ISO-8601 UTC. */
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

function emptyFigures(): UsageFigures {
  return { calls: 0, input_tokens: 0, output_tokens: 0, cost_usd: null, unpriced_calls: 0 };
}

/** The members of a usage record a report reads. */
type UsageFacts = Pick<TokensUsageRecord, 'inference_model_name' | 'pipe_code' | 'nb_tokens_by_category' | 'cost'>;

function add(figures: UsageFigures, record: UsageFacts): void {
  figures.calls += 1;
  figures.input_tokens += record.nb_tokens_by_category['input'] ?? 0;
  figures.output_tokens += record.nb_tokens_by_category['output'] ?? 0;
  if (record.cost === null) figures.unpriced_calls += 1;
  else figures.cost_usd = (figures.cost_usd ?? 0) + record.cost;
}

function copy(groups: Map<string, UsageFigures>): Record<string, UsageFigures> {
  return Object.fromEntries([...groups].map(([key, figures]) => [key, { ...figures }]));
}

/** A run's usage report kept up to date call by call. */
export class UsageTally {
  private readonly total: UsageFigures = emptyFigures();
  private readonly byModel = new Map<string, UsageFigures>();
  private readonly byPipe = new Map<string, UsageFigures>();

  /**
   * Count one call.
   * @param record - the call's usage record
   */
  add(record: UsageFacts): void {
    add(this.total, record);
    add(this.group(this.byModel, record.inference_model_name), record);
    add(this.group(this.byPipe, record.pipe_code ?? ''), record);
  }

  /** The report of the calls counted so far (a copy); with no call, zero totals and a `cost_usd` of 0. */
  report(): RunUsageReport {
    const total = { ...this.total };
    if (total.calls === 0) total.cost_usd = 0;
    return { total, by_model: copy(this.byModel), by_pipe: copy(this.byPipe) };
  }

  private group(groups: Map<string, UsageFigures>, key: string): UsageFigures {
    const existing = groups.get(key);
    if (existing) return existing;
    const created = emptyFigures();
    groups.set(key, created);
    return created;
  }
}

/**
 * Summarize usage records.
 * @param records - the records of a run's inference calls (any order)
 * @returns totals and the figures by model and by pipe; a run without calls has zero totals and a `cost_usd` of 0
 */
export function summarizeUsage(records: readonly UsageFacts[]): RunUsageReport {
  const tally = new UsageTally();
  for (const record of records) tally.add(record);
  return tally.report();
}
