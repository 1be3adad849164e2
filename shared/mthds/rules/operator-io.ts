/**
 * S4 operator I/O: PipeExtract takes exactly one input and outputs `Page[]`; PipeSearch outputs SearchResult (or a
 * refinement); PipeCompose sets exactly one of `template` / `construct` and has a single output; PipeLLM cannot output
 * an image (LANGUAGE.md §3.2, §3.5–3.7).
 */
import type { ValidationErrorItem } from '../../errors/index.js';
import type { Pipe } from '../concept.js';
import type { Library } from '../library.js';
import { pipeFieldItem } from './field-item.js';
import { pipesOf, type Rule } from './rule.js';

function outputRefines(library: Library, pipe: Pipe, nativeRef: string): boolean | undefined {
  const found = library.findConcept(pipe.output.conceptRef, pipe.domain_code);
  if (!found || 'ambiguous' in found) return undefined;
  return library.ancestry(found).some((concept) => concept.ref === nativeRef);
}

export const operatorIO: Rule = {
  id: 'S4-operator-io',
  stage: 'S4',
  severity: 'error',
  see: 'LANGUAGE.md §3.2, §3.5–3.7',
  check: (context) => {
    const items: ValidationErrorItem[] = [];
    for (const pipe of pipesOf(context)) {
      switch (pipe.blueprint.type) {
        case 'PipeExtract':
          if (pipe.inputs.length !== 1) items.push(pipeFieldItem(pipe, 'inputs', `a PipeExtract takes exactly one input (a Document or Image), not ${pipe.inputs.length}.`));
          if (pipe.output.multiplicity !== 'variable' || outputRefines(context.library, pipe, 'native.Page') === false) {
            items.push(pipeFieldItem(pipe, 'output', `a PipeExtract outputs "Page[]", not "${pipe.output.raw}".`, 'inadequate_output_concept'));
          }
          break;
        case 'PipeSearch':
          if (outputRefines(context.library, pipe, 'native.SearchResult') === false) {
            items.push(pipeFieldItem(pipe, 'output', `a PipeSearch outputs SearchResult (or a concept refining it), not "${pipe.output.raw}".`, 'inadequate_output_concept'));
          }
          break;
        case 'PipeCompose':
          if ((pipe.blueprint.template === undefined) === (pipe.blueprint.construct === undefined)) {
            items.push(pipeFieldItem(pipe, 'template', 'set exactly one of template and construct.'));
          }
          if (pipe.output.multiplicity !== 'single') items.push(pipeFieldItem(pipe, 'output', 'a PipeCompose has a single output (no [] or [N]).', 'inadequate_output_multiplicity'));
          break;
        case 'PipeLLM':
          if (outputRefines(context.library, pipe, 'native.Image') === true) {
            items.push(pipeFieldItem(pipe, 'output', 'a PipeLLM cannot output an image; use a PipeImgGen.', 'llm_output_cannot_be_image'));
          }
          break;
        default:
          break;
      }
    }
    return items;
  },
};
