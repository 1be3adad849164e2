/**
 * Token usage of a run: an inference-port decorator that records one record per call (RUNTIME.md §5.8), with the
 * backend that served it and its cost when the model spec has rates. The run outcome carries the records.
 */
import type { InferencePort, TokenUsage } from './ports.js';
import { type RunUsageReport, type TokensUsageRecord, UsageTally } from './usage-report.js';

/** A port that records usage, the records, and their report. */
export interface UsageRecorder {
  inference: InferencePort;
  records: TokensUsageRecord[];
  /** The usage and cost report of the calls recorded so far (usage-report.ts). */
  report(): RunUsageReport;
  /**
   * Count calls made elsewhere for this run: a fanned-out child's (docs/fan-out.md), or an earlier attempt's whose
   * step this attempt replays from its checkpoint (step-checkpoints.ts). They join the records and the report as if
   * made here.
   * @param records - their records, in call order
   */
  absorb(records: readonly TokensUsageRecord[]): void;
}

/**
 * Wrap a port so every call's usage record goes to `sink` once the call returns.
 * @param inference - the port to wrap
 * @param now - clock in epoch ms (the records' `started_at` / `completed_at`)
 * @param sink - receives each record
 */
export function usageRecordingPort(
  inference: InferencePort,
  now: () => number,
  sink: (record: TokensUsageRecord) => void,
): InferencePort {
  const recorded = async <T extends { usage: TokenUsage }>(
    modelType: TokensUsageRecord['model_type'],
    jobCategory: string,
    pipeCode: string,
    call: () => Promise<T>,
  ): Promise<T> => {
    const startedAt = new Date(now()).toISOString();
    const result = await call();
    sink({
      model_type: modelType,
      inference_model_name: result.usage.model,
      inference_model_id: result.usage.model_id ?? result.usage.model,
      pipe_code: pipeCode,
      job_category: jobCategory,
      unit_job_id: null,
      nb_tokens_by_category: { input: result.usage.input_tokens, output: result.usage.output_tokens },
      cost: result.usage.cost ?? null,
      backend: result.usage.backend ?? inference.name,
      started_at: startedAt,
      completed_at: new Date(now()).toISOString(),
    });
    return result;
  };
  return {
    name: inference.name,
    isMock: inference.isMock,
    generateText: (request) => recorded('llm', 'llm_job', request.pipeCode, () => inference.generateText(request)),
    generateObject: (request) => recorded('llm', 'llm_job', request.pipeCode, () => inference.generateObject(request)),
    ...(inference.generateImages
      ? {
          generateImages: (request) =>
            recorded('img_gen', 'img_gen_job', request.pipeCode, () => inference.generateImages!(request)),
        }
      : {}),
    ...(inference.search
      ? { search: (request) => recorded('search', 'search_job', request.pipeCode, () => inference.search!(request)) }
      : {}),
    ...(inference.quote ? { quote: (request) => inference.quote!(request) } : {}),
  };
}

/**
 * Wrap a port so every call is recorded.
 * @param inference - the run's inference port
 * @param now - clock in epoch ms
 */
export function recordUsage(inference: InferencePort, now: () => number): UsageRecorder {
  const records: TokensUsageRecord[] = [];
  const tally = new UsageTally();
  const keep = (record: TokensUsageRecord): void => {
    records.push(record);
    tally.add(record);
  };
  return {
    records,
    report: () => tally.report(),
    absorb: (absorbed) => {
      for (const record of absorbed) keep(record);
    },
    inference: usageRecordingPort(inference, now, keep),
  };
}
