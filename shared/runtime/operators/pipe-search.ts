/**
 * PipeSearch: render the prompt as a search query and store the sourced answer as a SearchResult
 * (docs/runtime.md#pipesearch, docs/pipes.md#pipesearch). An output that is not a SearchResult (a structured concept,
 * docs/pipes.md#pipesearch) makes it a structured search: the provider fills an object of the output's schema, which is
 * validated and stored as the output; a dry run mocks that object.
 */
import { PipeFeatureNotSupportedError, PipeOutputValidationError } from '../../errors/index.js';
import type { PipeSearchBlueprint } from '../../mthds/index.js';
import { renderJobTemplate } from '../job-template.js';
import { outputConceptOf } from '../output-concept.js';
import type { PipeRunner } from '../pipe-job.js';
import { storePipeOutput } from '../pipe-output.js';
import type { ItemContent } from '../stuff.js';
import { modelRefOf } from './model-ref.js';

/**
 * Run a PipeSearch job.
 * @throws PipeFeatureNotSupportedError (501) when the inference backend cannot search; template and provider errors
 */
export const runPipeSearch: PipeRunner = async (job, environment) => {
  const blueprint = job.pipe.blueprint as PipeSearchBlueprint;
  const { inference, signal } = environment.deps;
  if (!inference.search)
    throw new PipeFeatureNotSupportedError(
      `Pipe '${job.pipe.code}': the inference backend '${inference.name}' cannot search the web.`,
    );
  const { text: query } = await renderJobTemplate(job, environment, blueprint.prompt, {
    category: 'llm_prompt',
    tagStyle: 'no_tag',
  });
  const modelRef = modelRefOf(blueprint.model);
  const concept = outputConceptOf(job, environment.library);
  const searchResult = environment.library.resolveConcept('native.SearchResult');
  const structured = !environment.library.isCompatible(concept, searchResult);
  const { result, object } = await inference.search({
    pipeCode: job.pipe.code,
    query,
    ...(modelRef === undefined ? {} : { modelRef }),
    ...(blueprint.from_date === undefined ? {} : { fromDate: blueprint.from_date }),
    ...(blueprint.to_date === undefined ? {} : { toDate: blueprint.to_date }),
    ...(blueprint.include_domains === undefined ? {} : { includeDomains: blueprint.include_domains }),
    ...(blueprint.exclude_domains === undefined ? {} : { excludeDomains: blueprint.exclude_domains }),
    ...(blueprint.max_results === undefined ? {} : { maxResults: blueprint.max_results }),
    ...(structured ? { jsonSchema: environment.validator.schemaOf(concept) } : {}),
    ...(signal ? { signal } : {}),
  });
  if (structured) {
    const problems = environment.validator.problems(concept, object);
    if (problems.length > 0)
      throw new PipeOutputValidationError(
        `PipeSearch '${job.pipe.code}': the structured search answer does not match ${concept.ref}: ${problems.join('; ')}.`,
      );
    storePipeOutput(job, environment, concept, { kind: 'item', item: object as ItemContent });
    return;
  }
  storePipeOutput(job, environment, concept, {
    kind: 'item',
    item: { answer: result.answer, sources: result.sources },
  });
};
