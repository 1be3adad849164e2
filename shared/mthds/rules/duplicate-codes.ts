/**
 * S7: bundles of one request sharing a domain merge; a concept or pipe code declared by two of them is an error
 * (LANGUAGE.md §1.4, §5.5).
 */
import type { ValidationErrorItem } from '../../errors/index.js';
import type { Rule } from './rule.js';

export const duplicateCodes: Rule = {
  id: 'S7-duplicate-codes',
  stage: 'S2',
  severity: 'error',
  see: 'LANGUAGE.md §5.5',
  check: ({ bundles }) => {
    const items: ValidationErrorItem[] = [];
    const seen = new Map<string, string | null>();
    for (const { blueprint, source } of bundles) {
      const entries: [string, 'concept' | 'pipe'][] = [
        ...Object.keys(blueprint.concept).map((code): [string, 'concept'] => [code, 'concept']),
        ...Object.keys(blueprint.pipe).map((code): [string, 'pipe'] => [code, 'pipe']),
      ];
      for (const [code, kind] of entries) {
        const key = `${kind}:${blueprint.domain}.${code}`;
        if (!seen.has(key)) {
          seen.set(key, source);
          continue;
        }
        const first = seen.get(key);
        items.push({
          category: 'blueprint_validation',
          message: `${kind === 'pipe' ? 'Pipe' : 'Concept'} '${blueprint.domain}.${code}' is declared twice${first ? ` (first in ${first})` : ''}; bundles of one domain share one namespace.`,
          error_type: 'duplicate_code',
          source,
          domain_code: blueprint.domain,
          ...(kind === 'pipe' ? { pipe_code: code } : { concept_code: code }),
          field_path: `${kind}.${code}`,
        });
      }
    }
    return items;
  },
};
