import { expect } from 'chai';
import { RunBudgetExceededError } from '../../../shared/errors/index.js';
import type { CallQuote, InferencePort, LlmRequest, QuoteRequest } from '../../../shared/runtime/index.js';
import {
  budgeted,
  DEFAULT_OUTPUT_TOKEN_ESTIMATE,
  estimateCallCost,
  estimateInputTokens,
} from '../../../shared/runtime/run-budget.js';
import { failureOf } from '../../helpers/inference-fixtures.js';

/** USD per million tokens of the priced test model: 1 input, 10 output. */
const PRICED: CallQuote = { model: 'priced', input: 1, output: 10, image: null, search: null, maxOutputTokens: 1000 };

/** A port whose calls each cost `cost` USD, quoting `quote`, counting the calls it made. */
function pricedPort(quote: CallQuote | null, cost: number | null) {
  const calls: string[] = [];
  const quotes: QuoteRequest[] = [];
  const usage = () => ({ model: quote?.model ?? 'free', input_tokens: 1, output_tokens: 1, cost });
  const port: InferencePort = {
    name: 'priced',
    isMock: false,
    async generateText(request) {
      calls.push(request.pipeCode);
      return { text: 'ok', usage: usage() };
    },
    async generateObject(request) {
      calls.push(request.pipeCode);
      return { object: {}, usage: usage() };
    },
    async search(request) {
      calls.push(request.pipeCode);
      return { result: { answer: 'a', sources: [] }, usage: usage() };
    },
    ...(quote
      ? {
          quote: (request: QuoteRequest) => {
            quotes.push(request);
            return quote;
          },
        }
      : {}),
  };
  return { port, calls, quotes };
}

const text = (pipeCode: string, userPrompt = 'abcd'): LlmRequest => ({ pipeCode, userPrompt, modelRef: '$cheap' });

describe('the run budget (shared/runtime/run-budget.ts)', () => {
  describe('estimating a call', () => {
    it('should count a prompt’s input tokens as a quarter of its characters, rounded up', () => {
      expect(estimateInputTokens(['abcd', 'e', undefined])).to.equal(2);
      expect(estimateInputTokens([])).to.equal(0);
    });

    it('should price an LLM call at its input estimate plus its output bound', () => {
      expect(estimateCallCost({ call: 'text', inputTokens: 2000, images: 0 }, PRICED)).to.equal(0.012);
      const unbounded = { ...PRICED, maxOutputTokens: null };
      expect(estimateCallCost({ call: 'object', inputTokens: 0, images: 0 }, unbounded)).to.equal(
        (DEFAULT_OUTPUT_TOKEN_ESTIMATE * 10) / 1_000_000,
      );
    });

    it('should price images per image, searches per call, and know nothing of a missing price', () => {
      const images = { ...PRICED, input: null, output: null, image: 0.04 };
      expect(estimateCallCost({ call: 'images', inputTokens: 10, images: 3 }, images)).to.be.closeTo(0.12, 1e-12);
      expect(estimateCallCost({ call: 'search', inputTokens: 0, images: 0 }, { ...PRICED, search: 0.005 })).to.equal(
        0.005,
      );
      expect(estimateCallCost({ call: 'search', inputTokens: 0, images: 0 }, PRICED)).to.equal(null);
      expect(estimateCallCost({ call: 'text', inputTokens: 1, images: 0 }, { ...PRICED, output: null })).to.equal(null);
    });
  });

  describe('checking calls', () => {
    it('should let calls through while spent plus the next estimate stays within the budget', async () => {
      // each call is estimated at 1 input token + 1000 output tokens = 0.010001 USD and costs 0.004 USD
      const { port, calls, quotes } = pricedPort(PRICED, 0.004);
      const guarded = budgeted(port, 0.02);
      await guarded.generateText({ ...text('one'), maxTokens: 1000 });
      await guarded.generateText(text('two'));
      await guarded.generateText(text('three'));
      const refused = await failureOf(guarded.generateText(text('four')));
      expect(calls).to.deep.equal(['one', 'two', 'three']);
      expect(refused).to.be.instanceOf(RunBudgetExceededError);
      expect(refused).to.include({ error_type: 'RunBudgetExceededError', error_domain: 'input', retryable: false });
      expect(refused.message).to.equal(
        "The run's budget max_cost_usd = 0.02 USD would be exceeded: 0.012 USD spent so far, and the next LLM call of pipe 'four' to model 'priced' may cost up to 0.010001 USD (docs/inference.md#run-budget). The call was not made. Raise max_cost_usd, or lower the pipe's max_tokens.",
      );
      expect(quotes[0]).to.deep.equal({ call: 'text', modelRef: '$cheap', maxTokens: 1000 });
      expect(quotes[1]).to.deep.equal({ call: 'text', modelRef: '$cheap' });
    });

    it('should reserve the estimates of calls under way, so parallel calls cannot overrun together', async () => {
      const { port, calls } = pricedPort(PRICED, 0.001);
      const guarded = budgeted(port, 0.025);
      const attempts = await Promise.allSettled(['a', 'b', 'c'].map((pipe) => guarded.generateText(text(pipe))));
      expect(attempts.map((attempt) => attempt.status)).to.deep.equal(['fulfilled', 'fulfilled', 'rejected']);
      expect(calls).to.deep.equal(['a', 'b']);
      const reason = (attempts[2] as PromiseRejectedResult).reason as Error;
      expect(reason.message).to.include('reserved by calls under way');
    });

    it('should refuse a call whose model has no price, without making it', async () => {
      const { port, calls } = pricedPort({ ...PRICED, model: 'unpriced', input: null, output: null }, null);
      const refused = await failureOf(budgeted(port, 100).generateText(text('draft')));
      expect(calls).to.deep.equal([]);
      expect(refused).to.be.instanceOf(RunBudgetExceededError);
      expect(refused.message).to.include("model 'unpriced' has no price for LLM calls");
      expect(refused.message).to.include("the call of pipe 'draft' cannot be checked against it and was not made");
    });

    it('should refuse every call of a backend that quotes no prices', async () => {
      const { port, calls } = pricedPort(null, 0);
      const refused = await failureOf(budgeted(port, 100).search!({ pipeCode: 'look', query: 'q' }));
      expect(calls).to.deep.equal([]);
      expect(refused.message).to.include("model 'the default model' has no price for search calls");
    });

    it('should count a call’s estimate as spent when its backend reports no cost', async () => {
      const { port, calls } = pricedPort(PRICED, null);
      const guarded = budgeted(port, 0.025);
      await guarded.generateObject({ ...text('one'), schemaName: 'S', jsonSchema: {}, validate: () => [] });
      await guarded.generateText(text('two'));
      await failureOf(guarded.generateText(text('three')));
      expect(calls).to.deep.equal(['one', 'two']);
    });
  });
});
