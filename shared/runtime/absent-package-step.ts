/**
 * Dry run of a sequence step calling a pipe of another package that the request does not carry (`pkg->domain.pipe`):
 * the sweep skips the pipes that do (they are `SKIPPED`), but the default pipe's graph is dry-run anyway, and such a
 * step would end it at its first step. Instead the step stands in for the absent pipe: its result is a mock of the
 * concept the later steps read it as (the first later step declaring that input), else `Anything`; in a recorded graph
 * it is a `skipped` node with its `skip_reason` (docs/graph-spec.md).
 */
import type { Concept, Multiplicity, PipeSequenceBlueprint, SubPipeBlueprint } from '../mthds/index.js';
import type { GraphPipe } from './graph-registries.js';
import { ioItem } from './graph-spec.js';
import { mockContent } from './mock-output.js';
import type { DryRunSupport, PipeJob, RunEnvironment } from './pipe-job.js';
import { defaultStuffName } from './stuff.js';

/**
 * Whether a step calls a pipe of a package absent from the library.
 * @param job - the sequence's job
 * @param environment - the run environment
 * @param step - the step
 */
export function isAbsentPackageStep(job: PipeJob, environment: RunEnvironment, step: SubPipeBlueprint): boolean {
  return step.pipe.includes('->') && environment.library.findPipe(step.pipe, job.pipe.domain_code) === undefined;
}

/** The concept and multiplicity the later steps of the sequence read a result as. */
function expectedByLaterSteps(
  job: PipeJob,
  environment: RunEnvironment,
  name: string | undefined,
  index: number,
): { concept: Concept; multiplicity: Multiplicity } {
  const { library } = environment;
  const steps = (job.pipe.blueprint as PipeSequenceBlueprint).steps.slice(index + 1);
  for (const later of name === undefined ? [] : steps) {
    const pipe = library.findPipe(later.pipe, job.pipe.domain_code);
    const batched = later.batch_over === name;
    const wanted = batched ? later.batch_as : name;
    const input = pipe?.inputs.find((candidate) => candidate.name === wanted);
    const concept = pipe && input && library.findConcept(input.conceptRef, pipe.domain_code);
    if (input && concept) return { concept, multiplicity: batched ? 'variable' : input.multiplicity };
  }
  return { concept: library.resolveConcept('native.Anything'), multiplicity: 'single' };
}

/**
 * Stand in for a step whose pipe is in an absent package (see the module note).
 * @param job - the sequence's job
 * @param environment - the dry-run environment
 * @param step - the step
 * @param index - the step's index in the sequence
 */
export function mockAbsentPackageStep(
  job: PipeJob,
  environment: RunEnvironment & { dryRun: DryRunSupport },
  step: SubPipeBlueprint,
  index: number,
): void {
  const { concept, multiplicity } = expectedByLaterSteps(job, environment, step.result, index);
  const [packageAddress, qualified = step.pipe] = step.pipe.split('->');
  const outputName = step.result ?? null;
  const stuff = {
    stuffCode: environment.deps.ids.next(),
    stuffName: outputName ?? defaultStuffName(concept.code),
    concept,
    content: mockContent(environment.dryRun, environment.validator, concept, multiplicity, step.pipe),
  };
  job.memory.setNewMainStuff(stuff, outputName);
  const { graph } = environment;
  if (!graph) return;
  const dot = qualified.lastIndexOf('.');
  const pipe: GraphPipe = {
    ref: qualified,
    code: qualified.slice(dot + 1),
    domain_code: dot < 0 ? job.pipe.domain_code : qualified.slice(0, dot),
    type: 'PipeSignature',
    description: `A pipe of ${packageAddress}, absent from the request`,
    inputs: [],
    output: { conceptRef: concept.ref, multiplicity },
  };
  const now = environment.deps.now();
  const node = graph.start(pipe, job.params.parentNode, [], now);
  graph.skip(
    node,
    [ioItem(stuff.stuffName, stuff)],
    now,
    `The pipe belongs to ${packageAddress}, a package absent from the request: its output is a mock.`,
  );
}
