import { expect } from 'chai';
import { summarizeUsage, type TokensUsageRecord } from '../../../shared/runtime/usage-report.js';

type Facts = Pick<TokensUsageRecord, 'inference_model_name' | 'pipe_code' | 'nb_tokens_by_category' | 'cost'>;

function call(model: string, pipe: string, input: number, output: number, cost: number | null): Facts {
  return { inference_model_name: model, pipe_code: pipe, nb_tokens_by_category: { input, output }, cost };
}

describe('the run usage report (shared/runtime/usage-report.ts)', () => {
  it('should total a run without calls as zero tokens, zero calls and a cost of 0', () => {
    expect(summarizeUsage([])).to.deep.equal({
      total: { calls: 0, input_tokens: 0, output_tokens: 0, cost_usd: 0, unpriced_calls: 0 },
      by_model: {},
      by_pipe: {},
    });
  });

  it('should add tokens, calls and costs in total, by model and by pipe', () => {
    const report = summarizeUsage([
      call('gpt-4.1', 'draft', 100, 50, 0.0006),
      call('gpt-4o-mini', 'draft', 10, 5, 0.000004),
      call('gpt-4.1', 'review', 200, 20, 0.00056),
    ]);
    expect(report.total).to.deep.include({ calls: 3, input_tokens: 310, output_tokens: 75, unpriced_calls: 0 });
    expect(report.total.cost_usd).to.be.closeTo(0.001164, 1e-12);
    expect(Object.keys(report.by_model)).to.deep.equal(['gpt-4.1', 'gpt-4o-mini']);
    expect(report.by_model['gpt-4.1']).to.deep.include({ calls: 2, input_tokens: 300, output_tokens: 70 });
    expect(report.by_model['gpt-4.1']!.cost_usd).to.be.closeTo(0.00116, 1e-12);
    expect(report.by_pipe['draft']).to.deep.include({ calls: 2, input_tokens: 110, output_tokens: 55 });
    expect(report.by_pipe['review']).to.deep.equal({
      calls: 1,
      input_tokens: 200,
      output_tokens: 20,
      cost_usd: 0.00056,
      unpriced_calls: 0,
    });
  });

  it('should count an unpriced call’s tokens and report its cost as unknown, never as 0', () => {
    const report = summarizeUsage([call('mystery', 'guess', 40, 60, null), call('gpt-4.1', 'draft', 100, 50, 0.0006)]);
    expect(report.total).to.deep.equal({
      calls: 2,
      input_tokens: 140,
      output_tokens: 110,
      cost_usd: 0.0006,
      unpriced_calls: 1,
    });
    expect(report.by_model['mystery']).to.deep.equal({
      calls: 1,
      input_tokens: 40,
      output_tokens: 60,
      cost_usd: null,
      unpriced_calls: 1,
    });
    expect(summarizeUsage([call('mystery', 'guess', 1, 1, null)]).total.cost_usd).to.equal(null);
  });

  it('should keep model handles that are also Object.prototype names as ordinary keys', () => {
    const report = summarizeUsage([call('__proto__', 'constructor', 1, 2, 0.5)]);
    expect(Object.keys(report.by_model)).to.deep.equal(['__proto__']);
    expect(report.by_pipe['constructor']).to.deep.include({ calls: 1, cost_usd: 0.5 });
    expect(JSON.stringify(report.by_model)).to.include('"__proto__":{"calls":1');
  });
});
