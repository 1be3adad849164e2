/**
 * S5 (warning): a `hints` table uses only the keys the standard defines (`intent`); another key is kept but means
 * nothing.
 * @see docs/concepts.md#hints
 */
import { MESSAGES } from '../../messages.js';
import type { Rule } from '../rule.js';
import { hintItem, hintSites, siteName } from './hint-sites.js';

/** S5 unknown hint keys (`hint_unknown_key`, warning). */
export const hintUnknownKey: Rule = {
  id: 'S5-hint-unknown-key',
  stage: 'S5',
  severity: 'warning',
  category: 'blueprint_validation',
  error_type: 'hint_unknown_key',
  see: 'docs/rules.md#s5-hint-unknown-key',
  check: (context) =>
    hintSites(context).flatMap((site) =>
      Object.keys(site.hints)
        .filter((key) => key !== 'intent')
        .sort()
        .map((key) => hintItem(hintUnknownKey, site, key, MESSAGES.hint_unknown_key({ where: siteName(site), key }))),
    ),
};
