import { expect } from 'chai';
import { templateBudget } from '../../../../../shared/mthds/rules/pipes/template-budget.js';
import { bundle, runRule } from '../harness.js';

describe('S4-template-budget', () => {
  describe('when a template gives a growing builtin a literal size over the output budget', () => {
    it('should report each call, positioned on its field', () => {
      const text = bundle(
        'docs',
        [
          '[pipe.pad]\ntype = "PipeCompose"\ndescription = "d"\ninputs = { name = "Text" }\noutput = "Text"\ntemplate = "{{ name | center(1000000000) | length }}"',
          '[pipe.ask]\ntype = "PipeLLM"\ndescription = "d"\ninputs = { name = "Text" }\noutput = "Text"\nprompt = "{{ name|indent(20000000) }} {% for b in [1]|slice(1000000000) %}{% endfor %} {{ [1]|batch(5000000) }}"',
        ].join('\n'),
      );
      const items = runRule(templateBudget, text);
      expect(items.map((item) => [item.pipe_code, item.field_path, item.error_type, item.category])).to.deep.equal([
        ['pad', 'pipe.pad.template', 'invalid_template', 'blueprint_validation'],
        ['ask', 'pipe.ask.prompt', 'invalid_template', 'blueprint_validation'],
        ['ask', 'pipe.ask.prompt', 'invalid_template', 'blueprint_validation'],
        ['ask', 'pipe.ask.prompt', 'invalid_template', 'blueprint_validation'],
      ]);
      expect(items.map((item) => item.message)).to.deep.equal([
        "Pipe 'pad', field 'template': Template budget: center(1000000000) would render more than TEMPLATE_MAX_OUTPUT_KIB (1024 KiB) allows.",
        "Pipe 'ask', field 'prompt': Template budget: indent(20000000) would render more than TEMPLATE_MAX_OUTPUT_KIB (1024 KiB) allows.",
        "Pipe 'ask', field 'prompt': Template budget: slice(1000000000) would render more than TEMPLATE_MAX_OUTPUT_KIB (1024 KiB) allows.",
        "Pipe 'ask', field 'prompt': Template budget: batch(5000000) would render more than TEMPLATE_MAX_OUTPUT_KIB (1024 KiB) allows.",
      ]);
    });
  });

  describe('when sizes are within the budget, computed, or the template does not parse', () => {
    it("should pass (a broken template is S4-template-syntax's to report)", () => {
      const text = bundle(
        'docs',
        [
          '[pipe.pad]\ntype = "PipeCompose"\ndescription = "d"\ninputs = { name = "Text" }\noutput = "Text"\ntemplate = "{{ name | center(80) }}{{ name | indent(4) }}{{ name | center(name|length) }}"',
          '[pipe.broken]\ntype = "PipeCompose"\ndescription = "d"\ninputs = { name = "Text" }\noutput = "Text"\ntemplate = "{{ name | center(1000000000) "',
        ].join('\n'),
      );
      expect(runRule(templateBudget, text)).to.deep.equal([]);
    });
  });
});
