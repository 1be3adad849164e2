/**
 * The bundle that declares a concept (the first one, when a duplicate was declared).
 * @see docs/bundle-format.md#domains
 */
import type { Concept } from '../../library/concept.js';
import type { LoadedBundle } from '../../library/library.js';

/**
 * @param bundles - the bundles
 * @param concept - a declared (non-native) concept
 * @returns the declaring bundle, or undefined for a native
 */
export function declaringBundle(bundles: readonly LoadedBundle[], concept: Concept): LoadedBundle | undefined {
  return bundles.find(
    (bundle) =>
      bundle.blueprint.domain === concept.domain_code && Object.hasOwn(bundle.blueprint.concept, concept.code),
  );
}
