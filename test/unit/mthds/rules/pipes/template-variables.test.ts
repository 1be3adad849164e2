import { expect } from 'chai';
import { templateVariables } from '../../../../../shared/mthds/rules/pipes/template-variables.js';
import { bundle, runRule } from '../harness.js';

describe('S4-template-variables', () => {
  describe('when a PipeCompose template uses an undeclared variable', () => {
    it('should report it on its field', () => {
      const text = bundle(
        'reports',
        '[pipe.render]\ntype = "PipeCompose"\ndescription = "d"\ninputs = { structure = "Text" }\noutput = "Text"\ntemplate = "# $structure.title\\n@sections"',
      );
      expect(runRule(templateVariables, text)).to.deep.equal([
        {
          category: 'blueprint_validation',
          message:
            "Pipe 'render', field 'template': uses 'sections', which is not a declared input (declared: structure). Add it to inputs.",
          error_type: 'missing_input_variable',
          source: 'bundle-1.mthds',
          pipe_code: 'render',
          domain_code: 'reports',
          field_path: 'pipe.render.template',
          field_name: 'template',
          variable_names: ['sections'],
        },
      ]);
    });
  });

  describe('when construct fields, PipeImgGen, PipeSearch and PipeCondition templates use undeclared variables', () => {
    it('should report each field', () => {
      const text = bundle(
        'mix',
        [
          '[pipe.build]\ntype = "PipeCompose"\ndescription = "d"\ninputs = { a = "Text" }\noutput = "Text"',
          '[pipe.build.construct]\ntitle = { from = "missing_a.title" }\nbody = { template = "$a $missing_b" }\nnested = { deep = { from = "missing_c" } }',
          '[pipe.draw]\ntype = "PipeImgGen"\ndescription = "d"\noutput = "Image"\nprompt = "A $subject"',
          '[pipe.look]\ntype = "PipeSearch"\ndescription = "d"\noutput = "SearchResult"\nprompt = "News about $topic"',
          '[pipe.route]\ntype = "PipeCondition"\ndescription = "d"\noutput = "Text"\nexpression = "verdict.ok"\noutcomes = { True = "draw" }\ndefault_outcome = "fail"',
        ].join('\n'),
      );
      expect(
        runRule(templateVariables, text).map((item) => [item.pipe_code, item.field_path, item.variable_names]),
      ).to.deep.equal([
        ['build', 'pipe.build.construct.body', ['missing_b']],
        ['build', 'pipe.build.construct.title.from', ['missing_a']],
        ['build', 'pipe.build.construct.nested.deep.from', ['missing_c']],
        ['draw', 'pipe.draw.prompt', ['subject']],
        ['look', 'pipe.look.prompt', ['topic']],
        ['route', 'pipe.route.expression', ['verdict']],
      ]);
    });
  });

  describe('when the variables are inputs or extra_context keys', () => {
    it('should pass', () => {
      const text = bundle(
        'reports',
        [
          '[pipe.render]\ntype = "PipeCompose"\ndescription = "d"\ninputs = { structure = "Text" }\noutput = "Text"',
          '[pipe.render.template]\ntemplate = "# $structure.title by {{ author }}"\ncategory = "markdown"\nextra_context = { author = "Ada" }',
          '[pipe.route]\ntype = "PipeCondition"\ndescription = "d"\ninputs = { verdict = "Text" }\noutput = "Text"\nexpression_template = "{{ verdict.ok }}"\noutcomes = { True = "render" }\ndefault_outcome = "continue"',
        ].join('\n'),
      );
      expect(runRule(templateVariables, text)).to.deep.equal([]);
    });
  });

  describe('when templates test their inputs with `is defined`, `is none` and other Jinja tests', () => {
    it('should read the tested inputs only, never the test names', () => {
      const text = bundle(
        'reports',
        [
          '[pipe.render]\ntype = "PipeCompose"\ndescription = "d"\ninputs = { notes = "Text" }\noutput = "Text"',
          'template = "{% if notes is defined and notes is not none %}{{ notes }}{% endif %}"',
          '[pipe.route]\ntype = "PipeCondition"\ndescription = "d"\ninputs = { verdict = "Text" }\noutput = "Text"\nexpression = "verdict is defined"\noutcomes = { True = "render" }\ndefault_outcome = "continue"',
        ].join('\n'),
      );
      expect(runRule(templateVariables, text)).to.deep.equal([]);
    });
  });
});
