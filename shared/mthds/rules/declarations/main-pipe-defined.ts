/**
 * S2: `main_pipe`, when set, names a pipe defined in the same bundle, by its bare code. A `main_pipe` qualified with
 * the bundle's domain (`legal.summarize` for `[pipe.summarize]`) gets its own message and the safe `strip-namespace`
 * fix (a `remap_value` of `main_pipe`).
 * @see docs/bundle-format.md#header, docs/namespaces.md#where-references-occur, docs/rules.md#declarations-s2; spec
 * §2.7
 */
import { MESSAGES } from '../../messages.js';
import type { Rule } from '../rule.js';
import { bundleItem } from '../rule-item.js';
import { namespacedCode, stripNamespaceFromMainPipe } from './strip-namespace.js';

/** S2 main pipe defined in the bundle (`unresolved_pipe_dependency`). */
export const mainPipeDefined: Rule = {
  id: 'S2-main-pipe-defined',
  stage: 'S2',
  severity: 'error',
  category: 'blueprint_validation',
  error_type: 'unresolved_pipe_dependency',
  see: 'docs/rules.md#s2-main-pipe-defined',
  check: ({ bundles }) =>
    bundles.flatMap((bundle) => {
      const main = bundle.blueprint.main_pipe;
      if (main === undefined || Object.hasOwn(bundle.blueprint.pipe, main)) return [];
      const field = { field_path: 'main_pipe', field_name: 'main_pipe', missing_pipe_code: main };
      const namespaced = namespacedCode(main, 'pipe');
      if (
        namespaced &&
        namespaced.domain === bundle.blueprint.domain &&
        Object.hasOwn(bundle.blueprint.pipe, namespaced.code)
      ) {
        return [
          bundleItem(mainPipeDefined, bundle, MESSAGES.main_pipe_qualified({ mainPipe: main, bare: namespaced.code }), {
            ...field,
            suggested_fix: stripNamespaceFromMainPipe(bundle, main, namespaced),
          }),
        ];
      }
      return [
        bundleItem(
          mainPipeDefined,
          bundle,
          MESSAGES.main_pipe_not_defined({ mainPipe: main, pipes: Object.keys(bundle.blueprint.pipe) }),
          field,
        ),
      ];
    }),
};
