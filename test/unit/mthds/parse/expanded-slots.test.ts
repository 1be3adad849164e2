/**
 * Expanded input slots (docs/pipes.md#inputs-and-output): `name = { concept = "X?", hints = {…} }` with only those two
 * keys,
 * collapsed to the concept spec (presence marker kept).
 */
import { expect } from 'chai';
import { checkBlueprint } from '../../../../shared/mthds/parse/check-blueprint.js';
import { parseToml } from '../../../../shared/mthds/parse/parse-toml.js';

const check = (inputs: string) =>
  checkBlueprint(
    parseToml(
      `domain = "notes"\n[pipe.write]\ntype = "PipeLLM"\ndescription = "d"\ninputs = ${inputs}\noutput = "Text"\nprompt = "Write @?note"`,
      'b.mthds',
    ),
    'b.mthds',
  );

describe('expanded input slots', () => {
  describe('when a slot has a concept with a marker, with or without hints', () => {
    it('should collapse each to its concept spec', () => {
      const checked = check(
        '{ note = { concept = "Text?", hints = { intent = "prose" } }, topic = { concept = "Text" } }',
      );
      expect(checked.items).to.deep.equal([]);
      expect(checked.blueprint?.pipe['write']?.inputs).to.deep.equal({ note: 'Text?', topic: 'Text' });
    });
  });

  describe('when a slot has another key than concept and hints, or no concept', () => {
    it('should refuse the blueprint', () => {
      const described = check('{ note = { concept = "Text", description = "d" } }');
      expect(described.blueprint).to.equal(undefined);
      expect(described.items).to.deep.equal([
        {
          category: 'blueprint_validation',
          message: "Pipe 'write' (PipeLLM): unknown key 'description' (allowed: concept, hints).",
          error_type: 'extra_forbidden',
          source: 'b.mthds',
          pipe_code: 'write',
          domain_code: 'notes',
          field_path: 'pipe.write.inputs.note.description',
          field_name: 'description',
        },
      ]);
      expect(check('{ note = { hints = { intent = "prose" } } }').blueprint).to.equal(undefined);
    });
  });
});
