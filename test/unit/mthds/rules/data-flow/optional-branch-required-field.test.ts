import { expect } from 'chai';
import { optionalBranchRequiredField } from '../../../../../shared/mthds/rules/data-flow/optional-branch-required-field.js';
import { bundle, runRule } from '../harness.js';

const parallel = (required: boolean) =>
  bundle(
    'brief',
    `[concept.Pack]\ndescription = "p"\n[concept.Pack.structure]\ntopic = { type = "text", description = "t", required = true }\nenriched = { type = "text", description = "e", required = ${required} }

[pipe.both]
type = "PipeParallel"
description = "d"
inputs = { topic = "Text", hint = "Text?" }
output = "Pack"
branches = [
  { pipe = "echo_topic", result = "topic" },
  { pipe = "enrich_hint", result = "enriched" },
]

[pipe.echo_topic]
type = "PipeCompose"
description = "d"
inputs = { topic = "Text" }
output = "Text"
template = "{{ topic }}"

[pipe.enrich_hint]
type = "PipeLLM"
description = "d"
inputs = { hint = "Text" }
output = "Text"
prompt = "Enrich $hint"`,
  );

describe('S5b-optional-branch-required-field', () => {
  describe('when the branch that may be absent feeds a field that is not required', () => {
    it('should pass', () => {
      expect(runRule(optionalBranchRequiredField, parallel(false))).to.deep.equal([]);
    });
  });

  describe('when it feeds a required field', () => {
    it('should refuse the branch, naming the field', () => {
      expect(runRule(optionalBranchRequiredField, parallel(true))).to.deep.equal([
        {
          category: 'pipe_validation',
          message:
            "Pipe 'both': branch 'enriched' may be absent ('enrich_hint' is skipped when 'hint' is absent) but feeds the required field 'enriched' of the output. Make the field not required, or make the branch's value always present.",
          error_type: 'optional_branch_required_field',
          source: 'bundle-1.mthds',
          pipe_code: 'both',
          domain_code: 'brief',
          field_path: 'pipe.both.branches',
          field_name: 'branches',
          variable_names: ['enriched'],
        },
      ]);
    });
  });
});
