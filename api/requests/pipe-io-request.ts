/**
 * `POST /v1/pipe-io` as a diagnostics thread answers it (docs/api.md#post-v1pipe-io): a closure route whose selector
 * also takes a stored method's `method_id` (docs/methods.md#method_id), with `pipe_ref`, `all_pipes` and
 * `include_files`.
 */
import { z } from 'zod';
import type { BundleSource } from '../../shared/mthds/index.js';
import type { PipeIoFile } from '../../shared/wire/index.js';
import { pipeIoOperation } from '../offload/pipe-io-operation.js';
import { VALIDATION_MODE } from './closure-selector.js';
import { closureRoute } from './diagnostic-route.js';

/** The files `include_files` echoes: the request's own `files` as sent, else the fetched or stored method's. */
function echoedFiles(
  sent: { content: string; source?: string | null | undefined }[] | null | undefined,
  sources: BundleSource[],
): PipeIoFile[] {
  if (sent)
    return sent.map((file) =>
      file.source === undefined ? { content: file.content } : { ...file, source: file.source },
    );
  return sources.map((file) => (file.source === null ? { content: file.content } : file));
}

/**
 * `POST /v1/pipe-io`: the selected pipe's (or every pipe's) I/O contracts, input form and output form, as
 * `/v1/validate`'s views give them, after static validation only.
 */
export const pipeIoRoute = closureRoute(
  {
    pipe_ref: z.string().min(1).max(256).nullish(),
    all_pipes: z.boolean().nullish(),
    include_files: z.boolean().nullish(),
    validation_mode: VALIDATION_MODE,
  },
  (body, closure) =>
    pipeIoOperation({
      ...closure,
      pipeRef: body.pipe_ref ?? null,
      allPipes: body.all_pipes ?? false,
      ...(body.include_files ? { files: echoedFiles(body.files, closure.sources) } : {}),
      mode: body.validation_mode ?? 'compat',
    }),
  undefined,
  true,
);
