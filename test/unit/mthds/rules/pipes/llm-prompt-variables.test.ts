import { expect } from 'chai';
import { llmPromptVariables } from '../../../../../shared/mthds/rules/pipes/llm-prompt-variables.js';
import { bundle, runRule } from '../harness.js';

const llm = (inputs: string, prompts: string) =>
  bundle(
    'travel',
    `[pipe.greet]\ntype = "PipeLLM"\ndescription = "d"\ninputs = ${inputs}\noutput = "Text"\n${prompts}`,
  );

describe('S4-llm-prompt-variables', () => {
  describe('when the prompt uses an undeclared variable', () => {
    it('should report it by root name', () => {
      expect(
        runRule(llmPromptVariables, llm('{ name = "Text" }', 'prompt = "Greet $name from $city.name"')),
      ).to.deep.equal([
        {
          category: 'blueprint_validation',
          message:
            "Pipe 'greet': the prompt uses 'city', which is not a declared input (declared: name). Add it to inputs or remove it from the prompt.",
          error_type: 'missing_input_variable',
          source: 'bundle-1.mthds',
          pipe_code: 'greet',
          domain_code: 'travel',
          field_path: 'pipe.greet.prompt',
          field_name: 'prompt',
          variable_names: ['city'],
        },
      ]);
    });

    it('should read `x is defined` as a use of x, not of an input named defined', () => {
      expect(
        runRule(
          llmPromptVariables,
          llm(
            '{ name = "Text" }',
            'prompt = "{% if name is defined %}Greet $name{% endif %}{% if city is defined %}!{% endif %}"',
          ),
        ).map((item) => item.variable_names),
      ).to.deep.equal([['city']]);
    });

    it('should report the system prompt on its own field', () => {
      const items = runRule(
        llmPromptVariables,
        llm('{ name = "Text" }', 'prompt = "Greet $name"\nsystem_prompt = "You speak {{ language }} and {{ tone }}"'),
      );
      expect(items.map((item) => [item.field_path, item.variable_names])).to.deep.equal([
        ['pipe.greet.system_prompt', ['language', 'tone']],
      ]);
    });
  });

  describe('when variables are declared, dotted or exempt', () => {
    it('should pass', () => {
      const prompts =
        'prompt = "Describe $page.page_view and @doc with {{ _nb_output }} items, {{ preliminary_text }} {{ place_holder }}"';
      expect(
        runRule(llmPromptVariables, llm('{ "page.page_view" = "Image", doc = "Document" }', prompts)),
      ).to.deep.equal([]);
    });
  });
});
