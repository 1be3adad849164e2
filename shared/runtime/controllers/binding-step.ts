/**
 * Binding steps of a PipeSequence and dotted `batch_over` at run time (docs/data-flow.md#binding-steps, a newer
 * reference
 * feature): a deep copy of the value at a dotted path becomes a fresh stuff of the derived concept; no pipe runs, in a
 * live run as in a dry run. Across lists the values are flattened and empty ones dropped. A single value the path does
 * not reach (an optional field left empty) is no stuff in a live run (the caller records the absence), and is a mock of
 * the derived concept in a dry run. A scalar field becomes the
 * native's content (`{text}`, `{number}`, `{json_obj}`, `{yes_no}`; a `date`/`datetime` field's ISO text
 * `{date, time?}`, a `time` field's `{time}`, see `temporal-content.ts`).
 */
import { PipeInputError } from '../../errors/index.js';
import { type Concept, deriveBinding, pathRoot } from '../../mthds/index.js';
import { mockContent } from '../mock-output.js';
import type { PipeJob, RunEnvironment } from '../pipe-job.js';
import type { ItemContent, Stuff } from '../stuff.js';
import { temporalContentOf } from '../temporal-content.js';

/** How a scalar field's value is wrapped into its native's content. */
const SCALAR_MEMBER: Record<string, string> = {
  'native.Text': 'text',
  'native.Number': 'number',
  'native.JSON': 'json_obj',
  'native.YesNo': 'yes_no',
};

function valuesAt(values: unknown[], segment: string): unknown[] {
  return values.flatMap((value) => {
    const next = value !== null && typeof value === 'object' ? (value as Record<string, unknown>)[segment] : undefined;
    if (next === undefined || next === null) return [];
    return Array.isArray(next) ? next.filter((item) => item !== undefined && item !== null) : [next];
  });
}

function asContent(concept: Concept, value: unknown): ItemContent {
  const temporal = typeof value === 'string' && concept.isNative ? temporalContentOf(concept.code, value) : undefined;
  if (temporal !== undefined) return temporal;
  const member = SCALAR_MEMBER[concept.ref];
  const copy = structuredClone(value);
  if (member === undefined || (copy !== null && typeof copy === 'object' && member in copy)) return copy as ItemContent;
  return { [member]: member === 'text' ? String(copy) : copy } as ItemContent;
}

/**
 * The stuff a binding path yields in a job's working memory.
 * @param job - the sequence's job (its working memory)
 * @param environment - the run environment (library, ids)
 * @param path - `root.field…`
 * @param name - the stuff name to give it
 * @returns the stuff, or null when a single value's path reaches nothing (a declared absence:
 * docs/language.md#optionality-presence-markers-and-absences)
 * @throws PipeInputError when the root is missing or the path does not resolve
 */
export function boundStuff(job: PipeJob, environment: RunEnvironment, path: string, name: string): Stuff | null {
  const root = job.memory.find(pathRoot(path));
  const where = `PipeSequence '${job.pipe.code}', binding of '${path}'`;
  if (!root) throw new PipeInputError(`${where}: '${pathRoot(path)}' is not in the working memory.`);
  const listRoot = root.content.kind === 'list';
  const derived = deriveBinding(environment.library, root.concept, listRoot ? 'variable' : 'single', path);
  if (!derived.ok)
    throw new PipeInputError(
      `${where}: '${derived.segment}' is not a bindable field of '${derived.within.code}' (fields: ${derived.available.join(', ') || 'none'}).`,
    );
  let values: unknown[] = root.content.kind === 'list' ? [...root.content.items] : [root.content.item];
  for (const segment of path.split('.').slice(1)) values = valuesAt(values, segment);
  const items = values.map((value) => asContent(derived.concept, value));
  if (derived.multiplicity === 'variable')
    return {
      stuffCode: environment.deps.ids.next(),
      stuffName: name,
      concept: derived.concept,
      content: { kind: 'list', items },
    };
  const [item] = items;
  if (item === undefined && environment.dryRun) {
    const content = mockContent(
      environment.dryRun,
      environment.validator,
      derived.concept,
      'single',
      `${job.pipe.code}:${path}`,
    );
    return { stuffCode: environment.deps.ids.next(), stuffName: name, concept: derived.concept, content };
  }
  if (item === undefined) return null;
  return {
    stuffCode: environment.deps.ids.next(),
    stuffName: name,
    concept: derived.concept,
    content: { kind: 'item', item },
  };
}
