/**
 * The closure selector of the resolve, codegen and build routes (spec §2.1; API-CONTRACT.md §3.8): exactly one of
 * `files` (inline bundles) or `method_ref`. The bundles it names are loaded in the diagnostics pool
 * (`offload/diagnostic-operations.ts`).
 */
import { z } from 'zod';
import type { MethodFetcher } from '../shared/methods/index.js';
import type { BundleSource } from '../shared/mthds/index.js';
import { mthdsContent } from './mthds-content.js';

/**
 * `validation_mode` of the diagnostic routes (an extension of this runner): `compat` (default) or `strict`
 * (docs/language.md "Strict and compat modes").
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

/**
 * The request schema of a closure route: the selector fields plus the route's own, with the exactly-one rule.
 * @param extra - the route's other fields
 * @param maxMthdsFileKib - `MAX_MTHDS_FILE_KIB`, the ceiling of each `files[].content`
 */
export function closureRequestSchema<T extends z.ZodRawShape>(extra: T, maxMthdsFileKib: number) {
  return z.object({ ...selectorFields(maxMthdsFileKib), ...extra }).superRefine((body, context) => {
    const selector = body as { files?: unknown; method_ref?: unknown };
    const hasFiles = selector.files !== null && selector.files !== undefined;
    const hasRef = selector.method_ref !== null && selector.method_ref !== undefined;
    if (hasFiles === hasRef) context.addIssue({ code: 'custom', message: 'Value error, provide exactly one of `files` or `method_ref`' });
  });
}

/** The bundles a closure request names, and the default pipe its manifest supplies. */
export interface Closure {
  sources: BundleSource[];
  /** The fetched manifest's `main_pipe` on a `method_ref` request; null otherwise. */
  manifestMainPipe: string | null;
}

/** A closure selector checked by {@link closureRequestSchema}. */
export interface ClosureSelector {
  files?: { content: string; source?: string | null | undefined }[] | null | undefined;
  method_ref?: string | null | undefined;
}

/**
 * Turn a checked selector into bundle sources.
 * @param selector - `files` or `method_ref` (exactly one, as checked by {@link closureRequestSchema})
 * @param fetcher - the deployment's method fetcher
 * @throws whatever {@link MethodFetcher.fetch} throws (501 for a registry form, 422 / 404 for a failed fetch)
 */
export async function loadClosure(
  selector: ClosureSelector,
  fetcher: MethodFetcher,
): Promise<Closure> {
  if (selector.method_ref) {
    const fetched = await fetcher.fetch(selector.method_ref, 'tooling');
    return { sources: fetched.sources, manifestMainPipe: fetched.mainPipe };
  }
  return { sources: (selector.files ?? []).map((file) => ({ content: file.content, source: file.source ?? null })), manifestMainPipe: null };
}
