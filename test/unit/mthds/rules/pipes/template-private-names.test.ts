import { expect } from 'chai';
import { privateNameReads } from '../../../../../shared/mthds/rules/pipes/template-private-names.js';
import { bundle, runRule } from '../harness.js';

const ALLOWED = '_stuff_name, _stuff_code, _concept_code, _content_class';

describe('S4-template-private-names', () => {
  describe('when a prompt reads a private attribute with a dot', () => {
    it('should report it as the reference does', () => {
      const text = bundle(
        'contracts',
        '[pipe.summarize]\ntype = "PipeLLM"\ndescription = "d"\ninputs = { contract = "Text" }\noutput = "Text"\nprompt = "Summarise {{ contract._stuff }} $contract"',
      );
      expect(runRule(privateNameReads, text)).to.deep.equal([
        {
          category: 'pipe_validation',
          message: `Pipe 'summarize': the prompt of pipe 'summarize' reads '_stuff', a name starting with an underscore; templates may read only an input's metadata fields (${ALLOWED}) and its content. Remove the read.`,
          error_type: 'template_private_name',
          source: 'bundle-1.mthds',
          pipe_code: 'summarize',
          domain_code: 'contracts',
          field_path: 'pipe.summarize.prompt',
          field_name: 'prompt',
        },
      ]);
    });
  });

  describe('when other templates and construct paths read private attributes', () => {
    it('should report each with the reference label of its template', () => {
      const text = bundle(
        'mix',
        [
          '[pipe.route]\ntype = "PipeCondition"\ndescription = "d"\ninputs = { verdict = "Text" }\noutput = "Text"\nexpression = "verdict._stuff.stuff_name"\noutcomes = { yes = "continue" }\ndefault_outcome = "continue"',
          '[pipe.draw]\ntype = "PipeImgGen"\ndescription = "d"\ninputs = { style = "Text" }\noutput = "Image"\nprompt = "a landscape like $style"\nnegative_prompt = "nothing like {{ style.__class__.__mro__ }}"',
          '[pipe.file]\ntype = "PipeCompose"\ndescription = "d"\ninputs = { note = "Text" }\noutput = "Text"',
          '[pipe.file.construct]\nfiled = { template = "{{ note._content }}" }\ndata = { from = "note.__class__.__init__" }',
        ].join('\n'),
      );
      expect(
        runRule(privateNameReads, text).map((item) => [item.field_path, item.message.split(';')[0]]),
      ).to.deep.equal([
        [
          'pipe.route.expression',
          "Pipe 'route': the expression of pipe 'route' reads '_stuff', a name starting with an underscore",
        ],
        [
          'pipe.draw.negative_prompt',
          "Pipe 'draw': the negative_prompt of pipe 'draw' reads '__class__', a name starting with an underscore",
        ],
        [
          'pipe.draw.negative_prompt',
          "Pipe 'draw': the negative_prompt of pipe 'draw' reads '__mro__', a name starting with an underscore",
        ],
        [
          'pipe.file.construct.filed',
          "Pipe 'file': the construct field 'filed' of pipe 'file' reads '_content', a name starting with an underscore",
        ],
        [
          'pipe.file.construct.data.from',
          "Pipe 'file': the construct field 'data' of pipe 'file' reads '__class__', a name starting with an underscore",
        ],
        [
          'pipe.file.construct.data.from',
          "Pipe 'file': the construct field 'data' of pipe 'file' reads '__init__', a name starting with an underscore",
        ],
      ]);
    });
  });

  describe('when templates read metadata fields, bracketed keys or run parameters', () => {
    it('should pass', () => {
      const text = bundle(
        'contracts',
        [
          '[pipe.summarize]\ntype = "PipeLLM"\ndescription = "d"\ninputs = { contract = "Text", record = "Text" }\noutput = "Text"',
          'prompt = "{{ contract._stuff_name }} {{ contract._content_class }} {{ contract._concept_code }} {{ contract._stuff_code }} {{ record[\'_id\'] }} {{ _nb_output }} $contract"',
        ].join('\n'),
      );
      expect(runRule(privateNameReads, text)).to.deep.equal([]);
    });
  });
});
