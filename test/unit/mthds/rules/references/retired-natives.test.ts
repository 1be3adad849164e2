import { expect } from 'chai';
import { retiredNatives } from '../../../../../shared/mthds/rules/references/retired-natives.js';
import { bundle, runRule } from '../harness.js';

const TEXT = bundle(
  'posters',
  [
    '[pipe.imagine]\ntype = "PipeLLM"\ndescription = "d"\ninputs = { theme = "Text" }\noutput = "ImgGenPrompt"\nprompt = "A poster about $theme"',
    '[pipe.paint]\ntype = "PipeImgGen"\ndescription = "d"\ninputs = { idea = "native.ImgGenPrompt" }\noutput = "Image"\nprompt = "$idea"',
    '[pipe.plain]\ntype = "PipeLLM"\ndescription = "d"\ninputs = { theme = "Text" }\noutput = "Text"\nprompt = "About $theme"',
  ].join('\n'),
);

describe('S5-retired-natives', () => {
  describe('when pipes name ImgGenPrompt, in strict mode', () => {
    it('should refuse each reference with unresolved_concept and the native to use instead', () => {
      const items = runRule(retiredNatives, TEXT, 'strict');
      expect(items[0]).to.deep.equal({
        category: 'pipe_validation',
        message:
          "Pipe 'imagine', field 'output': the native 'ImgGenPrompt' was removed from the language; use 'Text' instead.",
        error_type: 'unresolved_concept',
        source: 'bundle-1.mthds',
        domain_code: 'posters',
        pipe_code: 'imagine',
        field_path: 'pipe.imagine.output',
        field_name: 'output',
        missing_concept_code: 'ImgGenPrompt',
      });
      expect(items.slice(1).map((item) => [item.pipe_code, item.field_path])).to.deep.equal([
        ['paint', 'pipe.paint.inputs.idea'],
      ]);
    });
  });

  describe('when the same bundle loads in compat mode (the 0.16-era legacy native)', () => {
    it('should pass', () => {
      expect(runRule(retiredNatives, TEXT, 'compat')).to.deep.equal([]);
    });
  });
});
