import { expect } from 'chai';
import { judgePrompt } from '../../../../../shared/mthds/rules/pipes/judge-prompt.js';
import { runRule } from '../harness.js';
import { judgeBundle } from './judge-bundles.js';

describe('S4-judge-prompt', () => {
  describe('when the prompt is blank', () => {
    it('should report it', () => {
      expect(runRule(judgePrompt, judgeBundle('prompt = "  "\nquestion = "Urgent? $message"'))).to.deep.equal([
        {
          category: 'blueprint_validation',
          message:
            "Pipe 'judge_message': a PipeJudge needs a non-empty prompt (the evidence the questions are asked about).",
          error_type: 'invalid_pipe_field',
          source: 'bundle-1.mthds',
          pipe_code: 'judge_message',
          domain_code: 'inbox',
          field_path: 'pipe.judge_message.prompt',
          field_name: 'prompt',
        },
      ]);
    });
  });

  describe('when the prompt holds the evidence', () => {
    it('should pass', () => {
      expect(runRule(judgePrompt, judgeBundle('prompt = "@message"\nquestion = "Urgent?"'))).to.deep.equal([]);
    });
  });
});
