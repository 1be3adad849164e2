import { expect } from 'chai';
import { judgeQuestionMedia } from '../../../../../shared/mthds/rules/pipes/judge-question-media.js';
import { runRule } from '../harness.js';
import { judgeBundle } from './judge-bundles.js';

describe('S4-judge-question-media', () => {
  describe('when a question reads an Image input', () => {
    it('should report it', () => {
      const text = judgeBundle(
        'prompt = "@message @photo"\nquestion = "Is $photo blurry?"',
        'message = "Text", photo = "Image"',
      );
      expect(runRule(judgeQuestionMedia, text)).to.deep.equal([
        {
          category: 'pipe_validation',
          message:
            "Pipe 'judge_message': question reads input 'photo' (Image); a question is plain text, so images and documents belong in the prompt.",
          error_type: 'input_stuff_spec_mismatch',
          source: 'bundle-1.mthds',
          pipe_code: 'judge_message',
          domain_code: 'inbox',
          field_path: 'pipe.judge_message.question',
          field_name: 'question',
        },
      ]);
    });
  });

  describe('when a named question reads a list of documents', () => {
    it('should report it on that question', () => {
      const text = judgeBundle(
        'prompt = "@message @files"\n[pipe.judge_message.questions.urgent]\nquestion = "Do {{ files }} ask for it?"',
        'message = "Text", files = "Document[]"',
        'Triage',
      );
      expect(runRule(judgeQuestionMedia, text).map((item) => item.field_path)).to.deep.equal([
        'pipe.judge_message.questions.urgent.question',
      ]);
    });
  });

  describe('when the media are in the prompt only', () => {
    it('should pass', () => {
      const text = judgeBundle(
        'prompt = "@message @photo"\nquestion = "Is it blurry?"',
        'message = "Text", photo = "Image"',
      );
      expect(runRule(judgeQuestionMedia, text)).to.deep.equal([]);
    });
  });
});
