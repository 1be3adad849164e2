/**
 * Where a pipe's output goes (docs/runtime.md#working-memory `make_stuff`, §1.8): a new stuff with a fresh code, named
 * by the job's
 * output name or else the snake_case of its concept code, stored as the working memory's new main stuff.
 */
import type { Concept } from '../mthds/index.js';
import type { PipeJob, RunEnvironment } from './pipe-job.js';
import { defaultStuffName, type StuffContent } from './stuff.js';

/**
 * Store a pipe's output as the new main stuff of its job's working memory.
 * @param job - the job that produced it (its output name and memory)
 * @param environment - the run's environment (its id source mints the stuff code)
 * @param concept - the output's concept
 * @param content - the output, one item or a list
 */
export function storePipeOutput(
  job: PipeJob,
  environment: RunEnvironment,
  concept: Concept,
  content: StuffContent,
): void {
  job.memory.setNewMainStuff(
    {
      stuffCode: environment.deps.ids.next(),
      stuffName: job.outputName ?? defaultStuffName(concept.code),
      concept,
      content,
    },
    job.outputName,
  );
}
