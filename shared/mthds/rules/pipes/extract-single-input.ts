/**
 * S4 PipeExtract: exactly one input (the Document or Image to extract).
 * @see docs/pipes.md#pipeextract, docs/rules.md#pipes-s4
 */
import { MESSAGES } from '../../messages.js';
import type { Rule } from '../rule.js';
import { pipeField, pipeItem, pipesOfType } from '../rule-item.js';

/** S4 PipeExtract single input (`invalid_pipe_field`). */
export const extractSingleInput: Rule = {
  id: 'S4-extract-single-input',
  stage: 'S4',
  severity: 'error',
  category: 'blueprint_validation',
  error_type: 'invalid_pipe_field',
  see: 'docs/rules.md#s4-extract-single-input',
  check: (context) =>
    pipesOfType(context, 'PipeExtract')
      .filter((pipe) => pipe.inputs.length !== 1)
      .map((pipe) =>
        pipeItem(
          extractSingleInput,
          pipe,
          MESSAGES.extract_one_input({ pipe: pipe.code, count: pipe.inputs.length }),
          pipeField(pipe, 'inputs'),
        ),
      ),
};
