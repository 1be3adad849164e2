/**
 * PipeSearch: render the prompt as a search query and store the sourced answer as a SearchResult
 * (RUNTIME.md §2.7, LANGUAGE.md §3.6).
 */
import { PipeFeatureNotSupportedError } from '../../errors/index.js';
import type { PipeSearchBlueprint } from '../../mthds/index.js';
import { renderJobTemplate } from '../job-template.js';
import { outputConceptOf } from '../output-concept.js';
import type { PipeRunner } from '../pipe-job.js';
import { storePipeOutput } from '../pipe-output.js';
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
  const { result } = await inference.search({
    pipeCode: job.pipe.code,
    query,
    ...(modelRef === undefined ? {} : { modelRef }),
    ...(blueprint.from_date === undefined ? {} : { fromDate: blueprint.from_date }),
    ...(blueprint.to_date === undefined ? {} : { toDate: blueprint.to_date }),
    ...(blueprint.include_domains === undefined ? {} : { includeDomains: blueprint.include_domains }),
    ...(blueprint.exclude_domains === undefined ? {} : { excludeDomains: blueprint.exclude_domains }),
    ...(blueprint.max_results === undefined ? {} : { maxResults: blueprint.max_results }),
    ...(signal ? { signal } : {}),
  });
  const concept = outputConceptOf(job, environment.library);
  storePipeOutput(job, environment, concept, {
    kind: 'item',
    item: { answer: result.answer, sources: result.sources },
  });
};
