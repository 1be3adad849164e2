/**
 * The `strip-namespace` fix (spec §2.7; docs/suggested-fixes.md): a code that a bundle declares or names as a bare
 * local
 * code (a `[pipe.<code>]` or `[concept.<Code>]` key, the header `main_pipe`; docs/bundle-format.md#header,
 * docs/namespaces.md#where-references-occur) written
 * qualified with a domain, e.g. `[pipe."legal.summarize"]`. The fix renames the key in place (keeping its position,
 * comments and body) and remaps a `main_pipe` naming it. It is `safe` when the qualifier is the bundle's own domain
 * (nothing changes meaning) and `unsafe` when it names another domain (the code moves into the bundle's domain).
 */
import type { FixOp, SuggestedFix } from '../../../errors/index.js';
import type { LoadedBundle } from '../../library/library.js';
import { MESSAGES } from '../../messages.js';
import { parseConceptRef, parsePipeRef } from '../../references.js';
import type { ItemDetails } from '../rule-item.js';

/** A key or code written `<domain>.<code>`. */
export interface NamespacedCode {
  domain: string;
  code: string;
}

/**
 * Split a code written with a domain qualifier, through the reference parsers (docs/pipes.md#common-fields,
 * docs/namespaces.md#reference-syntax).
 * @param written - a declaration key or `main_pipe` value, e.g. `legal.summarize`
 * @param kind - whether the code is a pipe's (snake_case) or a concept's (PascalCase)
 * @returns the domain and the bare code, or undefined when `written` is not exactly `<domain code>.<code>` (no
 *   package prefix, no multiplicity, no surrounding space)
 */
export function namespacedCode(written: string, kind: 'pipe' | 'concept'): NamespacedCode | undefined {
  const parts = kind === 'pipe' ? parsePipeRef(written) : parseConceptRef(written);
  if (parts?.domain === undefined || `${parts.domain}.${parts.code}` !== written) return undefined;
  return { domain: parts.domain, code: parts.code };
}

function remapMainPipe(written: string, bare: string): FixOp {
  return { kind: 'remap_value', table_path: [], key: 'main_pipe', mapping: { [written]: bare } };
}

/**
 * The fix renaming a qualified declaration key to its bare code.
 * @param bundle - the declaring bundle
 * @param table - `pipe` or `concept`
 * @param key - the key as written (`legal.summarize`)
 * @param namespaced - its parts
 * @returns the fix: `rename_table_key` in `[<table>]`, then (for a pipe named by `main_pipe`) a `remap_value` of
 *   `main_pipe`
 * @see spec §2.7, docs/suggested-fixes.md
 */
function stripNamespaceFromKey(
  bundle: LoadedBundle,
  table: 'pipe' | 'concept',
  key: string,
  namespaced: NamespacedCode,
): SuggestedFix {
  const ops: FixOp[] = [{ kind: 'rename_table_key', table_path: [table], key, new_key: namespaced.code }];
  if (table === 'pipe' && bundle.blueprint.main_pipe === key) ops.push(remapMainPipe(key, namespaced.code));
  const own = namespaced.domain === bundle.blueprint.domain;
  return {
    fix_code: 'strip-namespace',
    description: own
      ? `Declare [${table}.${namespaced.code}] without the '${namespaced.domain}.' qualifier: the bundle's domain already qualifies it.`
      : `Declare [${table}.${namespaced.code}] without the '${namespaced.domain}.' qualifier; it then belongs to domain '${bundle.blueprint.domain}', so references to '${key}' must change.`,
    safety: own ? 'safe' : 'unsafe',
    source: bundle.source,
    ops,
  };
}

/**
 * The safe fix naming the main pipe by its bare code, for a `main_pipe` qualified with the bundle's own domain.
 * @param bundle - the bundle
 * @param mainPipe - `main_pipe` as written (`legal.summarize`)
 * @param namespaced - its parts
 * @returns the fix: one `remap_value` of `main_pipe`
 * @see spec §2.7, docs/suggested-fixes.md
 */
export function stripNamespaceFromMainPipe(
  bundle: LoadedBundle,
  mainPipe: string,
  namespaced: NamespacedCode,
): SuggestedFix {
  return {
    fix_code: 'strip-namespace',
    description: `Name the main pipe by its bare code '${namespaced.code}'.`,
    safety: 'safe',
    source: bundle.source,
    ops: [remapMainPipe(mainPipe, namespaced.code)],
  };
}

/** What a code-casing rule reports for one declaration key: the message and the item details. */
export interface MiscasedKeyReport {
  message: string;
  details: ItemDetails;
}

/**
 * The report of a `[pipe.<key>]` / `[concept.<key>]` key breaking its casing rule (S2 pipe and concept code casing):
 * a key written `<domain>.<code>` gets the namespaced-code message and, unless the bare code is taken, the
 * `strip-namespace` fix; any other key the rule's own casing message.
 * @param bundle - the declaring bundle
 * @param table - `pipe` or `concept`
 * @param key - the key as written
 * @param casingMessage - the rule's message for a key that is not qualified
 * @param isTaken - whether a bare code cannot be declared (already declared, or a native)
 * @see docs/bundle-format.md#naming, docs/rules.md#declarations-s2; spec §2.7
 */
export function miscasedKeyReport(
  bundle: LoadedBundle,
  table: 'pipe' | 'concept',
  key: string,
  casingMessage: string,
  isTaken: (bare: string) => boolean,
): MiscasedKeyReport {
  const field_path = `${table}.${key}`;
  const namespaced = namespacedCode(key, table);
  if (!namespaced) return { message: casingMessage, details: { field_path } };
  return {
    message: MESSAGES.namespaced_code({
      kind: table === 'pipe' ? 'Pipe' : 'Concept',
      code: key,
      bare: namespaced.code,
    }),
    details: {
      field_path,
      ...(!isTaken(namespaced.code) && { suggested_fix: stripNamespaceFromKey(bundle, table, key, namespaced) }),
    },
  };
}
