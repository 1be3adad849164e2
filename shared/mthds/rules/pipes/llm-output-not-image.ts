/**
 * S4 PipeLLM: the output is not an image (Image or a refinement of it); images come from a PipeImgGen.
 * @see docs/pipes.md#pipellm, docs/api.md#validation-items (`llm_output_cannot_be_image`)
 */
import { MESSAGES } from '../../messages.js';
import type { Rule } from '../rule.js';
import { pipeField, pipeItem, pipesOfType } from '../rule-item.js';
import { outputRefines } from './output-refines.js';

/** S4 PipeLLM output is not an image (`llm_output_cannot_be_image`). */
export const llmOutputNotImage: Rule = {
  id: 'S4-llm-output-not-image',
  stage: 'S4',
  severity: 'error',
  category: 'pipe_validation',
  error_type: 'llm_output_cannot_be_image',
  see: 'docs/rules.md#s4-llm-output-not-image',
  check: (context) =>
    pipesOfType(context, 'PipeLLM')
      .filter((pipe) => outputRefines(context.library, pipe, 'native.Image') === true)
      .map((pipe) =>
        pipeItem(
          llmOutputNotImage,
          pipe,
          MESSAGES.llm_output_image({ pipe: pipe.code, output: pipe.output.raw }),
          pipeField(pipe, 'output'),
        ),
      ),
};
