/**
 * The data flow of a PipeSequence, statically (docs/data-flow.md#binding-inputs, docs/data-flow.md#output-naming,
 * docs/data-flow.md#multiplicity-overrides, docs/data-flow.md#batching): which working-memory name each step input is
 * bound
 * to, and what that name holds at that point (the sequence's declared input, or the output of an earlier step, a
 * parallel branch with `add_each_output`, or a step inside a nested sequence). Shared by V-X1 and V-M1.
 *
 * A binding step stores the value its path derives (docs/data-flow.md#binding-steps); a dotted `batch_over` batches
 * over it.
 *
 * Multiplicity of what a step stores: the called pipe's output, overridden by `nb_output` (exactly N) or
 * `multiple_output` (a list, keeping a fixed N; `false` gives one item), and a variable list for an inline batch.
 * @see docs/data-flow.md#binding-inputs, docs/data-flow.md#output-naming, docs/data-flow.md#multiplicity-overrides,
 * docs/data-flow.md#batching, docs/rules.md#data-flow-s5b
 */

import { deriveBinding, isBindingPath, pathRoot } from '../../library/binding-derivation.js';
import type { Pipe, PipeIO } from '../../library/concept.js';
import type { MthdsLibrary } from '../../library/mthds-library.js';
import { isBindingStep, pipeSteps, type SubPipeBlueprint } from '../../parse/sequence-steps.js';
import type { Multiplicity } from '../../references.js';

/** What a working-memory name holds at some point of a sequence. */
export interface FlowValue {
  conceptRef: string;
  multiplicity: Multiplicity;
  /** Where it comes from, for messages: `input 'doc'` or `'pages' (from step 'read')`. */
  origin: string;
  /** As a concept ref with multiplicity, e.g. `Page[]`. */
  raw: string;
}

/** One step input bound to a value. */
export interface FlowBinding {
  /** The step's path in the sequence, e.g. `steps[1]`. */
  at: string;
  input: PipeIO;
  /** The multiplicity the step expects (single for the item of an inline batch). */
  expected: Multiplicity;
  value: FlowValue;
}

/**
 * A ref with its multiplicity suffix.
 * @param conceptRef - a qualified concept ref
 * @param multiplicity - the multiplicity
 */
export function withMultiplicity(conceptRef: string, multiplicity: Multiplicity): string {
  const code = conceptRef.startsWith('native.') ? conceptRef.slice('native.'.length) : conceptRef;
  return multiplicity === 'single' ? code : multiplicity === 'variable' ? `${code}[]` : `${code}[${multiplicity}]`;
}

function stored(pipe: Pipe, step: SubPipeBlueprint, name: string): FlowValue {
  let multiplicity = pipe.output.multiplicity;
  if (step.nb_output !== undefined) multiplicity = step.nb_output;
  else if (step.multiple_output === true) multiplicity = typeof multiplicity === 'number' ? multiplicity : 'variable';
  else if (step.multiple_output === false) multiplicity = 'single';
  if (step.batch_over !== undefined) multiplicity = 'variable';
  return {
    conceptRef: pipe.output.conceptRef,
    multiplicity,
    origin: `'${name}' (from step '${pipe.code}')`,
    raw: withMultiplicity(pipe.output.conceptRef, multiplicity),
  };
}

/**
 * The values a called pipe adds to the shared working memory besides its own result (parallel branches, nested steps).
 */
function sideValues(library: MthdsLibrary, pipe: Pipe, seen: Set<string>): Map<string, FlowValue> {
  const values = new Map<string, FlowValue>();
  if (seen.has(pipe.ref)) return values;
  seen.add(pipe.ref);
  const blueprint = pipe.blueprint;
  const subs =
    blueprint.type === 'PipeSequence'
      ? pipeSteps(blueprint.steps)
      : blueprint.type === 'PipeParallel' && blueprint.add_each_output === true
        ? blueprint.branches
        : [];
  for (const sub of subs) {
    const child = library.findPipe(sub.pipe, pipe.domain_code);
    if (blueprint.type === 'PipeSequence' && child)
      for (const [name, value] of sideValues(library, child, seen)) values.set(name, value);
    if (sub.result !== undefined) {
      if (child) values.set(sub.result, stored(child, sub, sub.result));
      else values.delete(sub.result);
    }
  }
  return values;
}

/** A binding path that does not resolve against the structure of its root's concept. */
export interface UnresolvedPath {
  /** The field holding the path, e.g. `steps[0].from` or `steps[2].batch_over`. */
  field: string;
  path: string;
  /** The first segment that does not resolve. */
  segment: string;
  /** The concept the segment was looked up in (`Text`, `domain.Code`). */
  within: string;
  /** The fields available where the segment was looked up. */
  available: string[];
}

/**
 * What a binding path (`from` of a binding step, or a dotted `batch_over`) holds, derived from its root's value.
 * @returns the value, or undefined when the root is unknown here, the path is malformed (S4-binding-steps reports it)
 *   or it does not resolve (then recorded in `unresolved`)
 */
function pathValue(
  library: MthdsLibrary,
  memory: ReadonlyMap<string, FlowValue | undefined>,
  path: string,
  at: { domain: string; field: string; unresolved: UnresolvedPath[] },
): FlowValue | undefined {
  const root = memory.get(pathRoot(path));
  const concept = root && library.findConcept(root.conceptRef, at.domain);
  if (!root || !concept) return undefined;
  if (!path.includes('.')) return root;
  if (!isBindingPath(path)) return undefined;
  const derived = deriveBinding(library, concept, root.multiplicity, path);
  if (!derived.ok) {
    at.unresolved.push({
      field: at.field,
      path,
      segment: derived.segment,
      within: withMultiplicity(derived.within.ref, 'single'),
      available: derived.available,
    });
    return undefined;
  }
  return {
    conceptRef: derived.concept.ref,
    multiplicity: derived.multiplicity,
    origin: `'${path}' (from ${root.origin})`,
    raw: withMultiplicity(derived.concept.ref, derived.multiplicity),
  };
}

/**
 * Whether a step's pipe leaves a branch result under its own output name: a PipeParallel with `add_each_output` and no
 * `combined_output`, whose output named like a branch result is that branch's output (the runtime's PipeParallel).
 * @param pipe - the step's pipe
 */
function keepsBranchResult(pipe: Pipe | undefined): boolean {
  return (
    pipe?.blueprint.type === 'PipeParallel' &&
    pipe.blueprint.add_each_output === true &&
    !pipe.blueprint.combined_output
  );
}

/**
 * The bindings of every step input of a sequence whose value is known statically (dotted inputs, which read a
 * sub-attribute, and names bound by unresolved pipes are left out).
 * @param library - the library
 * @param sequence - a PipeSequence
 */
export function sequenceFlow(library: MthdsLibrary, sequence: Pipe): FlowBinding[] {
  return walkSequence(library, sequence).bindings;
}

/**
 * The binding paths of a sequence (binding steps, dotted `batch_over`) whose root is known and which do not resolve.
 * @param library - the library
 * @param sequence - a PipeSequence
 */
export function unresolvedPaths(library: MthdsLibrary, sequence: Pipe): UnresolvedPath[] {
  return walkSequence(library, sequence).unresolved;
}

/**
 * What a name holds after the last step of a sequence, when known statically (e.g. the result of a binding step).
 * @param library - the library
 * @param sequence - a PipeSequence
 * @param name - a working-memory name
 */
export function valueAfterSequence(library: MthdsLibrary, sequence: Pipe, name: string): FlowValue | undefined {
  return walkSequence(library, sequence).memory.get(name);
}

function walkSequence(
  library: MthdsLibrary,
  sequence: Pipe,
): { bindings: FlowBinding[]; unresolved: UnresolvedPath[]; memory: ReadonlyMap<string, FlowValue | undefined> } {
  const unresolved: UnresolvedPath[] = [];
  if (sequence.blueprint.type !== 'PipeSequence') return { bindings: [], unresolved, memory: new Map() };
  const memory = new Map<string, FlowValue | undefined>();
  for (const input of sequence.inputs) {
    if (!input.name.includes('.'))
      memory.set(input.name, {
        conceptRef: input.conceptRef,
        multiplicity: input.multiplicity,
        origin: `input '${input.name}'`,
        raw: input.raw,
      });
  }
  const bindings: FlowBinding[] = [];
  sequence.blueprint.steps.forEach((step, index) => {
    const at = `steps[${index}]`;
    if (isBindingStep(step)) {
      const field = `${at}.from`;
      memory.set(
        step.result,
        pathValue(library, memory, step.from, { domain: sequence.domain_code, field, unresolved }),
      );
      return;
    }
    const child = library.findPipe(step.pipe, sequence.domain_code);
    const batchList =
      step.batch_over === undefined
        ? undefined
        : pathValue(library, memory, step.batch_over, {
            domain: sequence.domain_code,
            field: `${at}.batch_over`,
            unresolved,
          });
    for (const input of child?.inputs ?? []) {
      if (input.name.includes('.')) continue;
      if (input.name === step.batch_as && step.batch_over !== undefined) {
        const list = batchList;
        if (list && list.multiplicity !== 'single') {
          bindings.push({
            at,
            input,
            expected: input.multiplicity,
            value: {
              ...list,
              multiplicity: 'single',
              origin: `an item of ${list.origin}`,
              raw: withMultiplicity(list.conceptRef, 'single'),
            },
          });
        } else if (list) bindings.push({ at, input, expected: 'variable', value: list });
        continue;
      }
      const value = memory.get(input.name);
      if (value) bindings.push({ at, input, expected: input.multiplicity, value });
    }
    const side = child ? sideValues(library, child, new Set()) : new Map<string, FlowValue>();
    for (const [name, value] of side) memory.set(name, value);
    if (step.result !== undefined && !(keepsBranchResult(child) && side.has(step.result)))
      memory.set(step.result, child ? stored(child, step, step.result) : undefined);
  });
  return { bindings, unresolved, memory };
}

/**
 * Whether a value of multiplicity `produced` fits an input declared with `expected`: one item for `X`, a list for
 * `X[]`, a list of N (or of unknown length) for `X[N]`.
 * @param produced - what the name holds
 * @param expected - what the input declares
 */
export function multiplicityFits(produced: Multiplicity, expected: Multiplicity): boolean {
  if (expected === 'single' || produced === 'single') return produced === expected;
  return expected === 'variable' || produced === 'variable' || produced === expected;
}
