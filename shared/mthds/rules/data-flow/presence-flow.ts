/**
 * The presence analysis of controller flows (docs/language.md#optionality-presence-markers-and-absences): inside each
 * controller every slot is
 * present or maybe-absent. A `?` input is maybe-absent; a plain or `!` input is present (when it is absent the whole
 * pipe is lifted, or fails). A child pipe fed a maybe-absent value on a plain input may be lifted (skipped), and its
 * single output is then maybe-absent (a plural one becomes `[]`); a child declaring a `?` output may resolve it absent.
 * A binding step's result is maybe-absent when its root is, or when its path walks a field neither required nor
 * defaulted.
 *
 * Per controller: whether its output may be absent and why; the `continue` outcome of a PipeCondition; the parallel
 * branches that may be absent; the pipes it may lift (`liftable_pipes` of the valid report); and every value it feeds
 * to a `!` input (for `optional_force_redundant`).
 * @see docs/language.md#optionality-presence-markers-and-absences
 */
import { fieldsOf, pathRoot } from '../../library/binding-derivation.js';
import type { Pipe } from '../../library/concept.js';
import type { Library } from '../../library/library.js';
import { isBindingStep, type SubPipeBlueprint } from '../../parse/sequence-steps.js';
import type { Multiplicity } from '../../references.js';

/** A slot's presence inside a controller: absent from the map or `undefined` origin means present. */
type Slots = Map<string, string | undefined>;

/** One pipe a controller may skip at run time (the reference's `LiftablePipeEntry`). */
export interface LiftablePipe {
  pipe_ref: string;
  within_pipe_ref: string;
  /** The plain inputs whose absence skips it. */
  skipped_when_absent: string[];
  /** Where that absence can come from. */
  absence_source: string;
}

/** A value fed to a `!` input. */
export interface ForceFeed {
  pipe: Pipe;
  input: string;
  /** Why the value may be absent there, undefined when it is always present. */
  origin: string | undefined;
}

/** A parallel branch that may be absent. */
export interface AbsentBranch {
  result: string;
  origin: string;
}

/** What the analysis says about one controller. */
export interface ControllerPresence {
  /** Why the controller's output may be absent; undefined when it is always present. */
  outputOrigin: string | undefined;
  /** The outcome key (or `default_outcome`) of a PipeCondition leading to `continue`. */
  continueVia: string | undefined;
  absentBranches: AbsentBranch[];
  liftable: LiftablePipe[];
  forceFeeds: ForceFeed[];
}

/** How a child call went: its output's presence, and the concept it produces. */
interface Call {
  origin: string | undefined;
  conceptRef: string;
}

function isPlural(multiplicity: Multiplicity): boolean {
  return multiplicity === 'variable' || (typeof multiplicity === 'number' && multiplicity > 1);
}

function stepPlural(child: Pipe, step: Partial<SubPipeBlueprint> | undefined): boolean {
  if (step?.batch_over !== undefined) return true;
  if (step?.nb_output !== undefined) return step.nb_output > 1;
  if (step?.multiple_output !== undefined) return step.multiple_output;
  return isPlural(child.output.multiplicity);
}

class ControllerWalk {
  readonly result: ControllerPresence = {
    outputOrigin: undefined,
    continueVia: undefined,
    absentBranches: [],
    liftable: [],
    forceFeeds: [],
  };

  constructor(
    private readonly library: Library,
    private readonly controller: Pipe,
  ) {}

  /** The slots of the controller's own inputs. */
  inputSlots(): Slots {
    return new Map(
      this.controller.inputs.map((input) => [
        input.name,
        input.presence === 'optional' ? `optional input '${input.name}' of '${this.controller.ref}'` : undefined,
      ]),
    );
  }

  /** Call a child pipe on the slots; undefined when the child does not resolve (reported elsewhere). */
  call(ref: string, slots: Slots, step?: Partial<SubPipeBlueprint>): Call | undefined {
    const child = this.library.findPipe(ref, this.controller.domain_code);
    if (!child) return undefined;
    const skipped: string[] = [];
    const origins: string[] = [];
    for (const input of child.inputs) {
      const origin = slots.get(pathRoot(input.name));
      if (input.presence === 'force') this.result.forceFeeds.push({ pipe: child, input: input.name, origin });
      if (input.presence === 'plain' && origin !== undefined) {
        skipped.push(input.name);
        origins.push(origin);
      }
    }
    if (skipped.length > 0)
      this.result.liftable.push({
        pipe_ref: child.ref,
        within_pipe_ref: this.controller.ref,
        skipped_when_absent: skipped,
        absence_source: [...new Set(origins)].join('; '),
      });
    const conceptRef = child.output.conceptRef;
    if (stepPlural(child, step)) return { origin: undefined, conceptRef };
    if (skipped.length > 0)
      return {
        origin: `'${child.code}' is skipped when ${skipped.map((name) => `'${name}'`).join(', ')} is absent`,
        conceptRef,
      };
    if (child.output.presence === 'optional')
      return { origin: `'${child.code}' declares an optional output`, conceptRef };
    return { origin: undefined, conceptRef };
  }

  /**
   * Why a binding path may reach no value: it walks a structure field that is neither required nor defaulted.
   * @returns the reason, or undefined when every field it walks is required or defaulted (or unknown)
   */
  private optionalWalk(rootRef: string | undefined, path: string): string | undefined {
    let concept = rootRef === undefined ? undefined : this.library.findConcept(rootRef, this.controller.domain_code);
    for (const segment of path.split('.').slice(1)) {
      const field = concept === undefined ? undefined : fieldsOf(this.library, concept)?.[segment];
      if (!field || !concept) return undefined;
      if (!field.required && field.default_value === undefined)
        return `the binding '${path}' walks the optional field '${segment}' of '${concept.code}'`;
      const next = field.concept_ref ?? field.item_concept_ref;
      concept = next === undefined ? undefined : this.library.findConcept(next, concept.domain_code);
    }
    return undefined;
  }

  sequence(steps: readonly (SubPipeBlueprint | { from: string; result: string })[]): void {
    const slots = this.inputSlots();
    const concepts = new Map(this.controller.inputs.map((input) => [input.name, input.conceptRef]));
    let last: string | undefined;
    for (const step of steps) {
      if (isBindingStep(step)) {
        const root = pathRoot(step.from);
        last = slots.get(root) ?? this.optionalWalk(concepts.get(root), step.from);
        slots.set(step.result, last);
        continue;
      }
      const itemSlots = step.batch_as === undefined ? slots : new Map([...slots, [step.batch_as, undefined]]);
      const call = this.call(step.pipe, itemSlots, step);
      last = call?.origin;
      if (step.result !== undefined) {
        slots.set(step.result, last);
        if (call) concepts.set(step.result, call.conceptRef);
      }
    }
    this.result.outputOrigin = last;
  }

  condition(outcomes: Record<string, string>, defaultOutcome: string): void {
    const slots = this.inputSlots();
    const keyed: [string, string][] = [...Object.entries(outcomes), ['default_outcome', defaultOutcome]];
    const origins: string[] = [];
    for (const [key, outcome] of keyed) {
      if (outcome === 'continue') {
        this.result.continueVia ??= key === 'default_outcome' ? 'default_outcome' : `outcome '${key}'`;
        continue;
      }
      if (outcome === 'fail') continue;
      const origin = this.call(outcome, slots)?.origin;
      if (origin !== undefined) origins.push(origin);
    }
    if (this.result.continueVia !== undefined) origins.unshift(`the ${this.result.continueVia} is 'continue'`);
    this.result.outputOrigin = origins.length > 0 ? [...new Set(origins)].join('; ') : undefined;
  }

  parallel(branches: readonly SubPipeBlueprint[]): void {
    const slots = this.inputSlots();
    for (const branch of branches) {
      const origin = this.call(branch.pipe, slots, branch)?.origin;
      if (origin !== undefined && branch.result !== undefined)
        this.result.absentBranches.push({ result: branch.result, origin });
    }
  }

  batch(branch: string, itemName: string): void {
    this.call(branch, new Map([...this.inputSlots(), [itemName, undefined]]), { pipe: branch, batch_over: itemName });
  }
}

const analyses = new WeakMap<Library, Map<string, ControllerPresence>>();

/**
 * The presence analysis of every controller of a library (memoised per library).
 * @param library - a library whose references are sound (unresolved ones are skipped)
 * @returns by controller ref
 */
export function presenceFlow(library: Library): Map<string, ControllerPresence> {
  const cached = analyses.get(library);
  if (cached) return cached;
  const flows = new Map<string, ControllerPresence>();
  for (const pipe of library.pipes.values()) {
    const walk = new ControllerWalk(library, pipe);
    const blueprint = pipe.blueprint;
    switch (blueprint.type) {
      case 'PipeSequence':
        walk.sequence(blueprint.steps);
        break;
      case 'PipeCondition':
        walk.condition(blueprint.outcomes, blueprint.default_outcome);
        break;
      case 'PipeParallel':
        walk.parallel(blueprint.branches);
        break;
      case 'PipeBatch':
        walk.batch(blueprint.branch_pipe_code, blueprint.input_item_name);
        break;
      default:
        continue;
    }
    flows.set(pipe.ref, walk.result);
  }
  analyses.set(library, flows);
  return flows;
}

/**
 * The pipes a run may skip (lift), in controller order: the `liftable_pipes` of the valid report.
 * @param library - a valid library
 * @see docs/language.md#optionality-presence-markers-and-absences
 */
export function liftablePipes(library: Library): LiftablePipe[] {
  return [...presenceFlow(library).values()].flatMap((flow) => flow.liftable);
}
