import { expect } from 'chai';
import { inputPresenceVacuous } from '../../../../../shared/mthds/rules/data-flow/input-presence-vacuous.js';
import { runRule } from '../harness.js';

const method = (required: boolean, spec = 'Profile') =>
  `domain = "people"\nmain_pipe = "greet"\n\n[concept.Profile]\ndescription = "p"\n[concept.Profile.structure]\nname = { type = "text", description = "n", required = ${required} }\n\n[pipe.greet]\ntype = "PipeLLM"\ndescription = "d"\ninputs = { profile = "${spec}" }\noutput = "Text"\nprompt = "Greet @?profile"`;

describe('S5b-input-presence-vacuous', () => {
  describe('when the method input concept has a required field, or the input is optional', () => {
    it('should pass', () => {
      expect(runRule(inputPresenceVacuous, method(true))).to.deep.equal([]);
      expect(runRule(inputPresenceVacuous, method(false, 'Profile?'))).to.deep.equal([]);
    });
  });

  describe('when a required method input has a concept with no required field', () => {
    it('should warn on the input', () => {
      expect(runRule(inputPresenceVacuous, method(false))).to.deep.equal([
        {
          category: 'pipe_validation',
          message:
            "Pipe 'greet', input 'profile': the method input must be supplied, but its concept 'Profile' declares no required field, so the empty object satisfies it. Mark the input '?', or give the concept a required field.",
          error_type: 'input_presence_vacuous',
          source: 'bundle-1.mthds',
          pipe_code: 'greet',
          domain_code: 'people',
          field_path: 'pipe.greet.inputs.profile',
          field_name: 'profile',
          variable_names: ['profile'],
        },
      ]);
    });
  });
});
