import { expect } from 'chai';
import { llmOutputNotImage } from '../../../../../shared/mthds/rules/pipes/llm-output-not-image.js';
import { bundle, runEach, runRule } from '../harness.js';

const llm = (output: string) =>
  bundle(
    'art',
    `[concept.Sketch]\ndescription = "A sketch"\nrefines = "Image"\n[pipe.draw]\ntype = "PipeLLM"\ndescription = "d"\noutput = "${output}"\nprompt = "Draw"`,
  );

describe('S4-llm-output-not-image', () => {
  describe('when a PipeLLM outputs an image or a refinement of it', () => {
    it('should report it', () => {
      expect(runRule(llmOutputNotImage, llm('Sketch[]'))).to.deep.equal([
        {
          category: 'pipe_validation',
          message: "Pipe 'draw': a PipeLLM cannot output an image ('Sketch[]'); generate images with a PipeImgGen.",
          error_type: 'llm_output_cannot_be_image',
          source: 'bundle-1.mthds',
          pipe_code: 'draw',
          domain_code: 'art',
          field_path: 'pipe.draw.output',
          field_name: 'output',
        },
      ]);
    });
  });

  describe('when it outputs text or an unresolved concept', () => {
    it('should pass', () => {
      expect(runEach(llmOutputNotImage, [llm('ImgGenPrompt'), llm('Missing')])).to.deep.equal([]);
    });
  });
});
