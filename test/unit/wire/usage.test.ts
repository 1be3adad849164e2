/**
 * Inference usage on the wire (shared/wire/usage.ts): the runtime's calls and summary as the records and reports the
 * API sends, and back from what checkpoints and child results keep.
 */
import { expect } from 'chai';
import { type InferenceCall, summarizeUsage } from '../../../shared/runtime/usage-report.js';
import {
  inferenceCallOf,
  pipeTokenUsageOf,
  runUsageReport,
  tokenCounts,
  tokensUsageRecord,
  usageSummaryOf,
} from '../../../shared/wire/usage.js';

const CALL: InferenceCall = {
  modelType: 'llm',
  modelName: 'gpt-4o-mini',
  modelId: 'gpt-4o-mini-2024-07-18',
  pipeCode: 'draft',
  jobCategory: 'llm_job',
  inputTokens: 11,
  outputTokens: 7,
  costUsd: 0.0001,
  backend: 'openai',
  startedAt: Date.UTC(2026, 0, 15, 12),
  completedAt: Date.UTC(2026, 0, 15, 12, 0, 1),
};

describe('inference usage on the wire (shared/wire/usage.ts)', () => {
  it('should render a call as the reference’s TokensUsageRecord with its backend, times in ISO-8601 UTC', () => {
    expect(tokensUsageRecord(CALL)).to.deep.equal({
      model_type: 'llm',
      inference_model_name: 'gpt-4o-mini',
      inference_model_id: 'gpt-4o-mini-2024-07-18',
      pipe_code: 'draft',
      job_category: 'llm_job',
      unit_job_id: null,
      nb_tokens_by_category: { input: 11, output: 7 },
      cost: 0.0001,
      backend: 'openai',
      started_at: '2026-01-15T12:00:00.000Z',
      completed_at: '2026-01-15T12:00:01.000Z',
    });
  });

  it('should read a kept record back as the call it records', () => {
    expect(inferenceCallOf(tokensUsageRecord(CALL))).to.deep.equal(CALL);
    const untimed = { ...CALL, pipeCode: null, backend: null, costUsd: null, startedAt: null, completedAt: null };
    expect(inferenceCallOf(tokensUsageRecord(untimed))).to.deep.equal(untimed);
  });

  it('should render a summary as the run usage report, and read it back', () => {
    const summary = summarizeUsage([CALL, { ...CALL, modelName: '__proto__', pipeCode: 'review', costUsd: null }]);
    const report = runUsageReport(summary);
    expect(report.total).to.deep.equal({
      calls: 2,
      input_tokens: 22,
      output_tokens: 14,
      cost_usd: 0.0001,
      unpriced_calls: 1,
    });
    expect(Object.keys(report.by_model)).to.deep.equal(['gpt-4o-mini', '__proto__']);
    expect(JSON.stringify(report.by_model)).to.include('"__proto__":{"calls":1');
    expect(Object.keys(report.by_pipe)).to.deep.equal(['draft', 'review']);
    expect(usageSummaryOf(report)).to.deep.equal(summary);
  });

  it('should render a pipe’s token count as a pipe event’s token_usage, and read it back', () => {
    expect(tokenCounts({ inputTokens: 3, outputTokens: 4 })).to.deep.equal({ input_tokens: 3, output_tokens: 4 });
    expect(pipeTokenUsageOf({ input_tokens: 3, output_tokens: 4 })).to.deep.equal({ inputTokens: 3, outputTokens: 4 });
  });
});
