/**
 * S5: a cross-package pipe reference (`<address or alias>->domain.pipe_code`) names a pipe its package exports. A
 * package's manifest lists its public pipes under `[exports.<domain>] pipes = [...]`; a bundle's `main_pipe` is
 * exported for its domain too; a domain the loaded manifests do not list exports everything (inline bundles carry no
 * manifest). One item per reference, on the pipe and field naming it, with the reference as written in
 * `missing_pipe_code`. References to unloaded packages or to pipes that do not exist are other rules' items.
 * @see docs/namespaces.md#cross-package-references, docs/namespaces.md#cross-package-references, docs/packages.md
 */
import { MESSAGES } from '../../messages.js';
import { parsePipeRef } from '../../references.js';
import type { Rule } from '../rule.js';
import { pipeField, pipeItem, pipesOf } from '../rule-item.js';
import { pipeRefsOf } from './references-of.js';

/** S5 cross-package references target exported pipes (`unexported_pipe_dependency`). */
export const unexportedPipeRefs: Rule = {
  id: 'S5-unexported-pipe-refs',
  stage: 'S5',
  severity: 'error',
  category: 'pipe_validation',
  error_type: 'unexported_pipe_dependency',
  see: 'docs/rules.md#s5-unexported-pipe-refs',
  check: (context) => {
    const { exports, library } = context;
    if (exports === undefined) return [];
    const mainPipes = new Set(
      library.bundles.flatMap((bundle) =>
        bundle.blueprint.main_pipe === undefined ? [] : [`${bundle.blueprint.domain}.${bundle.blueprint.main_pipe}`],
      ),
    );
    return pipesOf(context).flatMap((pipe) =>
      pipeRefsOf(pipe).flatMap(({ field, ref }) => {
        const parts = parsePipeRef(ref);
        if (parts?.packageRef === undefined || parts.domain === undefined) return [];
        const exported = Object.hasOwn(exports, parts.domain) ? exports[parts.domain] : undefined;
        const target = `${parts.domain}.${parts.code}`;
        if (exported === undefined || exported.includes(parts.code) || mainPipes.has(target)) return [];
        if (!library.pipes.has(target)) return [];
        const message = MESSAGES.unexported_pipe({
          pipe: pipe.code,
          field,
          ref,
          code: parts.code,
          domain: parts.domain,
        });
        return [pipeItem(unexportedPipeRefs, pipe, message, { ...pipeField(pipe, field), missing_pipe_code: ref })];
      }),
    );
  },
};
