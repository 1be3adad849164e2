/**
 * S5 (warning): a known `intent` word fits the value of its site — `prose` and `label` a text, `rating` and
 * `quantity` a number; anywhere else it is ignored.
 * @see docs/concepts.md#hints
 */
import { MESSAGES } from '../../messages.js';
import type { Rule } from '../rule.js';
import { hintItem, hintSites, INTENT_WORDS, siteName } from './hint-sites.js';

const KIND_WORDS = { text: 'text', number: 'number', other: 'structured or other' } as const;

/** S5 intent words that do not fit their site (`hint_inapplicable_intent`, warning). */
export const hintInapplicableIntent: Rule = {
  id: 'S5-hint-inapplicable-intent',
  stage: 'S5',
  severity: 'warning',
  category: 'blueprint_validation',
  error_type: 'hint_inapplicable_intent',
  see: 'docs/rules.md#s5-hint-inapplicable-intent',
  check: (context) =>
    hintSites(context).flatMap((site) => {
      const word = site.hints['intent'];
      if (word === undefined || !Object.hasOwn(INTENT_WORDS, word) || INTENT_WORDS[word] === site.kind) return [];
      const message = MESSAGES.hint_inapplicable_intent({ where: siteName(site), word, kind: KIND_WORDS[site.kind] });
      return [hintItem(hintInapplicableIntent, site, 'intent', message)];
    }),
};
