import { expect } from 'chai';
import { judgeOptions } from '../../../../../shared/mthds/rules/pipes/judge-options.js';
import { runRule } from '../harness.js';
import { judgeBundle } from './judge-bundles.js';

const choice = (options: string) =>
  judgeBundle(`prompt = "@message"\nquestion = "Which team?"\noptions = ${options}`, undefined, 'Choice');

describe('S4-judge-options', () => {
  describe('when fewer than two options are offered', () => {
    it('should report it', () => {
      expect(runRule(judgeOptions, choice('{ billing = "Invoices" }'))).to.deep.equal([
        {
          category: 'blueprint_validation',
          message: "Pipe 'judge_message': options: a choice offers at least 2 options, not 1.",
          error_type: 'invalid_pipe_field',
          source: 'bundle-1.mthds',
          pipe_code: 'judge_message',
          domain_code: 'inbox',
          field_path: 'pipe.judge_message.options',
          field_name: 'options',
        },
      ]);
    });
  });

  describe('when an option key is empty', () => {
    it('should report it', () => {
      expect(
        runRule(judgeOptions, choice('{ "" = "Nobody", billing = "Invoices" }')).map((item) => item.message),
      ).to.deep.equal(["Pipe 'judge_message': options: an option key must not be empty."]);
    });
  });

  describe('when two or more keys are offered, some undescribed', () => {
    it('should pass', () => {
      expect(runRule(judgeOptions, choice('{ billing = "Invoices", other = "" }'))).to.deep.equal([]);
    });
  });
});
