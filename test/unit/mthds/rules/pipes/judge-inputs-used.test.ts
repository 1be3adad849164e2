import { expect } from 'chai';
import { judgeInputsUsed } from '../../../../../shared/mthds/rules/pipes/judge-inputs-used.js';
import { templateVariables } from '../../../../../shared/mthds/rules/pipes/template-variables.js';
import { runRule } from '../harness.js';
import { judgeBundle } from './judge-bundles.js';

describe('S4-judge-inputs-used', () => {
  describe('when an input is read neither by the prompt nor by a question', () => {
    it('should report it', () => {
      const text = judgeBundle('prompt = "@message"\nquestion = "Urgent?"', 'message = "Text", sender = "Text"');
      expect(runRule(judgeInputsUsed, text)).to.deep.equal([
        {
          category: 'blueprint_validation',
          message: "Pipe 'judge_message': input 'sender' is declared but used neither in the prompt nor in a question.",
          error_type: 'extraneous_input_variable',
          source: 'bundle-1.mthds',
          pipe_code: 'judge_message',
          domain_code: 'inbox',
          field_path: 'pipe.judge_message.inputs',
          field_name: 'inputs',
          variable_names: ['sender'],
        },
      ]);
    });
  });

  describe('when an input is read by a question only', () => {
    it('should pass', () => {
      const text = judgeBundle(
        'prompt = "@message"\nquestion = "Is $sender a customer?"',
        'message = "Text", sender = "Text"',
      );
      expect(runRule(judgeInputsUsed, text)).to.deep.equal([]);
    });
  });

  describe('when a question reads an undeclared variable', () => {
    it('should be reported by S4-template-variables as missing_input_variable', () => {
      const text = judgeBundle(
        `prompt = "@message"\n[pipe.judge_message.questions.urgent]\nquestion = "Urgent for $team?"`,
        undefined,
        'Triage',
      );
      expect(runRule(templateVariables, text)).to.deep.equal([
        {
          category: 'blueprint_validation',
          message:
            "Pipe 'judge_message', field 'questions.urgent.question': uses 'team', which is not a declared input (declared: message). Add it to inputs.",
          error_type: 'missing_input_variable',
          source: 'bundle-1.mthds',
          pipe_code: 'judge_message',
          domain_code: 'inbox',
          field_path: 'pipe.judge_message.questions.urgent.question',
          field_name: 'question',
          variable_names: ['team'],
        },
      ]);
    });
  });
});
