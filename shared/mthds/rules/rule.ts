/**
 * The shape of a static validation rule (STYLE.md rule 11): one rule per module, listed in order in `index.ts`.
 */
import type { ValidationErrorItem } from '../../errors/index.js';
import type { Pipe } from '../concept.js';
import type { Library, LoadedBundle } from '../library.js';

/** `strict`: the standard as written. `compat`: what published bundles rely on (LANGUAGE.md §2.2 ⚠, §5.6). */
export type ValidationMode = 'strict' | 'compat';

/** What every rule can read. */
export interface RuleContext {
  bundles: readonly LoadedBundle[];
  /** Built from the bundles; references that do not resolve are kept as written. */
  library: Library;
  mode: ValidationMode;
}

/** One rule. */
export interface Rule {
  /** Stable id, e.g. `S4-llm-prompt-variables`. */
  id: string;
  /** Stage of LANGUAGE.md §6 (`S2`, `S3`, `S4`, `S5`, `S5b`). */
  stage: 'S2' | 'S3' | 'S4' | 'S5' | 'S5b';
  severity: 'error' | 'warning';
  /** Where the rule is written down. */
  see: string;
  check(context: RuleContext): ValidationErrorItem[];
}

/**
 * The members every item about a pipe carries.
 * @param pipe - the pipe the item is about
 */
export function aboutPipe(pipe: Pipe): Pick<ValidationErrorItem, 'source' | 'pipe_code' | 'domain_code'> {
  return { source: pipe.source, pipe_code: pipe.code, domain_code: pipe.domain_code };
}

/**
 * The pipes of a library in declaration order.
 * @param context - the rule context
 */
export function pipesOf(context: RuleContext): Pipe[] {
  return [...context.library.pipes.values()];
}
