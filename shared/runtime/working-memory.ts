/**
 * The working memory of a run: named stuffs plus aliases, with `main_stuff` designating the latest output
 * (docs/runtime.md#working-memory).
 */
import { PipeInputError } from '../errors/index.js';
import type { Concept } from '../mthds/index.js';
import type { Absence } from './absence.js';
import type { ItemContent, Stuff, StuffContent } from './stuff.js';

/** The reserved name of the latest output. */
const MAIN_STUFF = 'main_stuff';

/** A stuff as plain JSON, its concept whole (a snapshot is restored in another process, docs/fan-out.md). */
export interface StuffSnapshot {
  stuffCode: string;
  stuffName: string | null;
  concept: Concept;
  content: StuffContent;
}

/**
 * A whole working memory as plain JSON, everything {@link WorkingMemory.fromSnapshot} needs to rebuild an equal one:
 * root stuffs and aliases in insertion order, absences, and the name of the absent latest output.
 */
export interface MemorySnapshot {
  root: [string, StuffSnapshot][];
  aliases: [string, string][];
  absences: [string, Absence][];
  absentMain: string | null;
}

/**
 * A stuff of a snapshot back as a stuff: its concept is the library's own when `resolveConcept` knows its ref (so
 * concepts compare by identity as in the process that took the snapshot), else the concept as carried.
 * @param snapshot - the stuff as plain JSON
 * @param resolveConcept - the run library's concept lookup (throws on an unknown ref)
 */
export function stuffOfSnapshot(snapshot: StuffSnapshot, resolveConcept: (ref: string) => Concept): Stuff {
  let concept = snapshot.concept;
  try {
    concept = resolveConcept(snapshot.concept.ref);
  } catch {}
  return { ...snapshot, content: structuredClone(snapshot.content), concept };
}

/**
 * Mutable working memory. Sequence steps share one; parallel branches and batch items get a {@link clone}. Besides
 * its stuffs it records absences (docs/language.md#optionality-presence-markers-and-absences): a name resolved to no
 * value, with provenance; the latest
 * output may itself be an absence ({@link mainAbsence}).
 */
export class WorkingMemory {
  private readonly root = new Map<string, Stuff>();
  private readonly aliases = new Map<string, string>();
  private readonly absences = new Map<string, Absence>();
  /** The name of the absence that is the latest output, when the latest output is absent. */
  private absentMain: string | null = null;

  /**
   * Find a stuff by name: `root[name]`, else `root[aliases[name]]`.
   * @param name - a stuff name or alias (no dots)
   */
  find(name: string): Stuff | undefined {
    const direct = this.root.get(name);
    if (direct) return direct;
    const target = this.aliases.get(name);
    return target === undefined ? undefined : this.root.get(target);
  }

  /**
   * Like {@link find}, but missing is an error.
   * @throws PipeInputError when the name is unknown
   */
  get(name: string): Stuff {
    const stuff = this.find(name);
    if (!stuff)
      throw new PipeInputError(
        `No stuff named '${name}' in the working memory (known: ${this.names().join(', ') || 'none'}).`,
      );
    return stuff;
  }

  /**
   * Resolve a dotted path (`a.b.c`): the stuff `a`, then attributes of its content.
   * @param path - dotted path whose first segment is a stuff name
   * @returns the stuff when the path has one segment, else the JSON value at the path (undefined when absent)
   */
  resolvePath(path: string): { stuff: Stuff; value: unknown } | undefined {
    const [head, ...rest] = path.split('.');
    const stuff = head === undefined ? undefined : this.find(head);
    if (!stuff) return undefined;
    let value: unknown = stuff.content.kind === 'item' ? stuff.content.item : stuff.content.items;
    for (const segment of rest) {
      if (value === null || typeof value !== 'object') return { stuff, value: undefined };
      value = (value as Record<string, unknown>)[segment];
    }
    return { stuff, value };
  }

  /**
   * True when the name is a root name (an alias is not).
   * @param name - a stuff name (no dots)
   */
  isRootName(name: string): boolean {
    return this.root.has(name);
  }

  /** True when the name resolves to a stuff. */
  has(name: string): boolean {
    return this.find(name) !== undefined;
  }

  /** Every root name and alias, sorted. */
  names(): string[] {
    return [...new Set([...this.root.keys(), ...this.aliases.keys()])].sort();
  }

  /** The current main stuff, if any. */
  mainStuff(): Stuff | undefined {
    return this.find(MAIN_STUFF);
  }

  /**
   * The name the main stuff is stored under: the alias target, else `main_stuff` when stored directly, else null.
   * @see docs/runtime.md#the-run-result
   */
  mainStuffName(): string | null {
    const alias = this.aliases.get(MAIN_STUFF);
    if (alias !== undefined) return alias;
    return this.root.has(MAIN_STUFF) ? MAIN_STUFF : null;
  }

  /**
   * Store a pipe's output and make it the main stuff (`set_new_main_stuff`).
   * @param stuff - the output
   * @param name - the output name; without one the stuff is stored at `root.main_stuff` with no alias
   */
  setNewMainStuff(stuff: Stuff, name: string | null): void {
    this.absentMain = null;
    this.absences.delete(name ?? MAIN_STUFF);
    if (name !== null && name !== MAIN_STUFF) {
      this.root.delete(MAIN_STUFF);
      this.root.set(name, stuff);
      this.aliases.delete(name);
      this.aliases.set(MAIN_STUFF, name);
    } else {
      this.aliases.delete(MAIN_STUFF);
      this.root.set(MAIN_STUFF, stuff);
    }
  }

  /**
   * Add (or replace) a named stuff without touching the main stuff (`add_new_stuff`).
   * @param name - root name
   * @param stuff - the stuff
   */
  addNewStuff(name: string, stuff: Stuff): void {
    this.absences.delete(name);
    this.root.set(name, stuff);
  }

  /**
   * Record that a name holds no value (an omitted optional input), without touching the latest output.
   * @param record - the absence; its `variableName` is the name
   */
  recordAbsence(record: Absence): void {
    this.root.delete(record.variableName);
    this.absences.set(record.variableName, record);
  }

  /**
   * Keep a note of an absence beside the value a name holds (the reference's `record_absence` next to a stuff): a
   * lifted
   * pipe, or batch step, with a plural output stores the empty list, since a plural slot is never absent, and notes
   * why it is empty (docs/language.md#optionality-presence-markers-and-absences). The note is on the wire in
   * `absences`; {@link absence} ignores it while the
   * name holds a value, so a reader of the list is not lifted. Storing a value under the name drops it.
   * @param record - the absence; its `variableName` is the name of the value it notes
   */
  noteAbsence(record: Absence): void {
    this.absences.set(record.variableName, record);
  }

  /**
   * Make an absence the latest output: a pipe resolved its output to no value (lifted, or `continue`). The previous
   * main stuff stays under its own name, if it has one, but is no longer the main stuff.
   * @param record - the absence; its `variableName` is the output name (`main_stuff` for none)
   */
  setAbsentMainStuff(record: Absence): void {
    if (this.aliases.get(MAIN_STUFF) === undefined) this.root.delete(MAIN_STUFF);
    this.aliases.delete(MAIN_STUFF);
    this.recordAbsence(record);
    this.absentMain = record.variableName;
  }

  /**
   * The recorded absence of a name, if the name holds no value for a known reason.
   * @param name - a stuff name (no dots)
   */
  absence(name: string): Absence | undefined {
    return this.find(name) === undefined ? this.absences.get(name) : undefined;
  }

  /** The absence the latest output resolved to, when it is absent. */
  mainAbsence(): Absence | undefined {
    return this.absentMain === null ? undefined : this.absences.get(this.absentMain);
  }

  /** What the latest output is: the main stuff, its absence, or nothing yet (compared by identity to see a change). */
  mainOutcome(): Stuff | Absence | undefined {
    return this.mainAbsence() ?? this.mainStuff();
  }

  /**
   * Point an alias at a root stuff (`set_alias`).
   * @throws PipeInputError when the target is not a root name
   */
  setAlias(alias: string, target: string): void {
    if (!this.root.has(target))
      throw new PipeInputError(`Alias '${alias}' points at '${target}', which is not a stuff of the working memory.`);
    this.aliases.set(alias, target);
  }

  /** A deep copy: content is copied, concepts are shared (immutable). */
  clone(): WorkingMemory {
    const copy = new WorkingMemory();
    for (const [name, stuff] of this.root) {
      copy.root.set(name, { ...stuff, content: structuredClone(stuff.content) });
    }
    for (const [alias, target] of this.aliases) copy.aliases.set(alias, target);
    for (const [name, record] of this.absences) copy.absences.set(name, record);
    copy.absentMain = this.absentMain;
    return copy;
  }

  /** The memory as plain JSON (content copied), for a child job run in another process (docs/fan-out.md). */
  snapshot(): MemorySnapshot {
    return {
      root: [...this.root].map(([name, stuff]) => [name, { ...stuff, content: structuredClone(stuff.content) }]),
      aliases: [...this.aliases],
      absences: [...this.absences],
      absentMain: this.absentMain,
    };
  }

  /**
   * Rebuild a memory from its {@link snapshot}.
   * @param snapshot - the memory as plain JSON
   * @param resolveConcept - the run library's concept lookup ({@link stuffOfSnapshot})
   */
  static fromSnapshot(snapshot: MemorySnapshot, resolveConcept: (ref: string) => Concept): WorkingMemory {
    const memory = new WorkingMemory();
    for (const [name, stuff] of snapshot.root) memory.root.set(name, stuffOfSnapshot(stuff, resolveConcept));
    for (const [alias, target] of snapshot.aliases) memory.aliases.set(alias, target);
    for (const [name, record] of snapshot.absences) memory.absences.set(name, record);
    memory.absentMain = snapshot.absentMain;
    return memory;
  }

  /** The root stuffs in insertion order, with their names. */
  entries(): [string, Stuff][] {
    return [...this.root.entries()];
  }

  /** The aliases, in insertion order. */
  aliasEntries(): [string, string][] {
    return [...this.aliases.entries()];
  }

  /** The recorded absences (a name resolved to no value, or a note beside an empty list), in insertion order. */
  absenceEntries(): [string, Absence][] {
    return [...this.absences.entries()];
  }
}

/**
 * The JSON values of a stuff's content: one item, or the list of items.
 * @param stuff - a stuff
 */
export function contentValue(stuff: Stuff): ItemContent | ItemContent[] {
  return stuff.content.kind === 'item' ? stuff.content.item : stuff.content.items;
}
