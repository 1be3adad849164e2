import { expect } from 'chai';
import { judgeOutputSingle } from '../../../../../shared/mthds/rules/pipes/judge-output-single.js';
import { runRule } from '../harness.js';
import { judgeBundle } from './judge-bundles.js';

const YES_NO = 'prompt = "@message"\nquestion = "Urgent?"';
const CHOICE = 'prompt = "@message"\nquestion = "Which team?"\noptions = { billing = "", support = "" }';
const RATING = 'prompt = "@message"\nquestion = "How severe?"\nlevels = ["Low", "High"]';

describe('S4-judge-output-single', () => {
  describe('when a yes/no question outputs Text', () => {
    it('should report it', () => {
      expect(runRule(judgeOutputSingle, judgeBundle(YES_NO, undefined, 'Text'))).to.deep.equal([
        {
          category: 'pipe_validation',
          message:
            'Pipe \'judge_message\': a PipeJudge asking one yes/no question outputs "YesNo" (or a concept refining it), not "Text".',
          error_type: 'inadequate_output_concept',
          source: 'bundle-1.mthds',
          pipe_code: 'judge_message',
          domain_code: 'inbox',
          field_path: 'pipe.judge_message.output',
          field_name: 'output',
        },
      ]);
    });
  });

  describe('when the output is another kind, Dynamic, or a list', () => {
    it('should report each', () => {
      const messages = (fields: string, output: string) =>
        runRule(judgeOutputSingle, judgeBundle(fields, undefined, output)).map((item) => item.message);
      expect(messages(CHOICE, 'YesNo')).to.deep.equal([
        'Pipe \'judge_message\': a PipeJudge asking one choice question outputs "Choice" (or a concept refining it), not "YesNo".',
      ]);
      expect(messages(RATING, 'Dynamic')).to.deep.equal([
        'Pipe \'judge_message\': a PipeJudge asking one rating question outputs "Rating" (or a concept refining it), not "Dynamic".',
      ]);
      expect(messages(YES_NO, 'YesNo[]')).to.have.length(1);
    });
  });

  describe("when the output is the kind's native or a refinement of it", () => {
    it('should pass', () => {
      expect(runRule(judgeOutputSingle, judgeBundle(YES_NO, undefined, 'Urgency'))).to.deep.equal([]);
      expect(runRule(judgeOutputSingle, judgeBundle(CHOICE, undefined, 'Routing'))).to.deep.equal([]);
      expect(runRule(judgeOutputSingle, judgeBundle(RATING, undefined, 'Rating'))).to.deep.equal([]);
    });
  });
});
