import { expect } from 'chai';
import { judgeThreshold } from '../../../../../shared/mthds/rules/pipes/judge-threshold.js';
import { runRule } from '../harness.js';
import { judgeBundle } from './judge-bundles.js';

const withThreshold = (value: string) => judgeBundle(`prompt = "@message"\nquestion = "Urgent?"\nthreshold = ${value}`);

describe('S4-judge-threshold', () => {
  describe('when the threshold is 1', () => {
    it('should report it', () => {
      expect(runRule(judgeThreshold, withThreshold('1'))).to.deep.equal([
        {
          category: 'blueprint_validation',
          message: "Pipe 'judge_message': threshold must be strictly between 0 and 1, not 1.",
          error_type: 'invalid_pipe_field',
          source: 'bundle-1.mthds',
          pipe_code: 'judge_message',
          domain_code: 'inbox',
          field_path: 'pipe.judge_message.threshold',
          field_name: 'threshold',
        },
      ]);
    });
  });

  describe('when the threshold is 0 or negative', () => {
    it('should report it', () => {
      expect(runRule(judgeThreshold, withThreshold('0')).map((item) => item.error_type)).to.deep.equal([
        'invalid_pipe_field',
      ]);
      expect(runRule(judgeThreshold, withThreshold('-0.5')).map((item) => item.error_type)).to.deep.equal([
        'invalid_pipe_field',
      ]);
    });
  });

  describe('when the threshold is inside (0, 1)', () => {
    it('should pass', () => {
      expect(runRule(judgeThreshold, withThreshold('0.7'))).to.deep.equal([]);
    });
  });
});
