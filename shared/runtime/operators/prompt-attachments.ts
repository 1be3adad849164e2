/**
 * The attachments of a rendered LLM prompt as the inference port takes them: the images and documents the prompt
 * registered (in `[Image N]` / `[Document N]` order), with bundle-relative URLs read from the run's library files.
 * Shared by PipeLLM and PipeJudge.
 * @see docs/runtime.md#images-and-documents, docs/language.md#pipejudge
 */
import { documentFilesOf, libraryDocumentUrl } from '../library-document-url.js';
import type { RunEnvironment } from '../pipe-job.js';
import type { LlmRequest } from '../ports.js';
import type { PromptAttachment } from '../prompt-media.js';

/**
 * The `images` and `documents` members of an LLM request, each present only when the prompt registered one.
 * @param registered - the prompt's attachments, in registration order
 * @param environment - the run environment (its library files)
 * @param pipeCode - the pipe making the call, for error messages
 * @throws StuffFactoryError (422) when a bundle-relative URL names no file of the submitted bundle
 */
export function promptAttachments(
  registered: readonly PromptAttachment[],
  environment: RunEnvironment,
  pipeCode: string,
): Pick<LlmRequest, 'images' | 'documents'> {
  const of = (kind: 'image' | 'document') =>
    registered
      .filter((attachment) => attachment.kind === kind)
      .map(({ url: written, mime_type }) => {
        const url = libraryDocumentUrl(written, mime_type, documentFilesOf(environment), pipeCode);
        return mime_type === undefined ? { url } : { url, mime_type };
      });
  const parts: Pick<LlmRequest, 'images' | 'documents'> = {};
  const images = of('image');
  const documents = of('document');
  if (images.length > 0) parts.images = images;
  if (documents.length > 0) parts.documents = documents;
  return parts;
}
