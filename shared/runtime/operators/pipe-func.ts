/**
 * PipeFunc: call a function registered in the runtime by its `function_name` (docs/runtime.md#pipefunc). Code is never
 * loaded
 * from a bundle: a name the registry does not hold fails (and makes the bundle invalid in the dry-run sweep). A
 * function receives the working memory's contents by name and returns a content object, a list of them, or a
 * string (a Text); the result takes the pipe's declared output concept and is validated against it.
 */
import { PipeFeatureNotSupportedError, PipeOutputValidationError } from '../../errors/index.js';
import type { PipeFuncBlueprint } from '../../mthds/index.js';
import { outputConceptOf } from '../output-concept.js';
import type { PipeRunner } from '../pipe-job.js';
import { storePipeOutput } from '../pipe-output.js';
import type { ItemContent, StuffContent } from '../stuff.js';
import { contentValue } from '../working-memory.js';

/** A registered function: contents by stuff name in, content out. */
export type PipeFunction = (contents: Readonly<Record<string, unknown>>, signal?: AbortSignal) => Promise<unknown>;

function asContent(value: unknown): StuffContent {
  const item = (entry: unknown): ItemContent => (typeof entry === 'string' ? { text: entry } : (entry as ItemContent));
  return Array.isArray(value) ? { kind: 'list', items: value.map(item) } : { kind: 'item', item: item(value) };
}

/**
 * Run a PipeFunc job.
 * @throws PipeFeatureNotSupportedError (501) for a function the runtime does not register; PipeOutputValidationError
 *   when the result does not match the output concept
 */
export const runPipeFunc: PipeRunner = async (job, environment) => {
  const blueprint = job.pipe.blueprint as PipeFuncBlueprint;
  const fn = environment.deps.functions?.get(blueprint.function_name);
  if (!fn) {
    const known = [...(environment.deps.functions?.keys() ?? [])];
    throw new PipeFeatureNotSupportedError(
      `PipeFunc '${job.pipe.code}': function '${blueprint.function_name}' is not registered in this runtime (registered: ${known.join(', ') || 'none'}); functions are never loaded from bundles.`,
    );
  }
  const contents = Object.fromEntries(job.memory.entries().map(([name, stuff]) => [name, contentValue(stuff)]));
  const content = asContent(await fn(contents, environment.deps.signal));
  const concept = outputConceptOf(job, environment.library);
  const items = content.kind === 'item' ? [content.item] : content.items;
  const problems = items.flatMap((item) => environment.validator.problems(concept, item));
  if (problems.length > 0)
    throw new PipeOutputValidationError(
      `PipeFunc '${job.pipe.code}': the result of ${blueprint.function_name} does not match ${concept.ref}: ${problems.join('; ')}.`,
    );
  storePipeOutput(job, environment, concept, content);
};
