import { expect } from 'chai';
import { imgGenQualitySteps } from '../../../../../shared/mthds/rules/pipes/img-gen-quality-steps.js';
import { bundle, runEach, runRule } from '../harness.js';

const img = (model: string) =>
  bundle(
    'art',
    `[pipe.draw]\ntype = "PipeImgGen"\ndescription = "d"\noutput = "Image"\nprompt = "A cat"\nmodel = ${model}`,
  );

describe('S4-img-gen-quality-steps', () => {
  describe('when an inline setting sets quality and nb_steps', () => {
    it('should report it', () => {
      expect(runRule(imgGenQualitySteps, img('{ model = "flux", quality = "high", nb_steps = 30 }'))).to.deep.equal([
        {
          category: 'blueprint_validation',
          message: "Pipe 'draw', field 'model': set quality or nb_steps, not both.",
          error_type: 'invalid_pipe_field',
          source: 'bundle-1.mthds',
          pipe_code: 'draw',
          domain_code: 'art',
          field_path: 'pipe.draw.model',
          field_name: 'model',
        },
      ]);
    });
  });

  describe('when one is set, or the model is a handle', () => {
    it('should pass', () => {
      expect(
        runEach(imgGenQualitySteps, [img('{ model = "flux", nb_steps = 30 }'), img('"nano-banana-2"')]),
      ).to.deep.equal([]);
    });
  });
});
