import { expect } from 'chai';
import { templateSyntax } from '../../../../../shared/mthds/rules/pipes/template-syntax.js';
import { bundle, runRule } from '../harness.js';

describe('S4-template-syntax', () => {
  describe('when a template does not parse or uses a filter its category forbids', () => {
    it('should report each template', () => {
      const text = bundle(
        'docs',
        [
          '[pipe.summarize]\ntype = "PipeLLM"\ndescription = "d"\ninputs = { text = "Text" }\noutput = "Text"\nprompt = "Summarize {{ text "',
          '[pipe.render]\ntype = "PipeCompose"\ndescription = "d"\ninputs = { text = "Text" }\noutput = "Text"\ntemplate = { template = "{{ text|with_images }}", category = "markdown" }',
        ].join('\n'),
      );
      const items = runRule(templateSyntax, text);
      expect(items.map((item) => [item.pipe_code, item.field_path, item.error_type, item.category])).to.deep.equal([
        ['summarize', 'pipe.summarize.prompt', 'invalid_template', 'blueprint_validation'],
        ['render', 'pipe.render.template.template', 'invalid_template', 'blueprint_validation'],
      ]);
      expect(items[0]?.message).to.match(/^Pipe 'summarize', field 'prompt': Template syntax error: /);
      expect(items[1]?.message).to.equal(
        "Pipe 'render', field 'template.template': Template syntax error: filter 'with_images' is not allowed in a markdown template (MTHDS filters allowed here: format, tag, escape_script_tag).",
      );
    });
  });

  describe('when templates are valid Jinja with shorthands', () => {
    it('should pass', () => {
      const text = bundle(
        'docs',
        '[pipe.join]\ntype = "PipeCompose"\ndescription = "d"\ninputs = { pages = "Page[]" }\noutput = "Text"\ntemplate = """{% for page in pages %}{{ page.text_and_images.text.text }}{% if not loop.last %}\\n{% endif %}{% endfor %} $pages."""',
      );
      expect(runRule(templateSyntax, text)).to.deep.equal([]);
    });
  });
});
