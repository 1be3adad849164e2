/**
 * S2 (LANGUAGE.md §6 S7 for packages): bundles of one request that share a domain merge into one namespace, so a
 * concept or pipe code declared by two of them is an error (reported on the later declaration).
 * @see LANGUAGE.md §1.4, §5.5
 */
import type { ValidationErrorItem } from '../../../errors/index.js';
import { MESSAGES } from '../../messages.js';
import type { Rule } from '../rule.js';
import { bundleItem } from '../rule-item.js';

/** S2 duplicate concept or pipe code in one domain (`duplicate_code`). */
export const duplicateCodes: Rule = {
  id: 'S2-duplicate-codes',
  stage: 'S2',
  severity: 'error',
  category: 'blueprint_validation',
  error_type: 'duplicate_code',
  see: 'LANGUAGE.md §1.4, §5.5',
  check: ({ bundles }) => {
    const items: ValidationErrorItem[] = [];
    const firstSource = new Map<string, string | null>();
    for (const bundle of bundles) {
      const { domain } = bundle.blueprint;
      const declared: ['concept' | 'pipe', string][] = [
        ...Object.keys(bundle.blueprint.concept).map((code): ['concept', string] => ['concept', code]),
        ...Object.keys(bundle.blueprint.pipe).map((code): ['pipe', string] => ['pipe', code]),
      ];
      for (const [kind, code] of declared) {
        const key = `${kind}:${domain}.${code}`;
        if (!firstSource.has(key)) {
          firstSource.set(key, bundle.source);
          continue;
        }
        const message = MESSAGES.duplicate_code({
          kind,
          ref: `${domain}.${code}`,
          first: firstSource.get(key) ?? null,
        });
        const item = bundleItem(duplicateCodes, bundle, message, { field_path: `${kind}.${code}` });
        items.push(kind === 'pipe' ? { ...item, pipe_code: code } : { ...item, concept_code: code });
      }
    }
    return items;
  },
};
