import { expect } from 'chai';
import { inputNameCasing } from '../../../../../shared/mthds/rules/declarations/input-name-casing.js';
import { bundle, runRule } from '../harness.js';

const pipe = (inputs: string) =>
  `[pipe.p]\ntype = "PipeFunc"\ndescription = "d"\ninputs = ${inputs}\noutput = "Text"\nfunction_name = "f"`;

describe('S2-input-name-casing', () => {
  describe('when an input name is not snake_case', () => {
    it('should report it with a suggestion', () => {
      expect(runRule(inputNameCasing, bundle('docs', pipe('{ CvText = "Text" }')))).to.deep.equal([
        {
          category: 'blueprint_validation',
          message:
            "Pipe 'p': input name 'CvText' must be snake_case (dotted snake_case segments allowed), e.g. 'cv_text'.",
          error_type: 'invalid_input_name',
          source: 'bundle-1.mthds',
          domain_code: 'docs',
          field_path: 'pipe.p.inputs.CvText',
          field_name: 'CvText',
          pipe_code: 'p',
        },
      ]);
    });
  });

  describe('when input names are snake_case, dotted or not', () => {
    it('should pass', () => {
      expect(
        runRule(inputNameCasing, bundle('docs', pipe('{ cv_text = "Text", "page_content.page_view" = "Image" }'))),
      ).to.deep.equal([]);
    });
  });
});
