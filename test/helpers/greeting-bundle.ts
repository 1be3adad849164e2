/**
 * A small bundle of the project's own for orchestration tests: one PipeLLM greeting a name, as the main pipe.
 */

import type { RunBundleChecker, RunCheckRequest, RunSubmission } from '../../shared/orchestration/index.js';
import { checkRunInputs, loadRunLibrary, selectRunPipe } from '../../shared/runtime/index.js';

/** The bundle text: domain `greet`, main pipe `greet_person` (input `name`: Text → Text). */
export const GREETING_BUNDLE = `
domain = "greet"
description = "Greetings"
main_pipe = "greet_person"

[pipe.greet_person]
type = "PipeLLM"
description = "Greet a person"
inputs = { name = "Text" }
output = "Text"
prompt = "Say hello to $name."
`;

/**
 * A bundle whose run fails on its second pipe: domain `filing`, main pipe `greet_and_file`, a sequence that greets
 * (`greet_person`, PipeLLM) then files the greeting (`file_greeting`, a PipeFunc no runtime registers: it fails with
 * PipeFeatureNotSupportedError when it runs, after the bundle and the inputs passed every check).
 */
export const FILING_BUNDLE = `
domain = "filing"
description = "Greetings, filed"
main_pipe = "greet_and_file"

[pipe.greet_and_file]
type = "PipeSequence"
description = "Greet a person, then file the greeting"
inputs = { name = "Text" }
output = "Text"
steps = [
  { pipe = "greet_person", result = "greeting" },
  { pipe = "file_greeting" },
]

[pipe.greet_person]
type = "PipeLLM"
description = "Greet a person"
inputs = { name = "Text" }
output = "Text"
prompt = "Say hello to $name."

[pipe.file_greeting]
type = "PipeFunc"
description = "File the greeting"
inputs = { greeting = "Text" }
output = "Text"
function_name = "file_greeting"
`;

/**
 * A run bundle checker that loads and checks on the calling thread (what the API does in its diagnostics threads).
 * @returns a checker throwing the runtime's ValidateBundleError / PipeNotFoundError and input errors
 */
export function inThreadBundleChecker(): RunBundleChecker {
  const load = (run: RunCheckRequest) => {
    const library = loadRunLibrary(run.sources);
    checkRunInputs(library, selectRunPipe(library, run.pipeCode), run.inputs);
    return library;
  };
  return {
    async check(run) {
      load(run);
    },
    async load(run) {
      return load(run);
    },
  };
}

/**
 * A submission of the greeting bundle: run `run-1` of `alice` greeting Ada, no callbacks, no provenance.
 * @param overrides - the fields a test sets
 */
export function greetingSubmission(overrides: Partial<RunSubmission> = {}): RunSubmission {
  return {
    sources: [{ content: GREETING_BUNDLE, source: null }],
    pipeCode: null,
    inputs: { name: 'Ada' },
    outputName: null,
    outputMultiplicity: null,
    dynamicOutputConceptRef: null,
    pipelineRunId: 'run-1',
    requestId: 'req-1',
    owner: 'alice',
    storageScope: 'alice',
    callbackUrls: [],
    methodProvenance: null,
    ...overrides,
  };
}
