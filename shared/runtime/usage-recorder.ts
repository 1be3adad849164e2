/**
 * Token usage of a run: an inference-port decorator that records one record per call (RUNTIME.md §5.8), with the
 * backend that served it and its cost when the model spec has rates. The run outcome carries the records.
 */
import type { InferencePort, TokenUsage } from './ports.js';

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

/** A port that records usage, and the records. */
export interface UsageRecorder {
  inference: InferencePort;
  records: TokensUsageRecord[];
}

/**
 * Wrap a port so every call is recorded.
 * @param inference - the run's inference port
 * @param now - clock in epoch ms
 */
export function recordUsage(inference: InferencePort, now: () => number): UsageRecorder {
  const records: TokensUsageRecord[] = [];
  const recorded = async <T extends { usage: TokenUsage }>(
    modelType: TokensUsageRecord['model_type'],
    jobCategory: string,
    pipeCode: string,
    call: () => Promise<T>,
  ): Promise<T> => {
    const startedAt = new Date(now()).toISOString();
    const result = await call();
    records.push({
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
    records,
    inference: {
      name: inference.name,
      isMock: inference.isMock,
      generateText: (request) => recorded('llm', 'llm_job', request.pipeCode, () => inference.generateText(request)),
      generateObject: (request) =>
        recorded('llm', 'llm_job', request.pipeCode, () => inference.generateObject(request)),
      ...(inference.generateImages
        ? {
            generateImages: (request) =>
              recorded('img_gen', 'img_gen_job', request.pipeCode, () => inference.generateImages!(request)),
          }
        : {}),
      ...(inference.search
        ? { search: (request) => recorded('search', 'search_job', request.pipeCode, () => inference.search!(request)) }
        : {}),
    },
  };
}
