/**
 * S2: the first segment of the bundle's domain is not reserved (`native`, `mthds`, `pipelex`), whether or not the
 * bundle
 * is part of a package.
 * @see docs/bundle-format.md#domains, docs/rules.md#declarations-s2
 */
import { MESSAGES } from '../../messages.js';
import type { Rule } from '../rule.js';
import { bundleItem } from '../rule-item.js';

/** The reserved first segments of a domain code. */
const RESERVED_DOMAIN_SEGMENTS: readonly string[] = ['native', 'mthds', 'pipelex'];

/** S2 reserved domain (`reserved_domain`). */
export const reservedDomain: Rule = {
  id: 'S2-reserved-domain',
  stage: 'S2',
  severity: 'error',
  category: 'blueprint_validation',
  error_type: 'reserved_domain',
  see: 'docs/rules.md#s2-reserved-domain',
  check: ({ bundles }) =>
    bundles.flatMap((bundle) => {
      const segment = bundle.blueprint.domain.split('.')[0] ?? '';
      if (!RESERVED_DOMAIN_SEGMENTS.includes(segment)) return [];
      const message = MESSAGES.reserved_domain({
        domain: bundle.blueprint.domain,
        segment,
        reserved: RESERVED_DOMAIN_SEGMENTS,
      });
      return [bundleItem(reservedDomain, bundle, message, { field_path: 'domain', field_name: 'domain' })];
    }),
};
