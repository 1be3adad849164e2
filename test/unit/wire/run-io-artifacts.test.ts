/**
 * The I/O artifacts of a run's library (shared/wire/run-io-artifacts.ts, docs/api.md#run-results): built once per
 * library and shared by its runs; another library of the same sources gets artifacts of its own, equal to them.
 */
import { expect } from 'chai';
import type { Library } from '../../../shared/mthds/index.js';
import { runIOArtifacts } from '../../../shared/wire/index.js';
import { validLibrary } from '../../helpers/library.js';

const BUNDLE = `
domain = "echo"
description = "Echoes"
main_pipe = "echo_text"

[pipe.echo_text]
type = "PipeLLM"
description = "Echo a text"
inputs = { text = "Text" }
output = "Text"
prompt = "Repeat: $text"
`;

/** A library of its own, built anew at each call. */
function library(): Library {
  return validLibrary([{ source: 'echo.mthds', content: BUNDLE }], { mode: 'compat' });
}

describe('runIOArtifacts (shared/wire/run-io-artifacts.ts)', () => {
  it('should build the artifacts of a library once and hand the same ones to its later runs', () => {
    const shared = library();
    const first = runIOArtifacts(shared);
    expect(first.pipe_io_artifacts_error).to.equal(null);
    expect(Object.keys(first.pipe_io_contracts ?? {})).to.deep.equal(['echo.echo_text']);
    expect(runIOArtifacts(shared)).to.equal(first);
  });

  it('should build artifacts of its own, equal ones, for another library of the same sources', () => {
    const first = runIOArtifacts(library());
    const second = runIOArtifacts(library());
    expect(second).to.not.equal(first);
    expect(second).to.deep.equal(first);
  });
});
