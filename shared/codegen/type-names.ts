/**
 * The emitted type names of the type model: a native keeps its runtime class name, a declared concept its code unless
 * that code clashes, and then `<Domain><Code>`.
 */
import type { Library } from '../mthds/index.js';

/** Names the emitters import or define themselves; a concept with one of these codes is domain-qualified. */
const RESERVED_NAMES = new Set([
  'z',
  'BaseModel',
  'ConfigDict',
  'Field',
  'Any',
  'Dict',
  'List',
  'Literal',
  'Optional',
  'StructuredContent',
  'None',
  'True',
  'False',
]);

/**
 * A text in PascalCase: its alphanumeric runs, each with its first letter upper-cased (`image_size` → `ImageSize`).
 * @param text - any text
 */
export function pascal(text: string): string {
  return text
    .split(/[^A-Za-z0-9]+/)
    .filter((part) => part.length > 0)
    .map((part) => part[0]!.toUpperCase() + part.slice(1))
    .join('');
}

/**
 * Emitted names: natives keep their runtime class name; a declared concept is its code, or `<Domain><Code>` when
 * another emitted concept shares the code or the code is a name the emitters reserve.
 * @param library - the library the refs name concepts of
 * @param refs - the qualified refs of the emitted concepts
 * @returns the emitted name by qualified ref
 */
export function assignNames(library: Library, refs: readonly string[]): Map<string, string> {
  const concepts = refs.map((ref) => library.concepts.get(ref)!);
  const codeCounts = new Map<string, number>();
  for (const concept of concepts)
    if (!concept.isNative) codeCounts.set(concept.code, (codeCounts.get(concept.code) ?? 0) + 1);
  const nativeNames = new Set(
    concepts.filter((concept) => concept.isNative).map((concept) => concept.structure_class_name),
  );
  const names = new Map<string, string>();
  for (const concept of concepts) {
    if (concept.isNative) names.set(concept.ref, concept.structure_class_name);
    else {
      const clash =
        (codeCounts.get(concept.code) ?? 0) > 1 ||
        RESERVED_NAMES.has(concept.code) ||
        nativeNames.has(concept.code) ||
        concept.code.endsWith('Schema');
      names.set(concept.ref, clash ? `${pascal(concept.domain_code)}${concept.code}` : concept.code);
    }
  }
  return names;
}
