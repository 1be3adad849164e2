/**
 * The `bundle_blueprint` member of a ValidReport (API-CONTRACT.md §4.3): the bundle as written, with `source`, and
 * absent header members as null.
 */
import type { LoadedBundle } from './library.js';

/**
 * Shape a bundle for the wire.
 * @param bundle - a loaded bundle
 * @returns `{source, domain, description, system_prompt, main_pipe, concept, pipe}`
 */
export function bundleBlueprintForWire(bundle: Pick<LoadedBundle, 'blueprint' | 'source'>): Record<string, unknown> {
  const { blueprint } = bundle;
  return {
    source: bundle.source,
    domain: blueprint.domain,
    description: blueprint.description ?? null,
    system_prompt: blueprint.system_prompt ?? null,
    main_pipe: blueprint.main_pipe ?? null,
    concept: blueprint.concept,
    pipe: blueprint.pipe,
  };
}
