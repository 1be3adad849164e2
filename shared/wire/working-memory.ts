/**
 * The working memory of a finished run as `pipe_output.working_memory` sends it (docs/run-events.md; the reference's
 * `WorkingMemory`): root stuffs by name, aliases, and the absences when a slot was resolved absent.
 */
import type { Concept } from '../mthds/index.js';
import type { ItemContent, Stuff } from '../runtime/stuff.js';
import type { WorkingMemory } from '../runtime/working-memory.js';
import { type AbsenceRecord, absenceRecord } from './absence-record.js';

/** The concept as the wire shows it inside a stuff and in a graph's registries. */
export interface ConceptWire {
  code: string;
  domain_code: string;
  description: string;
  structure_class_name: string;
  refines: string | null;
}

/** A stuff on the wire: one item as its object, a list as `{items: [...]}`. */
export interface StuffWire {
  stuff_code: string;
  stuff_name: string | null;
  concept: ConceptWire;
  content: ItemContent | { items: ItemContent[] };
}

/**
 * Working memory on the wire (`pipe_output.working_memory`). `absences` (the reference's `WorkingMemory.absences`) is
 * present only when a slot was resolved absent.
 */
export interface WorkingMemoryWire {
  root: Record<string, StuffWire>;
  aliases: Record<string, string>;
  absences?: Record<string, AbsenceRecord>;
}

/**
 * The wire form of a concept.
 * @param concept - a library concept
 */
export function conceptToWire(concept: Concept): ConceptWire {
  return {
    code: concept.code,
    domain_code: concept.domain_code,
    description: concept.description,
    structure_class_name: concept.structure_class_name,
    refines: concept.refines,
  };
}

/** The wire form of a stuff (`pipe_output.working_memory.root`). */
function stuffToWire(stuff: Stuff): StuffWire {
  return {
    stuff_code: stuff.stuffCode,
    stuff_name: stuff.stuffName,
    concept: conceptToWire(stuff.concept),
    content: stuff.content.kind === 'item' ? stuff.content.item : { items: stuff.content.items },
  };
}

/**
 * The wire form of a working memory: its root stuffs and aliases in insertion order, and its absences when it has any.
 * @param memory - a run's working memory
 */
export function workingMemoryToWire(memory: WorkingMemory): WorkingMemoryWire {
  const wire: WorkingMemoryWire = {
    root: Object.fromEntries(memory.entries().map(([name, stuff]) => [name, stuffToWire(stuff)])),
    aliases: Object.fromEntries(memory.aliasEntries()),
  };
  const absences = memory.absenceEntries();
  if (absences.length > 0)
    wire.absences = Object.fromEntries(absences.map(([name, absence]) => [name, absenceRecord(absence)]));
  return wire;
}
