import { expect } from 'chai';
import { constructFromOrTemplate } from '../../../../../shared/mthds/rules/pipes/construct-from-or-template.js';
import { bundle, runRule } from '../harness.js';

const compose = (construct: string) =>
  bundle(
    'reports',
    `[pipe.build]\ntype = "PipeCompose"\ndescription = "d"\ninputs = { a = "Text" }\noutput = "Text"\n[pipe.build.construct]\n${construct}`,
  );

describe('S4-construct-from-or-template', () => {
  describe('when a construct field sets from and template, at any depth', () => {
    it('should report each', () => {
      const items = runRule(
        constructFromOrTemplate,
        compose('title = { from = "a", template = "$a" }\nmeta = { inner = { from = "a", template = "x" } }'),
      );
      expect(items[0]).to.deep.equal({
        category: 'blueprint_validation',
        message: "Pipe 'build', field 'construct.title': a construct field takes from or template, not both.",
        error_type: 'invalid_pipe_field',
        source: 'bundle-1.mthds',
        pipe_code: 'build',
        domain_code: 'reports',
        field_path: 'pipe.build.construct.title',
        field_name: 'title',
      });
      expect(items.map((item) => item.field_path)).to.deep.equal([
        'pipe.build.construct.title',
        'pipe.build.construct.meta.inner',
      ]);
    });
  });

  describe('when each field takes one method', () => {
    it('should pass', () => {
      expect(
        runRule(
          constructFromOrTemplate,
          compose('title = { from = "a" }\nbody = { template = "$a" }\nfixed = "x"\nmeta = { inner = { from = "a" } }'),
        ),
      ).to.deep.equal([]);
    });
  });
});
