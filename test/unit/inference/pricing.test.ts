import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expect } from 'chai';
import { PipelexConfigError } from '../../../shared/errors/index.js';
import { loadInferenceConfig } from '../../../shared/inference/index.js';
import { callCost } from '../../../shared/inference/pricing.js';
import { createRoutedBackend } from '../../../shared/inference/routed-backend.js';

const tokens = (input: number, output: number) => ({ model: 'm', input_tokens: input, output_tokens: output });

describe('inference prices (shared/inference/pricing.ts)', () => {
  describe('the cost of a finished call', () => {
    it('should price LLM tokens per million, and know nothing without both token prices', () => {
      expect(callCost({ input: 2, output: 8 }, 'text', tokens(1_000, 500))).to.equal(0.006);
      expect(callCost({ input: 2 }, 'object', tokens(1_000, 500))).to.equal(null);
      expect(callCost(undefined, 'text', tokens(1, 1))).to.equal(null);
      expect(callCost({ input: 0, output: 0 }, 'text', tokens(1_000, 500))).to.equal(0);
    });

    it('should price images per image plus their tokens, and searches per call', () => {
      expect(callCost({ image: 0.04 }, 'images', tokens(0, 0), 3)).to.be.closeTo(0.12, 1e-12);
      expect(callCost({ input: 5, output: 40 }, 'images', tokens(100, 4_000), 1)).to.be.closeTo(0.1605, 1e-12);
      expect(callCost({ search: 0.005 }, 'images', tokens(1, 1), 1)).to.equal(null);
      expect(callCost({ search: 0.005, input: 1, output: 1 }, 'search', tokens(100, 100))).to.equal(0.005);
      expect(callCost({ input: 1, output: 1 }, 'search', tokens(100, 100))).to.equal(null);
    });
  });

  describe('the price table of the configuration', () => {
    const withOpenAi = (models: string) => {
      const dir = mkdtempSync(join(tmpdir(), 'inference-prices-'));
      mkdirSync(join(dir, 'backends'));
      writeFileSync(join(dir, 'backends', 'openai.toml'), `[defaults]\nsdk = "openai"\n\n${models}`);
      return dir;
    };

    it('should refuse a negative price and an unknown price key', () => {
      for (const costs of ['{ input = -1, output = 1 }', '{ input = 1, output = 1, per_request = 0.1 }']) {
        const dir = withOpenAi(`["m"]\nmodel_type = "llm"\ncosts = ${costs}\n`);
        try {
          expect(() => loadInferenceConfig(dir, {}), costs).to.throw(PipelexConfigError, 'costs');
        } finally {
          rmSync(dir, { recursive: true, force: true });
        }
      }
    });

    it('should quote the model that would serve a call, with its output bound', () => {
      const dir = withOpenAi(
        '["priced"]\nmodel_type = "llm"\nmax_tokens = 2048\ncosts = { input = 1.5, output = 6 }\n\n["bare"]\nmodel_type = "llm"\n',
      );
      try {
        const backend = createRoutedBackend({
          config: loadInferenceConfig(dir, { OPENAI_API_KEY: 'k' }),
          timeoutMs: 1000,
          maxRetries: 0,
          mockLatencyMs: 0,
          rateLimits: { store: { kind: 'memory' }, waitMs: 1000 },
        });
        expect(backend.quote!({ call: 'text', modelRef: 'priced' })).to.deep.equal({
          model: 'priced',
          input: 1.5,
          output: 6,
          image: null,
          search: null,
          maxOutputTokens: 2048,
        });
        expect(backend.quote!({ call: 'object', modelRef: 'priced', maxTokens: 300 }).maxOutputTokens).to.equal(300);
        expect(backend.quote!({ call: 'text', modelRef: 'bare' })).to.deep.include({
          model: 'bare',
          input: null,
          output: null,
          maxOutputTokens: null,
        });
      } finally {
        rmSync(dir, { recursive: true, force: true });
      }
    });

    it('should quote the packaged deck’s published prices', () => {
      const backend = createRoutedBackend({
        config: loadInferenceConfig(undefined, { OPENAI_API_KEY: 'k', ANTHROPIC_API_KEY: 'a' }),
        timeoutMs: 1000,
        maxRetries: 0,
        mockLatencyMs: 0,
        rateLimits: { store: { kind: 'memory' }, waitMs: 1000 },
      });
      expect(backend.quote!({ call: 'text', modelRef: '$writing-factual' })).to.deep.include({
        model: 'gpt-4.1',
        input: 2,
        output: 8,
      });
      expect(backend.quote!({ call: 'text', modelRef: 'claude-4.5-haiku' })).to.deep.include({
        input: 1,
        output: 5,
        maxOutputTokens: 8192,
      });
    });
  });
});
