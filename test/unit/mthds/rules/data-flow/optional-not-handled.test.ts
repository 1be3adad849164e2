import { expect } from 'chai';
import { optionalNotHandled } from '../../../../../shared/mthds/rules/data-flow/optional-not-handled.js';
import { bundle, runRule } from '../harness.js';
import { briefFlow } from './optional-flow-fixtures.js';

const ENRICH = '{ pipe = "enrich_hint", result = "enriched" }';
const WRITE = '{ pipe = "write_brief", result = "brief" }';

describe('S5b-optional-not-handled', () => {
  describe('when the last step runs whatever the hint (it takes the enrichment as `?`)', () => {
    it('should pass', () => {
      expect(runRule(optionalNotHandled, briefFlow('Text', [ENRICH, WRITE]))).to.deep.equal([]);
    });
  });

  describe('when the last step lifts on an absent hint and the sequence output is plain', () => {
    it('should refuse the output, naming the origin', () => {
      expect(runRule(optionalNotHandled, briefFlow('Text', [ENRICH]))).to.deep.equal([
        {
          category: 'pipe_validation',
          message:
            "Pipe 'brief_flow': its output 'Text' may be absent ('enrich_hint' is skipped when 'hint' is absent) but is not declared optional. Declare the output 'Text?', force the input that may be absent with '!', or absorb the absence in a step taking it as '?'.",
          error_type: 'optional_not_handled',
          source: 'bundle-1.mthds',
          pipe_code: 'brief_flow',
          domain_code: 'brief',
          field_path: 'pipe.brief_flow.output',
          field_name: 'output',
        },
      ]);
    });
  });

  describe('when the same sequence declares its output `?`, or a plural one (a lifted plural is [])', () => {
    it('should pass', () => {
      expect(runRule(optionalNotHandled, briefFlow('Text?', [ENRICH]))).to.deep.equal([]);
      expect(
        runRule(
          optionalNotHandled,
          briefFlow('Text[]', ['{ pipe = "enrich_hint", result = "enriched", multiple_output = true }']),
        ),
      ).to.deep.equal([]);
    });
  });

  describe('when the sequence ends on a binding step walking a field that is not required', () => {
    const bound = (required: boolean, output: string) =>
      bundle(
        'cards',
        `[concept.Card]\ndescription = "c"\n[concept.Card.structure]\ntitle = { type = "text", description = "t", required = ${required} }\n\n[pipe.title_of]\ntype = "PipeSequence"\ndescription = "d"\ninputs = { card = "Card" }\noutput = "${output}"\nsteps = [{ from = "card.title", result = "title" }]`,
      );

    it('should refuse a plain output and accept a required field or a `?` output', () => {
      expect(runRule(optionalNotHandled, bound(false, 'Text')).map((item) => item.message)).to.deep.equal([
        "Pipe 'title_of': its output 'Text' may be absent (the binding 'card.title' walks the optional field 'title' of 'Card') but is not declared optional. Declare the output 'Text?', force the input that may be absent with '!', or absorb the absence in a step taking it as '?'.",
      ]);
      expect(runRule(optionalNotHandled, bound(true, 'Text'))).to.deep.equal([]);
      expect(runRule(optionalNotHandled, bound(false, 'Text?'))).to.deep.equal([]);
    });
  });
});
