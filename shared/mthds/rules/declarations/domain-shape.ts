/**
 * S2 (warning): a domain code has 1–3 segments of 1–4 words each (words are separated by `_`).
 * @see docs/bundle-format.md#domains, docs/rules.md#declarations-s2
 */
import { MESSAGES } from '../../messages.js';
import { DOMAIN_CODE } from '../../references.js';
import type { Rule } from '../rule.js';
import { bundleItem } from '../rule-item.js';

const MAX_SEGMENTS = 3;
const MAX_WORDS = 4;

/** S2 domain depth and segment length (warning, `invalid_domain_code`). */
export const domainShape: Rule = {
  id: 'S2-domain-shape',
  stage: 'S2',
  severity: 'warning',
  category: 'blueprint_validation',
  error_type: 'invalid_domain_code',
  see: 'docs/rules.md#s2-domain-shape',
  check: ({ bundles }) =>
    bundles.flatMap((bundle) => {
      const { domain } = bundle.blueprint;
      if (!DOMAIN_CODE.test(domain)) return [];
      const segments = domain.split('.');
      const longest = segments.reduce(
        (best, segment) => (segment.split('_').length > best.split('_').length ? segment : best),
        '',
      );
      if (segments.length <= MAX_SEGMENTS && longest.split('_').length <= MAX_WORDS) return [];
      return [
        bundleItem(domainShape, bundle, MESSAGES.domain_shape({ domain, depth: segments.length, longest }), {
          field_path: 'domain',
          field_name: 'domain',
        }),
      ];
    }),
};
