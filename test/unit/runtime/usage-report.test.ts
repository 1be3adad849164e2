import { expect } from 'chai';
import { type InferenceCall, summarizeUsage } from '../../../shared/runtime/usage-report.js';

type Facts = Pick<InferenceCall, 'modelName' | 'pipeCode' | 'inputTokens' | 'outputTokens' | 'costUsd'>;

function call(model: string, pipe: string, input: number, output: number, cost: number | null): Facts {
  return { modelName: model, pipeCode: pipe, inputTokens: input, outputTokens: output, costUsd: cost };
}

describe('the run usage summary (shared/runtime/usage-report.ts)', () => {
  it('should total a run without calls as zero tokens, zero calls and a cost of 0', () => {
    expect(summarizeUsage([])).to.deep.equal({
      total: { calls: 0, inputTokens: 0, outputTokens: 0, costUsd: 0, unpricedCalls: 0 },
      byModel: {},
      byPipe: {},
    });
  });

  it('should add tokens, calls and costs in total, by model and by pipe', () => {
    const summary = summarizeUsage([
      call('gpt-4.1', 'draft', 100, 50, 0.0006),
      call('gpt-4o-mini', 'draft', 10, 5, 0.000004),
      call('gpt-4.1', 'review', 200, 20, 0.00056),
    ]);
    expect(summary.total).to.deep.include({ calls: 3, inputTokens: 310, outputTokens: 75, unpricedCalls: 0 });
    expect(summary.total.costUsd).to.be.closeTo(0.001164, 1e-12);
    expect(Object.keys(summary.byModel)).to.deep.equal(['gpt-4.1', 'gpt-4o-mini']);
    expect(summary.byModel['gpt-4.1']).to.deep.include({ calls: 2, inputTokens: 300, outputTokens: 70 });
    expect(summary.byModel['gpt-4.1']!.costUsd).to.be.closeTo(0.00116, 1e-12);
    expect(summary.byPipe['draft']).to.deep.include({ calls: 2, inputTokens: 110, outputTokens: 55 });
    expect(summary.byPipe['review']).to.deep.equal({
      calls: 1,
      inputTokens: 200,
      outputTokens: 20,
      costUsd: 0.00056,
      unpricedCalls: 0,
    });
  });

  it('should count an unpriced call’s tokens and report its cost as unknown, never as 0', () => {
    const summary = summarizeUsage([call('mystery', 'guess', 40, 60, null), call('gpt-4.1', 'draft', 100, 50, 0.0006)]);
    expect(summary.total).to.deep.equal({
      calls: 2,
      inputTokens: 140,
      outputTokens: 110,
      costUsd: 0.0006,
      unpricedCalls: 1,
    });
    expect(summary.byModel['mystery']).to.deep.equal({
      calls: 1,
      inputTokens: 40,
      outputTokens: 60,
      costUsd: null,
      unpricedCalls: 1,
    });
    expect(summarizeUsage([call('mystery', 'guess', 1, 1, null)]).total.costUsd).to.equal(null);
  });

  it('should keep model handles that are also Object.prototype names as ordinary keys', () => {
    const summary = summarizeUsage([call('__proto__', 'constructor', 1, 2, 0.5)]);
    expect(Object.keys(summary.byModel)).to.deep.equal(['__proto__']);
    expect(summary.byPipe['constructor']).to.deep.include({ calls: 1, costUsd: 0.5 });
  });
});
