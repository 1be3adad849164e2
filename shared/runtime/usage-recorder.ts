/**
 * Token usage of a run: an inference-port decorator that records one record per call
 * (docs/inference.md#token-usage-and-cost), with the
 * backend that served it and its cost when the model spec has rates. The run outcome carries the records.
 */
import type { InferencePort, TokenUsage } from './ports.js';
import { type InferenceCall, type UsageSummary, UsageTally } from './usage-report.js';

/** A port that records usage, the calls it recorded, and their summary. */
export interface UsageRecorder {
  inference: InferencePort;
  calls: InferenceCall[];
  /** The usage and cost summary of the calls recorded so far (usage-report.ts). */
  summary(): UsageSummary;
  /**
   * Count calls made elsewhere for this run: a fanned-out child's (docs/fan-out.md), or an earlier attempt's whose
   * step this attempt replays from its checkpoint (step-checkpoints.ts). They join the calls and the summary as if
   * made here.
   * @param calls - the calls, in call order
   */
  absorb(calls: readonly InferenceCall[]): void;
}

/**
 * Wrap a port so every call goes to `sink` once it returns.
 * @param inference - the port to wrap
 * @param now - clock in epoch ms (the calls' `startedAt` / `completedAt`)
 * @param sink - receives each call
 */
export function usageRecordingPort(
  inference: InferencePort,
  now: () => number,
  sink: (call: InferenceCall) => void,
): InferencePort {
  const recorded = async <T extends { usage: TokenUsage }>(
    modelType: InferenceCall['modelType'],
    jobCategory: string,
    pipeCode: string,
    call: () => Promise<T>,
  ): Promise<T> => {
    const startedAt = now();
    const result = await call();
    sink({
      modelType,
      modelName: result.usage.model,
      modelId: result.usage.model_id ?? result.usage.model,
      pipeCode,
      jobCategory,
      inputTokens: result.usage.input_tokens,
      outputTokens: result.usage.output_tokens,
      costUsd: result.usage.cost ?? null,
      backend: result.usage.backend ?? inference.name,
      startedAt,
      completedAt: now(),
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
  const calls: InferenceCall[] = [];
  const tally = new UsageTally();
  const keep = (call: InferenceCall): void => {
    calls.push(call);
    tally.add(call);
  };
  return {
    calls,
    summary: () => tally.summary(),
    absorb: (absorbed) => {
      for (const call of absorbed) keep(call);
    },
    inference: usageRecordingPort(inference, now, keep),
  };
}
