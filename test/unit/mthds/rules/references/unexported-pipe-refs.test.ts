import { expect } from 'chai';
import { buildLibrary } from '../../../../../shared/mthds/library/build-library.js';
import { unexportedPipeRefs } from '../../../../../shared/mthds/rules/references/unexported-pipe-refs.js';
import type { PackageExports } from '../../../../../shared/mthds/rules/rule.js';
import { bundle, loadedBundles } from '../harness.js';

const FUNC = (code: string) =>
  `[pipe.${code}]\ntype = "PipeFunc"\ndescription = "d"\ninputs = { data = "Text" }\noutput = "Text"\nfunction_name = "f"`;
const ADDRESS = 'github.com/acme/text-tools';
const LIBRARY = `domain = "cleaning"\nmain_pipe = "tidy"\n\n${[FUNC('tidy'), FUNC('normalize'), FUNC('internal_step')].join('\n')}`;
const CONSUMER = bundle(
  'consumer',
  `[pipe.go]\ntype = "PipeSequence"\ndescription = "d"\ninputs = { data = "Text" }\noutput = "Text"\nsteps = [${[
    'normalize',
    'internal_step',
    'tidy',
  ]
    .map((code, index) => `{ pipe = "${ADDRESS}->cleaning.${code}", result = "r${index}" }`)
    .join(', ')}]`,
);

function run(exports?: PackageExports) {
  const bundles = loadedBundles([CONSUMER, LIBRARY]);
  return unexportedPipeRefs.check({
    bundles,
    library: buildLibrary(bundles),
    mode: 'compat',
    ...(exports ? { exports } : {}),
  });
}

describe('S5-unexported-pipe-refs', () => {
  describe("when a reference names a pipe its package's manifest does not export", () => {
    it('should report it with the reference as written, the main_pipe and the exported pipes passing', () => {
      expect(run({ cleaning: ['normalize'] })).to.deep.equal([
        {
          category: 'pipe_validation',
          message: `Pipe 'go', field 'steps[1].pipe': '${ADDRESS}->cleaning.internal_step' calls pipe 'internal_step', which is not exported by domain 'cleaning' of its package. Add it to [exports.cleaning] pipes in that package's METHODS.toml, or call an exported pipe.`,
          error_type: 'unexported_pipe_dependency',
          source: 'bundle-1.mthds',
          pipe_code: 'go',
          domain_code: 'consumer',
          field_path: 'pipe.go.steps[1].pipe',
          field_name: 'pipe',
          missing_pipe_code: `${ADDRESS}->cleaning.internal_step`,
        },
      ]);
    });
  });

  describe('when no manifest lists the domain, or no exports are known (inline bundles)', () => {
    it('should pass', () => {
      expect(run({ other: [] })).to.deep.equal([]);
      expect(run()).to.deep.equal([]);
    });
  });
});
