import { expect } from 'chai';
import { optionalInputUnguarded } from '../../../../../shared/mthds/rules/pipes/optional-input-unguarded.js';
import { bundle, runRule } from '../harness.js';

const llm = (prompt: string, inputs = '{ topic = "Text", hint = "Text?" }') =>
  bundle(
    'brief',
    `[pipe.write]\ntype = "PipeLLM"\ndescription = "d"\ninputs = ${inputs}\noutput = "Text"\nprompt = ${JSON.stringify(prompt)}`,
  );

describe('S4-optional-input-unguarded', () => {
  describe('when every read of the optional input is guarded', () => {
    it('should pass', () => {
      for (const prompt of [
        'About $topic. @?hint',
        'About $topic.{% if hint %} Hint: $hint{% endif %}',
        'About $topic. {{ hint.text if hint else "no hint" }}',
      ])
        expect(runRule(optionalInputUnguarded, llm(prompt)), prompt).to.deep.equal([]);
    });
  });

  describe('when a PipeLLM prompt reads the optional input with $', () => {
    it('should refuse it with the template and the name', () => {
      expect(runRule(optionalInputUnguarded, llm('About $topic. Hint: $hint'))).to.deep.equal([
        {
          category: 'pipe_validation',
          message:
            "Pipe 'write', prompt: the optional input 'hint' is read without a guard. Write @?hint, or read it inside {% if hint %} … {% endif %} or '… if hint else …'.",
          error_type: 'optional_input_unguarded',
          source: 'bundle-1.mthds',
          pipe_code: 'write',
          domain_code: 'brief',
          field_path: 'pipe.write.prompt',
          field_name: 'prompt',
          variable_names: ['hint'],
        },
      ]);
    });
  });

  describe('when a PipeCondition expression and a PipeCompose construct read optional inputs unguarded', () => {
    it('should refuse each site', () => {
      const text = bundle(
        'brief',
        [
          '[pipe.route]\ntype = "PipeCondition"\ndescription = "d"\ninputs = { hint = "Text?" }\noutput = "Text?"\nexpression = "hint.text"\noutcomes = { a = "continue" }\ndefault_outcome = "continue"',
          '[pipe.card]\ntype = "PipeCompose"\ndescription = "d"\ninputs = { hint = "Text?" }\noutput = "Text"\n[pipe.card.construct]\ntext = { template = "{{ hint }}" }',
        ].join('\n\n'),
      );
      expect(runRule(optionalInputUnguarded, text).map((item) => [item.pipe_code, item.field_path])).to.deep.equal([
        ['route', 'pipe.route.expression'],
        ['card', 'pipe.card.construct.text'],
      ]);
    });
  });

  describe('when the input is plain or forced', () => {
    it('should not lint its reads', () => {
      expect(runRule(optionalInputUnguarded, llm('$topic $hint', '{ topic = "Text", hint = "Text!" }'))).to.deep.equal(
        [],
      );
    });
  });
});
