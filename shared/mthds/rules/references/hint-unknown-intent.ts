/**
 * S5 (warning): a hint's `intent` is one of the standard's words (`prose`, `label`, `rating`, `quantity`); another
 * word is ignored.
 * @see docs/concepts.md#hints
 */
import { MESSAGES } from '../../messages.js';
import type { Rule } from '../rule.js';
import { hintItem, hintSites, INTENT_WORDS, siteName } from './hint-sites.js';

/** S5 unknown intent words (`hint_unknown_intent`, warning). */
export const hintUnknownIntent: Rule = {
  id: 'S5-hint-unknown-intent',
  stage: 'S5',
  severity: 'warning',
  category: 'blueprint_validation',
  error_type: 'hint_unknown_intent',
  see: 'docs/rules.md#s5-hint-unknown-intent',
  check: (context) =>
    hintSites(context).flatMap((site) => {
      const word = site.hints['intent'];
      if (word === undefined || Object.hasOwn(INTENT_WORDS, word)) return [];
      const message = MESSAGES.hint_unknown_intent({ where: siteName(site), word, words: Object.keys(INTENT_WORDS) });
      return [hintItem(hintUnknownIntent, site, 'intent', message)];
    }),
};
