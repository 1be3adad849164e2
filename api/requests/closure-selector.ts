/**
 * The closure selector of the resolve, codegen and build routes (spec §2.1; docs/crate.md): exactly one of
 * `files` (inline bundles) or `method_ref` (a package fetched by the event loop, then handed back to the thread), and
 * on resolve and codegen also `method_id` (a stored method the event loop looks up; docs/methods.md#method_id).
 */
import { z } from 'zod';
import type { FetchPurpose } from '../../shared/methods/index.js';
import type { BundleSource, PackageExports } from '../../shared/mthds/index.js';
import { METHOD_ID } from './method-id.js';
import { mthdsContent } from './mthds-content.js';

/**
 * `validation_mode` of the diagnostic routes (an extension of this runner): `compat` (default) or `strict`
 * (docs/language.md#strict-and-compat-modes).
 */
export const VALIDATION_MODE = z.enum(['compat', 'strict']).nullish();

function selectorFields(maxMthdsFileKib: number) {
  return {
    files: z
      .array(z.object({ content: mthdsContent(maxMthdsFileKib), source: z.string().max(1024).nullish() }))
      .min(1)
      .max(16)
      .nullish(),
    method_ref: z.string().min(1).max(512).nullish(),
  };
}

/** Whether a selector member is given (neither absent nor null). */
function given(value: unknown): boolean {
  return value !== null && value !== undefined;
}

/**
 * The request schema of a closure route: the selector fields plus the route's own, with the exactly-one rule.
 * @param extra - the route's other fields
 * @param maxMthdsFileKib - `MAX_MTHDS_FILE_KIB`, the ceiling of each `files[].content`
 * @param byId - whether the route also takes `method_id` (resolve and codegen; the build routes have no by-id form)
 */
export function closureRequestSchema<T extends z.ZodRawShape>(extra: T, maxMthdsFileKib: number, byId = false) {
  const byIdFields = byId ? { method_id: METHOD_ID.nullish() } : {};
  return z.object({ ...selectorFields(maxMthdsFileKib), ...byIdFields, ...extra }).superRefine((body, context) => {
    const selector = body as { files?: unknown; method_ref?: unknown; method_id?: unknown };
    const count = [selector.files, selector.method_ref, selector.method_id].filter(given).length;
    if (count !== 1)
      context.addIssue({
        code: 'custom',
        message: byId
          ? 'Value error, provide exactly one of `files`, `method_ref` or `method_id`'
          : 'Value error, provide exactly one of `files` or `method_ref`',
      });
  });
}

/** The bundles a closure request names, and the default pipe its manifest supplies. */
export interface Closure {
  sources: BundleSource[];
  /** The fetched manifest's `main_pipe` on a `method_ref` request; null otherwise. */
  manifestMainPipe: string | null;
  /** The bundle-relative paths of the fetched package's files beside its `.mthds` (PipeDocGen `template_file`). */
  bundleFiles?: string[];
  /** The fetched packages' `[exports]` (`S5-unexported-pipe-refs`); absent for inline bundles. */
  exports?: PackageExports;
  /** The fetched package's files beside its `.mthds`, by bundle-relative path (the dry run's template checks). */
  libraryFiles?: ReadonlyMap<string, Uint8Array>;
}

/**
 * A `method_ref` the event loop must fetch, or a `method_id` it must look up in the caller's catalog, before the
 * request can be answered.
 */
export type MethodToFetch = ({ methodRef: string } | { methodId: string }) & {
  /** `run` (`/v1/validate`: the package's Python gate applies) or `tooling` (only its `.mthds` files are read). */
  purpose: FetchPurpose;
};

/** A closure selector checked by {@link closureRequestSchema}. */
export interface ClosureSelector {
  files?: { content: string; source?: string | null | undefined }[] | null | undefined;
  method_ref?: string | null | undefined;
  method_id?: string | null | undefined;
}

/**
 * The closure of a checked selector: its inline files, or the package the event loop fetched for its `method_ref` (or
 * the stored method it looked up for its `method_id`).
 * @param selector - `files`, `method_ref` or `method_id` (exactly one, as checked by {@link closureRequestSchema})
 * @param fetched - the fetched package or stored method, once the event loop has it
 * @param purpose - what the fetch is for
 * @returns the closure, or the `method_ref` to fetch first
 */
export function closureOf(
  selector: ClosureSelector,
  fetched: Closure | undefined,
  purpose: FetchPurpose,
): Closure | MethodToFetch {
  if (selector.method_ref) return fetched ?? { methodRef: selector.method_ref, purpose };
  if (selector.method_id) return fetched ?? { methodId: selector.method_id, purpose };
  return {
    sources: (selector.files ?? []).map((file) => ({ content: file.content, source: file.source ?? null })),
    manifestMainPipe: null,
  };
}
