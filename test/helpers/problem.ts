/**
 * The problem document a caller would receive for a thrown error (the API's own `renderProblem`, verbose disclosure),
 * for tests of code below the HTTP layer that promise a status.
 */
import { type ProblemDocument, renderProblem } from '../../shared/errors/index.js';

/**
 * Render what a handler would answer for `thrown`.
 * @param thrown - anything thrown
 * @returns the body; its `status` is the HTTP status
 */
export function problemFor(thrown: unknown): ProblemDocument {
  return renderProblem(thrown, {
    instance: '/test',
    requestId: 'test-request',
    docsUrl: 'https://docs.example',
    disclosure: 'verbose',
  }).body;
}
