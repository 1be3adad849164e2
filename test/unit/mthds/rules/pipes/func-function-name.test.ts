import { expect } from 'chai';
import { funcFunctionName } from '../../../../../shared/mthds/rules/pipes/func-function-name.js';
import { bundle, runRule } from '../harness.js';

const func = (name: string) =>
  bundle('calc', `[pipe.add]\ntype = "PipeFunc"\ndescription = "d"\noutput = "Number"\nfunction_name = "${name}"`);

describe('S4-func-function-name', () => {
  describe('when function_name is blank', () => {
    it('should report it', () => {
      expect(runRule(funcFunctionName, func('  '))).to.deep.equal([
        {
          category: 'blueprint_validation',
          message: "Pipe 'add', field 'function_name': name a registered function (it is empty).",
          error_type: 'invalid_pipe_field',
          source: 'bundle-1.mthds',
          pipe_code: 'add',
          domain_code: 'calc',
          field_path: 'pipe.add.function_name',
          field_name: 'function_name',
        },
      ]);
    });
  });

  describe('when it names a function', () => {
    it('should pass', () => {
      expect(runRule(funcFunctionName, func('add_numbers'))).to.deep.equal([]);
    });
  });
});
