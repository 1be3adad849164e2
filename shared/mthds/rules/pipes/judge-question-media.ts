/**
 * S4 PipeJudge: a question is plain text (`basic` templates), so it does not read an Image or Document input (or a
 * concept refining one); media belong in the prompt, where they become attachments.
 * @see docs/language.md#pipejudge
 */
import type { Concept } from '../../library/concept.js';
import type { Library } from '../../library/library.js';
import { MESSAGES } from '../../messages.js';
import type { Rule } from '../rule.js';
import { pipeField, pipeItem, pipesOfType } from '../rule-item.js';
import { readTemplate, templateSites } from './template-sites.js';

const MEDIA_NATIVES: ReadonlySet<string> = new Set(['native.Image', 'native.Document']);

function isMedia(library: Library, concept: Concept): boolean {
  return library.ancestry(concept).some((ancestor) => MEDIA_NATIVES.has(ancestor.ref));
}

/** S4 PipeJudge questions read no media (`input_stuff_spec_mismatch`). */
export const judgeQuestionMedia: Rule = {
  id: 'S4-judge-question-media',
  stage: 'S4',
  severity: 'error',
  category: 'pipe_validation',
  error_type: 'input_stuff_spec_mismatch',
  see: 'docs/rules.md#s4-judge-question-media',
  check: (context) =>
    pipesOfType(context, 'PipeJudge').flatMap((pipe) =>
      templateSites(pipe)
        .filter((site) => site.field !== 'prompt')
        .flatMap((site) => {
          const read = readTemplate(site);
          if ('error' in read) return [];
          return pipe.inputs
            .filter((input) => read.roots.includes(input.name))
            .filter((input) => {
              const concept = context.library.findConcept(input.conceptRef, pipe.domain_code);
              return concept !== undefined && isMedia(context.library, concept);
            })
            .map((input) =>
              pipeItem(
                judgeQuestionMedia,
                pipe,
                MESSAGES.judge_question_media({
                  pipe: pipe.code,
                  field: site.field,
                  input: input.name,
                  concept: input.raw,
                }),
                pipeField(pipe, site.field),
              ),
            );
        }),
    ),
};
