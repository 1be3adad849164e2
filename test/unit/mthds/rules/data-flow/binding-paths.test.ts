import { expect } from 'chai';
import { bindingPaths } from '../../../../../shared/mthds/rules/data-flow/binding-paths.js';
import { bundle, runRule } from '../harness.js';

const CONCEPTS = `[concept.Note]
description = "A note"
[concept.Note.structure]
body = { type = "text", description = "The text", required = true }

[concept.Round]
description = "A round"
[concept.Round.structure]
note = { type = "concept", concept_ref = "Note", description = "The note", required = true }
notes = { type = "list", item_type = "concept", item_concept_ref = "Note", description = "More notes" }

[pipe.read]
type = "PipeLLM"
description = "d"
inputs = { page = "Note" }
output = "Text"
prompt = "$page.body"
`;

const sequence = (steps: string) =>
  bundle(
    'rounds',
    `${CONCEPTS}\n[pipe.walk]\ntype = "PipeSequence"\ndescription = "d"\ninputs = { round = "Round" }\noutput = "Text"\nsteps = ${steps}`,
  );

describe('S5b-binding-paths', () => {
  describe('when a binding step names a field the structure does not have', () => {
    it('should report the segment and the fields available there', () => {
      expect(runRule(bindingPaths, sequence('[{ from = "round.note.title", result = "title" }]'))).to.deep.equal([
        {
          category: 'pipe_validation',
          message:
            "Pipe 'walk', field 'steps[0].from': the path 'round.note.title' does not resolve: 'title' is not a bindable field of 'rounds.Note' (fields: body).",
          error_type: 'binding_path_unresolved',
          source: 'bundle-1.mthds',
          pipe_code: 'walk',
          domain_code: 'rounds',
          field_path: 'pipe.walk.steps[0].from',
          field_name: 'from',
        },
      ]);
    });
  });

  describe('when a dotted batch_over walks into a text, or reads a bound name further', () => {
    it('should report both, the second against the bound concept', () => {
      expect(
        runRule(
          bindingPaths,
          sequence(
            '[{ pipe = "read", batch_over = "round.note.body.words", batch_as = "page", result = "r" }, { from = "round.note", result = "n" }, { from = "n.missing", result = "m" }]',
          ),
        ).map((item) => [item.field_path, item.message]),
      ).to.deep.equal([
        [
          'pipe.walk.steps[0].batch_over',
          "Pipe 'walk', field 'steps[0].batch_over': the path 'round.note.body.words' does not resolve: 'words' is not a bindable field of 'Text' (fields: none).",
        ],
        [
          'pipe.walk.steps[2].from',
          "Pipe 'walk', field 'steps[2].from': the path 'n.missing' does not resolve: 'missing' is not a bindable field of 'rounds.Note' (fields: body).",
        ],
      ]);
    });
  });

  describe('when the paths resolve, across a list too', () => {
    it('should pass', () => {
      expect(
        runRule(
          bindingPaths,
          sequence(
            '[{ from = "round.note.body", result = "body" }, { pipe = "read", batch_over = "round.notes", batch_as = "page", result = "r" }]',
          ),
        ),
      ).to.deep.equal([]);
    });
  });
});
