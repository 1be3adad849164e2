import { expect } from 'chai';
import { conceptExtent } from '../../../../../shared/mthds/rules/structures/concept-extent.js';
import { bundle, runRule } from '../harness.js';

/** Concepts `C1`…`C{depth}`, each but the last with a field `next` of the next one. */
function chain(depth: number, link: 'concept_ref' | 'item_concept_ref' | 'refines' = 'concept_ref'): string {
  return Array.from({ length: depth }, (_, index) => {
    const code = `C${index + 1}`;
    if (index + 1 === depth) return `[concept.${code}]\ndescription = "d"\n[concept.${code}.structure]\nleaf = "l"\n`;
    if (link === 'refines') return `[concept.${code}]\ndescription = "d"\nrefines = "C${index + 2}"\n`;
    const field =
      link === 'concept_ref'
        ? `next = { type = "concept", concept_ref = "C${index + 2}", description = "n" }`
        : `next = { type = "list", item_type = "concept", item_concept_ref = "C${index + 2}", description = "n" }`;
    return `[concept.${code}]\ndescription = "d"\n[concept.${code}.structure]\n${field}\n`;
  }).join('\n');
}

const tooDeep = (depth: number, fieldPath: string, fieldName: string) => ({
  category: 'blueprint_validation',
  message: `Concept 'C1' nests ${depth} concepts deep (deep.C1 → deep.C2 → deep.C3 → deep.C4 → …), over 32 (MAX_CONCEPT_DEPTH): a chain of concepts, each naming the next through a structure field or refines, is at most 32 long. Flatten the structure.`,
  error_type: 'concept_structure_too_large',
  source: 'bundle-1.mthds',
  concept_code: 'C1',
  domain_code: 'deep',
  field_path: fieldPath,
  field_name: fieldName,
});

describe('S3-concept-extent', () => {
  describe('when a chain of concepts is deeper than MAX_CONCEPT_DEPTH', () => {
    it('should report its head once, through fields, list items or refines', () => {
      expect(runRule(conceptExtent, bundle('deep', chain(33)))).to.deep.equal([
        tooDeep(33, 'concept.C1.structure.next.concept_ref', 'concept_ref'),
      ]);
      expect(runRule(conceptExtent, bundle('deep', chain(40, 'item_concept_ref')))).to.deep.equal([
        tooDeep(40, 'concept.C1.structure.next.item_concept_ref', 'item_concept_ref'),
      ]);
      expect(runRule(conceptExtent, bundle('deep', chain(50, 'refines')))).to.deep.equal([
        tooDeep(50, 'concept.C1.refines', 'refines'),
      ]);
    });

    it('should measure a chain of 20,000 concepts without overflowing the stack', () => {
      const items = runRule(conceptExtent, bundle('deep', chain(20_000)));
      expect(items).to.have.length(1);
      expect(items[0]!.message).to.match(/^Concept 'C1' nests 20000 concepts deep \(/);
    });

    it('should measure a loop longer than the limit as that deep (the loop itself is S5-structure-cycles)', () => {
      const loop = chain(40).replace(
        'leaf = "l"',
        'back = { type = "concept", concept_ref = "C1", description = "b" }',
      );
      const items = runRule(conceptExtent, bundle('deep', loop));
      expect(items).to.have.length(1);
      expect(items[0]!.message).to.contain('nests 41 concepts deep');
    });
  });

  describe('when a structure expands to more than MAX_CONCEPT_FIELDS fields', () => {
    it('should report the outermost concept, counting a nested concept once per use', () => {
      const level = (code: string, next: string | undefined) =>
        `[concept.${code}]\ndescription = "d"\n[concept.${code}.structure]\n${Array.from({ length: 50 }, (_, index) =>
          next ? `f${index} = { type = "concept", concept_ref = "${next}", description = "n" }` : `f${index} = "t"`,
        ).join('\n')}\n`;
      const text = bundle('wide', [level('A', 'B'), level('B', 'C'), level('C', undefined)].join('\n'));
      expect(runRule(conceptExtent, text)).to.deep.equal([
        {
          category: 'blueprint_validation',
          message:
            "Concept 'A' expands to 127,550 fields (each nested concept's fields counted where it is used), over 2,000 (MAX_CONCEPT_FIELDS). Use fewer or smaller nested concepts.",
          error_type: 'concept_structure_too_large',
          source: 'bundle-1.mthds',
          concept_code: 'A',
          domain_code: 'wide',
          field_path: 'concept.A.structure',
          field_name: 'structure',
        },
      ]);
    });
  });

  describe('when every concept is within the limits', () => {
    it('should pass a chain exactly MAX_CONCEPT_DEPTH deep', () => {
      expect(runRule(conceptExtent, bundle('deep', chain(32)))).to.deep.equal([]);
    });
  });
});
