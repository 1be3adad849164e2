/**
 * Why a concept reference written in some domain does not resolve (docs/namespaces.md#resolution-order), shared by the
 * S5 concept rules.
 * @see docs/namespaces.md#resolution-order, docs/namespaces.md#cross-package-references; spec §2.3
 */
import type { MthdsLibrary } from '../../library/mthds-library.js';
import { parseConceptRef, stripMultiplicity } from '../../references.js';
import type { ValidationMode } from '../rule.js';

/**
 * @param library - the library
 * @param ref - the reference as written
 * @param fromDomain - the domain it is written in
 * @param mode - `strict` refuses a bare code declared only in another domain; `compat` accepts it when one domain
 *   declares it (spec §2.3 rule 2)
 * @returns the reason, or undefined when it resolves, is malformed (the reference-syntax rule reports it) or is a
 *   cross-package reference to a package that is not loaded (deferred, docs/namespaces.md#cross-package-references)
 */
export function conceptRefProblem(
  library: MthdsLibrary,
  ref: string,
  fromDomain: string,
  mode: ValidationMode,
): string | undefined {
  const parts = parseConceptRef(ref);
  if (!parts) return undefined;
  const lookup = library.lookupConcept(ref, fromDomain);
  if ('missing' in lookup) {
    if (parts.packageRef !== undefined) return undefined;
    const where =
      parts.domain === undefined
        ? 'is neither native nor declared by a loaded bundle'
        : `is not declared in domain '${parts.domain}'`;
    return `concept '${stripMultiplicity(ref)}' ${where}`;
  }
  if ('ambiguous' in lookup) {
    return `concept '${parts.code}' is declared in several domains; write ${lookup.ambiguous.map((concept) => `'${concept.ref}'`).join(' or ')}`;
  }
  const concept = lookup.found;
  if (mode === 'strict' && parts.domain === undefined && !concept.isNative && concept.domain_code !== fromDomain) {
    return `concept '${parts.code}' is declared in domain '${concept.domain_code}'; write '${concept.ref}' (bare codes resolve in their own domain only)`;
  }
  return undefined;
}
