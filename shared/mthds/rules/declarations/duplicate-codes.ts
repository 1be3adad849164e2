/**
 * S2 (docs/rules.md for packages): bundles of one request that share a domain merge into one namespace, so a
 * concept or pipe code declared by two of them is an error (reported on the later declaration). A contract-only
 * signature and a concrete pipe of the same code reconcile when their `inputs` and `output` match, in either order
 * (docs/pipes.md#pipesignature); when they differ, the later one is reported with both contracts' difference named.
 * @see docs/bundle-format.md#domains, docs/namespaces.md#conflicts, docs/pipes.md#pipesignature
 */
import type { ValidationErrorItem } from '../../../errors/index.js';
import type { LoadedBundle } from '../../library/library.js';
import { sameContract } from '../../library/signature-reconciliation.js';
import { MESSAGES } from '../../messages.js';
import type { PipeBlueprint } from '../../parse/pipe-blueprints.js';
import type { Rule } from '../rule.js';
import { bundleItem } from '../rule-item.js';

/** The first signature and the first concrete declaration of a pipe code, with their sources. */
interface PipeDeclarations {
  signature?: { pipe: PipeBlueprint; source: string | null };
  concrete?: { pipe: PipeBlueprint; source: string | null };
}

/** The problem with a later declaration of a pipe code, or undefined when it is the first or reconciles. */
function pipeProblem(
  seen: PipeDeclarations,
  pipe: PipeBlueprint,
  ref: string,
  source: string | null,
): string | undefined {
  const slot = pipe.type === 'PipeSignature' ? 'signature' : 'concrete';
  const other = pipe.type === 'PipeSignature' ? seen.concrete : seen.signature;
  const same = seen[slot];
  seen[slot] ??= { pipe, source };
  if (same) return MESSAGES.duplicate_code({ kind: 'pipe', ref, first: same.source });
  if (other && !sameContract(other.pipe, pipe))
    return MESSAGES.signature_contract_mismatch({ ref, other: other.source });
  return undefined;
}

function pipeItems(bundle: LoadedBundle, declarations: Map<string, PipeDeclarations>): ValidationErrorItem[] {
  const { domain } = bundle.blueprint;
  return Object.entries(bundle.blueprint.pipe).flatMap(([code, pipe]) => {
    const ref = `${domain}.${code}`;
    const seen = declarations.get(ref) ?? {};
    declarations.set(ref, seen);
    const message = pipeProblem(seen, pipe, ref, bundle.source);
    if (message === undefined) return [];
    return [{ ...bundleItem(duplicateCodes, bundle, message, { field_path: `pipe.${code}` }), pipe_code: code }];
  });
}

/** S2 duplicate concept or pipe code in one domain (`duplicate_code`). */
export const duplicateCodes: Rule = {
  id: 'S2-duplicate-codes',
  stage: 'S2',
  severity: 'error',
  category: 'blueprint_validation',
  error_type: 'duplicate_code',
  see: 'docs/rules.md#s2-duplicate-codes',
  check: ({ bundles }) => {
    const items: ValidationErrorItem[] = [];
    const firstConcept = new Map<string, string | null>();
    const pipes = new Map<string, PipeDeclarations>();
    for (const bundle of bundles) {
      const { domain } = bundle.blueprint;
      for (const code of Object.keys(bundle.blueprint.concept)) {
        const ref = `${domain}.${code}`;
        if (!firstConcept.has(ref)) {
          firstConcept.set(ref, bundle.source);
          continue;
        }
        const message = MESSAGES.duplicate_code({ kind: 'concept', ref, first: firstConcept.get(ref) ?? null });
        items.push({
          ...bundleItem(duplicateCodes, bundle, message, { field_path: `concept.${code}` }),
          concept_code: code,
        });
      }
      items.push(...pipeItems(bundle, pipes));
    }
    return items;
  },
};
