/**
 * S2: the bundle's `domain` is a valid domain code whose first segment is not reserved (`native`, `mthds`,
 * `pipelex`). LANGUAGE.md §1.3–1.4.
 */
import { DOMAIN_CODE } from '../references.js';
import type { Rule } from './rule.js';

const RESERVED = new Set(['native', 'mthds', 'pipelex']);

export const domainCode: Rule = {
  id: 'S2-domain-code',
  stage: 'S2',
  severity: 'error',
  see: 'LANGUAGE.md §1.3–1.4',
  check: ({ bundles }) =>
    bundles.flatMap(({ blueprint, source }) => {
      const domain = blueprint.domain;
      const about = { source, domain_code: domain, field_path: 'domain', field_name: 'domain' };
      if (!DOMAIN_CODE.test(domain)) {
        return [{ category: 'blueprint_validation' as const, message: `domain '${domain}' is not a valid domain code (snake_case segments joined by dots, e.g. legal.contracts).`, error_type: 'invalid_domain_code', ...about }];
      }
      const first = domain.split('.')[0]!;
      if (RESERVED.has(first)) {
        return [{ category: 'blueprint_validation' as const, message: `domain '${domain}' starts with the reserved segment '${first}' (reserved: ${[...RESERVED].join(', ')}).`, error_type: 'reserved_domain', ...about }];
      }
      return [];
    }),
};
