/**
 * PipeExtract: the pages of a Document (or Image) input, as `Page[]` (docs/runtime.md#pipeextract,
 * docs/pipes.md#pipeextract). Each page's
 * content is `{text_and_images: {text: {text} | null, images: []}, page_view: Image | null}`; an empty page has
 * a null text. `include_raw_html` and `render_js` (pipelex-api 0.16) go to the extractor; a page's fetched HTML becomes
 * `text_and_images.raw_html`. An input declared optional (`Document?`) and recorded absent runs the pipe with nothing
 * to
 * read: the output is the empty list, as a plural slot is never absent
 * (docs/language.md#optionality-presence-markers-and-absences).
 */
import { PipeFeatureNotSupportedError, PipeInputError } from '../../errors/index.js';
import type { PipeExtractBlueprint } from '../../mthds/index.js';
import { documentFilesOf, libraryDocumentUrl } from '../library-document-url.js';
import { outputConceptOf } from '../output-concept.js';
import type { PipeRunner } from '../pipe-job.js';
import { storePipeOutput } from '../pipe-output.js';
import type { ItemContent } from '../stuff.js';

/**
 * Run a PipeExtract job.
 * @throws PipeFeatureNotSupportedError (501) without an extractor; PipeInputError for an input without a `url`;
 *   StuffFactoryError (422) for a document that cannot be read, or a path naming no file of the submitted bundle
 */
export const runPipeExtract: PipeRunner = async (job, environment) => {
  const input = job.pipe.inputs[0]!;
  const root = input.name.split('.')[0]!;
  const concept = outputConceptOf(job, environment.library);
  if (input.presence === 'optional' && !job.memory.has(root)) {
    storePipeOutput(job, environment, concept, { kind: 'list', items: [] });
    return;
  }
  const extractor = environment.deps.extractor;
  if (!extractor)
    throw new PipeFeatureNotSupportedError(
      `Pipe '${job.pipe.code}' is a PipeExtract, and this runner has no document extractor.`,
    );
  const blueprint = job.pipe.blueprint as PipeExtractBlueprint;
  const stuff = job.memory.get(root);
  const documents = stuff.content.kind === 'item' ? [stuff.content.item] : stuff.content.items;
  const items: ItemContent[] = [];
  for (const document of documents) {
    if (typeof document['url'] !== 'string')
      throw new PipeInputError(`Pipe '${job.pipe.code}': input '${input.name}' has no url to extract.`);
    const mimeType = typeof document['mime_type'] === 'string' ? document['mime_type'] : null;
    const { pages } = await extractor.extractPages({
      pipeCode: job.pipe.code,
      document: {
        url: libraryDocumentUrl(document['url'], mimeType, documentFilesOf(environment), job.pipe.code),
        mime_type: mimeType,
      },
      ...(blueprint.include_raw_html === undefined ? {} : { includeRawHtml: blueprint.include_raw_html }),
      ...(blueprint.render_js === undefined ? {} : { renderJs: blueprint.render_js }),
      ...(environment.deps.signal ? { signal: environment.deps.signal } : {}),
    });
    for (const page of pages) {
      items.push({
        text_and_images: {
          text: page.text === '' ? null : { text: page.text },
          images: [],
          ...(page.rawHtml === undefined ? {} : { raw_html: page.rawHtml }),
        },
        page_view: page.pageViewUrl === undefined ? null : { url: page.pageViewUrl },
      });
    }
  }
  storePipeOutput(job, environment, concept, { kind: 'list', items });
};
