/**
 * Mock outputs and inputs of dry runs (docs/runtime.md#mock-outputs, docs/runtime.md#dry-run): schema-valid placeholder
 * content of a concept, one item
 * for `X`, two for `X[]`, N for `X[N]`.
 */
import type { Concept, Multiplicity, Pipe } from '../mthds/index.js';
import type { ContentValidator } from './content-validator.js';
import type { DryRunSupport, PipeJob, RunEnvironment } from './pipe-job.js';
import { storePipeOutput } from './pipe-output.js';
import type { IdSource } from './ports.js';
import type { ItemContent, StuffContent } from './stuff.js';
import { WorkingMemory } from './working-memory.js';

/** Items of a variable-length mock list. */
const MOCK_LIST_LENGTH = 2;

/**
 * The item schemas of the concepts mocked, by validator (one per library) then concept ref: a dry-run sweep mocks the
 * same few concepts for every pipe it runs, and the placeholder source only reads the schema.
 */
const MOCK_SCHEMAS = new WeakMap<ContentValidator, Map<string, Record<string, unknown>>>();

function mockSchema(validator: ContentValidator, concept: Concept): Record<string, unknown> {
  let schemas = MOCK_SCHEMAS.get(validator);
  if (!schemas) {
    schemas = new Map();
    MOCK_SCHEMAS.set(validator, schemas);
  }
  let schema = schemas.get(concept.ref);
  if (!schema) {
    schema = validator.schemaOf(concept);
    schemas.set(concept.ref, schema);
  }
  return schema;
}

/**
 * Placeholder content of a concept.
 * @param dry - the placeholder source
 * @param validator - gives the concept's schema
 * @param concept - the concept
 * @param multiplicity - single, variable or N
 * @param seed - makes the values deterministic
 */
export function mockContent(
  dry: DryRunSupport,
  validator: ContentValidator,
  concept: Concept,
  multiplicity: Multiplicity,
  seed: string,
): StuffContent {
  const schema = mockSchema(validator, concept);
  const count = multiplicity === 'single' ? 1 : typeof multiplicity === 'number' ? multiplicity : MOCK_LIST_LENGTH;
  const seeds = Array.from({ length: count }, (_, index) => `${seed}#${index}`);
  const items = dry.mockValues(schema, seeds) as ItemContent[];
  return multiplicity === 'single' ? { kind: 'item', item: items[0]! } : { kind: 'list', items };
}

/**
 * A working memory holding a mock stuff for every declared input of a pipe (dotted inputs bind their root).
 * @param pipe - the pipe to dry-run
 * @param environment - library, validator and the dry-run support
 * @param ids - stuff codes
 */
export function mockInputs(
  pipe: Pipe,
  environment: Pick<RunEnvironment, 'library' | 'validator'> & { dryRun: DryRunSupport },
  ids: IdSource,
): WorkingMemory {
  const memory = new WorkingMemory();
  for (const input of pipe.inputs) {
    const name = input.name.split('.')[0]!;
    if (memory.has(name)) continue;
    const concept = environment.library.resolveConcept(input.conceptRef, pipe.domain_code);
    const content = mockContent(
      environment.dryRun,
      environment.validator,
      concept,
      input.name.includes('.') ? 'single' : input.multiplicity,
      `${pipe.ref}.${name}`,
    );
    memory.addNewStuff(name, { stuffCode: ids.next(), stuffName: name, concept, content });
  }
  return memory;
}

/**
 * Store a mock of a pipe's declared output as the job's output (dry run of a contract-only pipe).
 * @param job - the job
 * @param environment - the dry-run environment
 */
export function mintMockOutput(job: PipeJob, environment: RunEnvironment & { dryRun: DryRunSupport }): void {
  const concept = environment.library.resolveConcept(job.pipe.output.conceptRef, job.pipe.domain_code);
  const content = mockContent(
    environment.dryRun,
    environment.validator,
    concept,
    job.pipe.output.multiplicity,
    job.pipe.ref,
  );
  storePipeOutput(job, environment, concept, content);
}
