/**
 * S2: the bundle's `domain` is a valid domain code: snake_case segments joined by dots, no empty segment.
 * @see docs/bundle-format.md#naming, docs/rules.md#declarations-s2
 */
import { MESSAGES } from '../../messages.js';
import { DOMAIN_CODE } from '../../references.js';
import type { Rule } from '../rule.js';
import { bundleItem } from '../rule-item.js';

/** S2 domain code syntax (`invalid_domain_code`). */
export const domainCode: Rule = {
  id: 'S2-domain-code',
  stage: 'S2',
  severity: 'error',
  category: 'blueprint_validation',
  error_type: 'invalid_domain_code',
  see: 'docs/rules.md#s2-domain-code',
  check: ({ bundles }) =>
    bundles
      .filter(({ blueprint }) => !DOMAIN_CODE.test(blueprint.domain))
      .map((bundle) =>
        bundleItem(domainCode, bundle, MESSAGES.invalid_domain_code({ domain: bundle.blueprint.domain }), {
          field_path: 'domain',
          field_name: 'domain',
        }),
      ),
};
