import { expect } from 'chai';
import { optionalMarkers } from '../../../../../shared/mthds/rules/declarations/optional-markers.js';
import { bundle, runRule } from '../harness.js';

const pipe = (inputs: string, output: string) =>
  bundle(
    'notes',
    `[pipe.write]\ntype = "PipeLLM"\ndescription = "d"\ninputs = ${inputs}\noutput = "${output}"\nprompt = "Write"`,
  );

describe('S2-optional-markers', () => {
  describe('when markers sit on single inputs, a count of one, an expanded slot and a `?` output', () => {
    it('should pass', () => {
      const text = pipe('{ a = "Text?", b = "Text!", c = "Text[1]?", d = { concept = "Text?" } }', 'Text?');
      expect(runRule(optionalMarkers, text)).to.deep.equal([]);
    });
  });

  describe('when a marker is combined with a plural multiplicity on an input', () => {
    it('should refuse each input with optional_marker_invalid naming it', () => {
      const items = runRule(
        optionalMarkers,
        pipe('{ a = "Text[]?", b = "Text[2]!", c = { concept = "Text[]?" } }', 'Text'),
      );
      expect(items[0]).to.deep.equal({
        category: 'blueprint_validation',
        message:
          "Pipe 'write', input 'a': 'Text[]?'. The presence marker '?' cannot be combined with multiplicity: a plural slot is never absent — when nothing is found, it is the empty list. Remove the marker (a count of one, 'X[1]?', is the single form and may carry it).",
        error_type: 'optional_marker_invalid',
        source: 'bundle-1.mthds',
        domain_code: 'notes',
        field_path: 'pipe.write.inputs.a',
        field_name: 'a',
        variable_names: ['a'],
        pipe_code: 'write',
      });
      expect(items.map((item) => item.variable_names)).to.deep.equal([['a'], ['b'], ['c']]);
    });
  });

  describe('when an output carries `!`, or `?` with a plural multiplicity', () => {
    it('should refuse both outputs', () => {
      const items = [
        ...runRule(optionalMarkers, pipe('{}', 'Text!')),
        ...runRule(optionalMarkers, pipe('{}', 'Text[]?')),
      ];
      expect(items.map((item) => [item.field_path, item.message])).to.deep.equal([
        [
          'pipe.write.output',
          "Pipe 'write', output: 'Text!'. The force marker '!' applies to inputs only: a pipe cannot assert its own output into existence. Write 'Text' or 'Text?'.",
        ],
        [
          'pipe.write.output',
          "Pipe 'write', output: 'Text[]?'. The presence marker '?' cannot be combined with multiplicity: a plural slot is never absent — when nothing is found, it is the empty list. Remove the marker (a count of one, 'X[1]?', is the single form and may carry it).",
        ],
      ]);
    });
  });

  describe('when a concept refines, or a structure field points at, a marked reference', () => {
    it('should refuse each with the concept located', () => {
      const text = bundle(
        'notes',
        '[concept.Note]\ndescription = "n"\nrefines = "Text?"\n\n[concept.Memo]\ndescription = "m"\n[concept.Memo.structure]\nnote = { type = "concept", concept_ref = "Note!", description = "d" }',
      );
      expect(runRule(optionalMarkers, text).map((item) => [item.concept_code, item.field_path])).to.deep.equal([
        ['Note', 'concept.Note.refines'],
        ['Memo', 'concept.Memo.structure.note.concept_ref'],
      ]);
    });
  });
});
