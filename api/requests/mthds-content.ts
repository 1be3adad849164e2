/**
 * One `.mthds` text of a request (`content` of `/v1/lint` and `/v1/format`, `files[].content` of the closure routes,
 * `mthds_contents[]` of `/v1/validate`): at most `MAX_MTHDS_FILE_KIB` KiB of
 * UTF-8.
 *
 * @see docs/api.md#post-v1lint, docs/limits.md
 */
import { z } from 'zod';

/**
 * The schema of `content` for a deployment's limit.
 * @param maxKib - `MAX_MTHDS_FILE_KIB`
 * @returns a string schema whose size failure reads `MTHDS file exceeds <maxKib> KiB limit (<n> bytes)`
 */
export function mthdsContent(maxKib: number): z.ZodType<string> {
  const maxBytes = maxKib * 1024;
  return z.string().superRefine((content, context) => {
    const bytes = Buffer.byteLength(content, 'utf8');
    if (bytes > maxBytes)
      context.addIssue({ code: 'custom', message: `MTHDS file exceeds ${maxKib} KiB limit (${bytes} bytes)` });
  });
}
