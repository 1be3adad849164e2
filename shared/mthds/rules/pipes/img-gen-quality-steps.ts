/**
 * S4 PipeImgGen: an inline image-generation setting does not set both `quality` and `nb_steps`.
 * @see docs/pipes.md#pipeimggen, docs/rules.md#pipes-s4
 */
import { MESSAGES } from '../../messages.js';
import type { Rule } from '../rule.js';
import { pipeField, pipeItem, pipesOfType } from '../rule-item.js';

/** S4 PipeImgGen quality and nb_steps are exclusive (`invalid_pipe_field`). */
export const imgGenQualitySteps: Rule = {
  id: 'S4-img-gen-quality-steps',
  stage: 'S4',
  severity: 'error',
  category: 'blueprint_validation',
  error_type: 'invalid_pipe_field',
  see: 'docs/rules.md#s4-img-gen-quality-steps',
  check: (context) =>
    pipesOfType(context, 'PipeImgGen')
      .filter((pipe) => {
        const setting = pipe.blueprint.model;
        return (
          typeof setting === 'object' &&
          'quality' in setting &&
          setting.quality !== undefined &&
          setting.nb_steps !== undefined
        );
      })
      .map((pipe) =>
        pipeItem(
          imgGenQualitySteps,
          pipe,
          MESSAGES.img_gen_quality_steps({ pipe: pipe.code }),
          pipeField(pipe, 'model'),
        ),
      ),
};
