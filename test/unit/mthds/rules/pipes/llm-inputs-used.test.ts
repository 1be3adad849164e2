import { expect } from 'chai';
import { llmInputsUsed } from '../../../../../shared/mthds/rules/pipes/llm-inputs-used.js';
import { bundle, runRule } from '../harness.js';

const llm = (inputs: string, prompts: string) =>
  bundle(
    'travel',
    `[pipe.greet]\ntype = "PipeLLM"\ndescription = "d"\ninputs = ${inputs}\noutput = "Text"\n${prompts}`,
  );

describe('S4-llm-inputs-used', () => {
  describe('when a declared input is used by no prompt', () => {
    it('should report the unused inputs', () => {
      expect(
        runRule(llmInputsUsed, llm('{ name = "Text", photo = "Image", city = "Text" }', 'prompt = "Greet $name"')),
      ).to.deep.equal([
        {
          category: 'blueprint_validation',
          message:
            "Pipe 'greet': inputs 'city', 'photo' are declared but used neither in prompt nor in system_prompt. Reference them (e.g. $city or @city) or remove them from inputs.",
          error_type: 'extraneous_input_variable',
          source: 'bundle-1.mthds',
          pipe_code: 'greet',
          domain_code: 'travel',
          field_path: 'pipe.greet.inputs',
          field_name: 'inputs',
          variable_names: ['city', 'photo'],
        },
      ]);
    });
  });

  describe('when every input is used in prompt or system_prompt (attachments included)', () => {
    it('should pass', () => {
      expect(
        runRule(
          llmInputsUsed,
          llm(
            '{ name = "Text", photo = "Image", "page.page_view" = "Image" }',
            'prompt = "Greet $name, see $photo"\nsystem_prompt = "Use {{ page.page_view }}"',
          ),
        ),
      ).to.deep.equal([]);
    });
  });

  describe('when a template is unreadable', () => {
    it('should leave it to the template-syntax rule', () => {
      expect(runRule(llmInputsUsed, llm('{ name = "Text" }', 'prompt = "{% if %}"'))).to.deep.equal([]);
    });
  });
});
