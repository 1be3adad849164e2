/**
 * S5: every pipe reference resolves (LANGUAGE.md §5.3; the reference's "dependency pipe not found"): sequence steps,
 * parallel branches, condition outcomes and default outcome (except `fail` / `continue`), batch branch pipes.
 * Cross-package references are deferred. Compat mode accepts a bare code unique across the library (§5.6).
 */
import type { ValidationErrorItem } from '../../errors/index.js';
import type { Pipe } from '../concept.js';
import { parsePipeRef, SPECIAL_OUTCOMES } from '../references.js';
import { aboutPipe, pipesOf, type Rule } from './rule.js';

/**
 * The pipe references of a pipe, with the field each sits in.
 * @param pipe - any pipe
 */
export function pipeRefsOf(pipe: Pipe): [string, string][] {
  const blueprint = pipe.blueprint;
  switch (blueprint.type) {
    case 'PipeSequence':
      return blueprint.steps.map((step, index): [string, string] => [`steps[${index}].pipe`, step.pipe]);
    case 'PipeParallel':
      return blueprint.branches.map((branch, index): [string, string] => [`branches[${index}].pipe`, branch.pipe]);
    case 'PipeCondition':
      return [
        ...Object.entries(blueprint.outcomes).map(([key, ref]): [string, string] => [`outcomes.${key}`, ref]),
        ['default_outcome', blueprint.default_outcome] as [string, string],
      ].filter(([, ref]) => !SPECIAL_OUTCOMES.has(ref));
    case 'PipeBatch':
      return [['branch_pipe_code', blueprint.branch_pipe_code]];
    default:
      return [];
  }
}

export const unresolvedPipes: Rule = {
  id: 'S5-unresolved-pipes',
  stage: 'S5',
  severity: 'error',
  see: 'LANGUAGE.md §5.3',
  check: (context) => {
    const items: ValidationErrorItem[] = [];
    for (const pipe of pipesOf(context)) {
      for (const [field, ref] of pipeRefsOf(pipe)) {
        const parts = parsePipeRef(ref);
        if (parts?.packageRef !== undefined) continue;
        const found = parts ? context.library.findPipe(ref, pipe.domain_code) : undefined;
        const crossDomainBare = found && parts?.domain === undefined && found.domain_code !== pipe.domain_code;
        if (found && !(context.mode === 'strict' && crossDomainBare)) continue;
        const reason = !parts
          ? `'${ref}' is not a pipe reference (expected snake_case pipe_code or domain.pipe_code)`
          : found
            ? `pipe '${ref}' is in domain '${found.domain_code}'; write ${found.ref}`
            : `pipe '${ref}' is not defined`;
        items.push({
          category: 'pipe_validation',
          message: `Pipe '${pipe.code}', ${field}: ${reason}.`,
          error_type: 'unresolved_pipe_dependency',
          ...aboutPipe(pipe),
          missing_pipe_code: ref,
          field_path: `pipe.${pipe.code}.${field}`,
        });
      }
    }
    return items;
  },
};
