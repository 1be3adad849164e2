/**
 * Multiplicity resolution, shared by PipeLLM and sub-pipe steps (docs/runtime.md#multiplicity,
 * docs/data-flow.md#multiplicity-overrides).
 */
import type { Multiplicity } from '../mthds/index.js';

/**
 * Combine a pipe's declared output multiplicity with an override.
 * @param base - from the declared output: `X` single, `X[]` variable, `X[N]` N
 * @param override - int N → exactly N; `true` → keep a base N, else variable; `false` → single; null → base
 * @returns the effective multiplicity
 */
export function resolveMultiplicity(base: Multiplicity, override: boolean | number | null): Multiplicity {
  if (override === null) return base;
  if (typeof override === 'number') return override;
  if (override) return typeof base === 'number' ? base : 'variable';
  return 'single';
}

/**
 * The override a sub-pipe step asks for.
 * @param step - the step's `nb_output` and `multiple_output`
 * @returns N, true, or null when the step sets neither
 */
export function stepMultiplicityOverride(step: {
  nb_output?: number;
  multiple_output?: boolean;
}): boolean | number | null {
  if (typeof step.nb_output === 'number') return step.nb_output;
  if (typeof step.multiple_output === 'boolean') return step.multiple_output;
  return null;
}
