/**
 * PipeParallel: run every branch at once (at most `batchConcurrency` at a time, in-process or as child jobs elsewhere:
 * child-jobs.ts), each on its own copy of the working memory (docs/runtime.md#pipeparallel,
 * docs/pipes.md#pipeparallel). With `add_each_output`, each branch's output is added to the parent memory under its
 * `result`.
 * The parallel's own output combines the branches: a stuff whose fields are the result names, of concept
 * `combined_output` (validated against it) when set, else of the declared output concept (usually `Anything`).
 *
 * Decision (the reference runner's behaviour, docs/graph-spec.md): with `add_each_output` and no `combined_output`,
 * when the parallel's output name is one of its branch results, that branch's output is the parallel's output, so the
 * name keeps the branch's stuff instead of being overwritten by the combination.
 *
 * Without `combined_output` (retired in pipelex-api 0.16, docs/pipes.md#pipeparallel) the combination is stored under
 * the
 * declared output: `Composite` holds `{<result>: <content>}` as is; a structured output fitting the branch results gets
 * each result in its field — a text, number, integer, date, datetime or time field takes the scalar of a Text, Number,
 * Date or Time result (a list of them, a list of scalars) — and is validated against the concept.
 *
 * Absence (docs/language.md#optionality-presence-markers-and-absences): a branch whose output resolves absent adds its
 * absence to the parent memory and is
 * left out of the combination (its field unset: a field a maybe-absent branch feeds cannot be required, which
 * `S5b-optional-branch-required-field` checks).
 */
import { PipeOutputValidationError } from '../../errors/index.js';
import { type ConceptField, type PipeParallelBlueprint, parallelCombinationFit } from '../../mthds/index.js';
import { runChildJobs } from '../child-jobs.js';
import { contentArtefact, nativeRootOf } from '../content-rendering.js';
import { stepMultiplicityOverride } from '../multiplicity.js';
import { outputConceptOf } from '../output-concept.js';
import type { PipeRunner } from '../pipe-job.js';
import { storePipeOutput } from '../pipe-output.js';
import { childStepPath } from '../step-path.js';
import type { ItemContent, Stuff } from '../stuff.js';
import { contentValue } from '../working-memory.js';

const SCALAR_MEMBERS: Record<string, string> = { text: 'text', number: 'number', integer: 'number' };
const TEMPORAL_FIELDS = new Set(['date', 'datetime', 'time']);

/** A branch result as the value of the structure field that holds it. */
function fieldValue(field: ConceptField | undefined, stuff: Stuff, nativeRoot: string | null): unknown {
  const type = field?.type === 'list' ? (field.item_type ?? 'text') : (field?.type ?? 'text');
  const scalar = (item: ItemContent): unknown => {
    if (TEMPORAL_FIELDS.has(type) && (nativeRoot === 'Date' || nativeRoot === 'Time'))
      return String(contentArtefact(nativeRoot, { kind: 'item', item }));
    const member = SCALAR_MEMBERS[type];
    return member !== undefined && member in item ? item[member] : item;
  };
  if (field?.choices !== undefined || field?.type === 'concept' || field?.item_type === 'concept')
    return contentValue(stuff);
  return stuff.content.kind === 'item' ? scalar(stuff.content.item) : stuff.content.items.map(scalar);
}

/**
 * Run a PipeParallel job.
 * @throws PipeOutputValidationError when the combination does not match `combined_output` or a structured output;
 *   whatever a branch throws
 */
export const runPipeParallel: PipeRunner = async (job, environment) => {
  const blueprint = job.pipe.blueprint as PipeParallelBlueprint;
  const { library } = environment;
  const outcomes = await runChildJobs(environment, blueprint.branches.length, (index) => {
    const branch = blueprint.branches[index]!;
    return {
      pipe: library.resolvePipe(branch.pipe, job.pipe.domain_code),
      memory: job.memory.clone(),
      outputName: branch.result ?? null,
      params: {
        ...job.params,
        outputMultiplicity: stepMultiplicityOverride(branch),
        stepPath: childStepPath(job.params.stepPath, 'branch', index),
      },
    };
  });
  const branches = outcomes.map(({ stuff, absence }, index) => ({
    name: blueprint.branches[index]!.result ?? null,
    stuff,
    absence,
  }));
  for (const { name, absence } of branches) if (name !== null && absence) job.memory.recordAbsence(absence);
  const present = branches.flatMap(({ name, stuff }) => (stuff ? [{ name, stuff }] : []));
  if (blueprint.add_each_output) {
    for (const { name, stuff } of present) if (name !== null) job.memory.addNewStuff(name, stuff);
    const named = blueprint.combined_output ? undefined : present.find(({ name }) => name === job.outputName);
    if (named) {
      job.memory.setNewMainStuff(named.stuff, job.outputName);
      return;
    }
  }
  const fit = blueprint.combined_output ? undefined : parallelCombinationFit(library, job.pipe);
  const structured = fit?.fits === true && fit.kind === 'structured' ? fit.fields : undefined;
  const combined: ItemContent = Object.fromEntries(
    branches.flatMap(({ name, stuff }, index) =>
      stuff
        ? [
            [
              name ?? `branch_${index}`,
              structured && name !== null
                ? fieldValue(structured[name], stuff, nativeRootOf(library, stuff.concept))
                : contentValue(stuff),
            ],
          ]
        : [],
    ),
  );
  const concept = blueprint.combined_output
    ? library.resolveConcept(blueprint.combined_output, job.pipe.domain_code)
    : outputConceptOf(job, library);
  if (blueprint.combined_output || structured) {
    const problems = environment.validator.problems(concept, combined);
    if (problems.length > 0) {
      throw new PipeOutputValidationError(
        `PipeParallel '${job.pipe.code}': the branch results do not match ${blueprint.combined_output ? 'combined_output' : 'the output'} ${concept.ref}: ${problems.join('; ')}.`,
      );
    }
  }
  storePipeOutput(job, environment, concept, { kind: 'item', item: combined });
};
