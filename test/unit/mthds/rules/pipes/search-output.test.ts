import { expect } from 'chai';
import { searchOutput } from '../../../../../shared/mthds/rules/pipes/search-output.js';
import { bundle, runEach, runRule } from '../harness.js';

const search = (output: string) =>
  bundle(
    'news',
    `[concept.Trend]\ndescription = "A trend"\nrefines = "SearchResult"\n[concept.Venue]\ndescription = "A venue"\n[concept.Venue.structure]\nname = { type = "text", description = "Its name", required = true }\n[concept.Hall]\ndescription = "A hall"\nrefines = "Venue"\n[pipe.look]\ntype = "PipeSearch"\ndescription = "d"\ninputs = { topic = "Text" }\noutput = "${output}"\nprompt = "$topic"`,
  );

describe('S4-search-output', () => {
  describe('when a PipeSearch outputs something else than a SearchResult', () => {
    it('should report it', () => {
      expect(runRule(searchOutput, search('Text'))).to.deep.equal([
        {
          category: 'pipe_validation',
          message:
            'Pipe \'look\': a PipeSearch outputs "SearchResult" (or a concept refining it), or one object of a structured concept, not "Text".',
          error_type: 'inadequate_output_concept',
          source: 'bundle-1.mthds',
          pipe_code: 'look',
          domain_code: 'news',
          field_path: 'pipe.look.output',
          field_name: 'output',
        },
      ]);
    });
  });

  describe('when it outputs a list of a structured concept', () => {
    it('should report it (a structured search answers one object)', () => {
      expect(runRule(searchOutput, search('Venue[]')).map((item) => item.field_path)).to.deep.equal([
        'pipe.look.output',
      ]);
    });
  });

  describe('when it outputs SearchResult or a refinement, or one structured concept (docs/pipes.md#pipesearch)', () => {
    it('should pass', () => {
      expect(
        runEach(searchOutput, [search('SearchResult'), search('Trend'), search('Venue'), search('Hall')]),
      ).to.deep.equal([]);
    });
  });
});
