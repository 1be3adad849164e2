import { expect } from 'chai';
import { judgeLevels } from '../../../../../shared/mthds/rules/pipes/judge-levels.js';
import { runRule } from '../harness.js';
import { judgeBundle } from './judge-bundles.js';

const rating = (levels: string) =>
  judgeBundle(`prompt = "@message"\nquestion = "How severe?"\nlevels = ${levels}`, undefined, 'Rating');
const messages = (levels: string) => runRule(judgeLevels, rating(levels)).map((item) => item.message);

describe('S4-judge-levels', () => {
  describe('when the scale has one level', () => {
    it('should report it', () => {
      expect(runRule(judgeLevels, rating('["Only"]'))).to.deep.equal([
        {
          category: 'blueprint_validation',
          message: "Pipe 'judge_message': levels: a rating scale has at least 2 levels, not 1.",
          error_type: 'invalid_pipe_field',
          source: 'bundle-1.mthds',
          pipe_code: 'judge_message',
          domain_code: 'inbox',
          field_path: 'pipe.judge_message.levels',
          field_name: 'levels',
        },
      ]);
    });
  });

  describe('when a level is empty, labels are partial or repeated', () => {
    it('should report each', () => {
      expect(messages('["Low", ""]')).to.deep.equal([
        "Pipe 'judge_message': levels: level 1 needs a non-empty label or description.",
      ]);
      expect(messages('[{ label = "Low" }, {}]')).to.deep.equal([
        "Pipe 'judge_message': levels: level 1 needs a non-empty label or description.",
      ]);
      expect(messages('[{ label = "Low" }, "Quite bad"]')).to.deep.equal([
        "Pipe 'judge_message': levels: either every level has a label or none has.",
      ]);
      expect(messages('[{ label = "Low" }, { label = "Low", description = "Also low" }]')).to.deep.equal([
        "Pipe 'judge_message': levels: the label 'Low' is used twice.",
      ]);
    });
  });

  describe('when the scale is descriptions only, or labelled throughout', () => {
    it('should pass', () => {
      expect(messages('["Cosmetic", "Blocks work"]')).to.deep.equal([]);
      expect(messages('[{ label = "Minor" }, { label = "Major", description = "Blocks work" }]')).to.deep.equal([]);
    });
  });
});
