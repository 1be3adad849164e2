/**
 * The declared inputs a pipe's templates never read, for the S4 rules that refuse them (PipeLLM, PipeJudge).
 * @see docs/pipes.md#pipellm, docs/language.md#pipejudge
 */
import type { ValidationErrorItem } from '../../../errors/index.js';
import type { Pipe } from '../../library/concept.js';
import type { Rule } from '../rule.js';
import { declaredRoots, pipeField, pipeItem } from '../rule-item.js';
import { readTemplate, templateSites } from './template-sites.js';

/**
 * The item of a pipe some of whose declared inputs (by root name) none of its templates reads: located on `inputs`,
 * with the unused names sorted in `variable_names`. None when every input is read, or when a template is unreadable
 * (the template-syntax rule reports it).
 * @param rule - the rule the item belongs to
 * @param pipe - the pipe
 * @param message - the message for the unused names
 */
export function unusedInputsItems(
  rule: Rule,
  pipe: Pipe,
  message: (names: readonly string[]) => string,
): ValidationErrorItem[] {
  const used = new Set<string>();
  for (const site of templateSites(pipe)) {
    const read = readTemplate(site);
    if ('error' in read) return [];
    for (const root of read.roots) used.add(root);
  }
  const unused = declaredRoots(pipe)
    .filter((root) => !used.has(root))
    .sort();
  if (unused.length === 0) return [];
  return [pipeItem(rule, pipe, message(unused), { ...pipeField(pipe, 'inputs'), variable_names: unused })];
}
