/**
 * A small bundle of the project's own for orchestration tests: one PipeLLM greeting a name, as the main pipe.
 */

import type { RunBundleChecker, RunSubmission } from '../../shared/orchestration/index.js';
import { loadRunLibrary, selectRunPipe } from '../../shared/runtime/index.js';

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
 * A run bundle checker that loads and checks on the calling thread (what the API does in its diagnostics threads).
 * @returns a checker throwing the runtime's ValidateBundleError / PipeNotFoundError
 */
export function inThreadBundleChecker(): RunBundleChecker {
  return {
    async check(run) {
      selectRunPipe(loadRunLibrary(run.sources), run.pipeCode);
    },
    async load(run) {
      const library = loadRunLibrary(run.sources);
      selectRunPipe(library, run.pipeCode);
      return library;
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
