/**
 * S5: every pipe reference resolves (the reference's "dependency pipe not found"): steps, branches, outcomes, default
 * outcome (`fail` / `continue` excepted), batch branch pipe. A bare code resolves in its own domain; compat mode also
 * accepts the one pipe of that code elsewhere in the library (docs/namespaces.md#cross-package-references), strict mode
 * asks for `domain.code`.
 * A cross-package reference whose domain is loaded must name one of its pipes; one to a package that is not loaded is
 * `S5-package-refs`'s.
 * @see docs/namespaces.md#where-references-occur, docs/namespaces.md#resolution-order,
 * docs/namespaces.md#cross-package-references, docs/rules.md#references-s5
 */
import { MESSAGES } from '../../messages.js';
import { parsePipeRef } from '../../references.js';
import type { Rule } from '../rule.js';
import { pipeField, pipeItem, pipesOf } from '../rule-item.js';
import { pipeRefsOf } from './references-of.js';

/** S5 pipe references resolve (`unresolved_pipe_dependency`). */
export const pipeRefs: Rule = {
  id: 'S5-pipe-refs',
  stage: 'S5',
  severity: 'error',
  category: 'pipe_validation',
  error_type: 'unresolved_pipe_dependency',
  see: 'docs/rules.md#s5-pipe-refs',
  check: (context) =>
    pipesOf(context).flatMap((pipe) =>
      pipeRefsOf(pipe).flatMap(({ field, ref }) => {
        const parts = parsePipeRef(ref);
        if (!parts) return [];
        const lookup = context.library.lookupPipe(ref, pipe.domain_code);
        let reason: string | undefined;
        if ('missing' in lookup)
          reason =
            parts.packageRef === undefined || (parts.domain !== undefined && context.library.domains.has(parts.domain))
              ? `pipe '${ref}' is not defined${parts.domain === undefined ? '' : ` in domain '${parts.domain}'`}`
              : undefined;
        else if ('ambiguous' in lookup)
          reason = `pipe '${ref}' is defined in several domains; write ${lookup.ambiguous.map((candidate) => `'${candidate.ref}'`).join(' or ')}`;
        else if (
          context.mode === 'strict' &&
          parts.domain === undefined &&
          lookup.found.domain_code !== pipe.domain_code
        ) {
          reason = `pipe '${ref}' is defined in domain '${lookup.found.domain_code}'; write '${lookup.found.ref}' (bare codes resolve in their own domain only)`;
        }
        if (reason === undefined) return [];
        return [
          pipeItem(pipeRefs, pipe, MESSAGES.unresolved_pipe({ pipe: pipe.code, field, reason }), {
            ...pipeField(pipe, field),
            missing_pipe_code: ref,
          }),
        ];
      }),
    ),
};
