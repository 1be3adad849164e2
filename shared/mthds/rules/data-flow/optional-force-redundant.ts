/**
 * S5b warning: a force marker (`X!`) that can never fire — every controller calling the pipe feeds that input a value
 * that is always present. A pipe no controller calls is not judged (a caller may run it directly).
 * @see docs/language.md#optionality-presence-markers-and-absences
 */
import type { ValidationErrorItem } from '../../../errors/index.js';
import type { Pipe } from '../../library/concept.js';
import { MESSAGES } from '../../messages.js';
import type { Rule } from '../rule.js';
import { pipeField, pipeItem } from '../rule-item.js';
import { presenceFlow } from './presence-flow.js';

/** S5b redundant `!` (`optional_force_redundant`, a warning). */
export const optionalForceRedundant: Rule = {
  id: 'S5b-optional-force-redundant',
  stage: 'S5b',
  severity: 'warning',
  category: 'pipe_validation',
  error_type: 'optional_force_redundant',
  see: 'docs/rules.md#s5b-optional-force-redundant',
  check: (context) => {
    const feeds = new Map<string, { pipe: Pipe; input: string; within: Set<string>; maybe: boolean }>();
    for (const [within, flow] of presenceFlow(context.library))
      for (const feed of flow.forceFeeds) {
        const key = `${feed.pipe.ref}\u0000${feed.input}`;
        const entry = feeds.get(key) ?? { pipe: feed.pipe, input: feed.input, within: new Set(), maybe: false };
        entry.within.add(within);
        entry.maybe ||= feed.origin !== undefined;
        feeds.set(key, entry);
      }
    const items: ValidationErrorItem[] = [];
    for (const { pipe, input, within, maybe } of feeds.values())
      if (!maybe)
        items.push(
          pipeItem(
            optionalForceRedundant,
            pipe,
            MESSAGES.optional_force_redundant({ pipe: pipe.code, input, within: [...within].sort().join(', ') }),
            { ...pipeField(pipe, `inputs.${input}`), variable_names: [input] },
          ),
        );
    return items;
  },
};
