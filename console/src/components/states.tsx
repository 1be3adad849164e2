/**
 * The designed states every page shows instead of raw output: loading, empty, and an error rendered from its problem
 * document (title, detail, error type, the failing pipe when there is one, and the request id to quote).
 */
import type { ReactNode } from 'react';
import { ApiError, type Problem } from '../api';

/** A page or panel still waiting for its data. */
export function Loading({ what }: { what: string }) {
  return (
    <output className="state state-loading" aria-live="polite">
      <span className="spinner" aria-hidden="true" />
      Loading {what}…
    </output>
  );
}

/** Nothing to show yet, and what to do about it. */
export function Empty({ title, children }: { title: string; children?: ReactNode }) {
  return (
    <div className="state state-empty">
      <h3>{title}</h3>
      {children}
    </div>
  );
}

/** The problem document of a failure, or the message of an unexpected error. */
export function ProblemView({ error }: { error: unknown }) {
  const problem: Problem =
    error instanceof ApiError
      ? error.problem
      : { title: 'Something went wrong', detail: error instanceof Error ? error.message : String(error) };
  const pipe = typeof problem['pipe_code'] === 'string' ? problem['pipe_code'] : undefined;
  return (
    <div className="state state-error" role="alert">
      <h3>
        {problem.title ?? 'Error'}
        {problem.status ? <span className="muted"> ({problem.status})</span> : null}
      </h3>
      {problem.detail ? <p className="detail">{problem.detail}</p> : null}
      <dl className="facts">
        {problem.error_type ? (
          <>
            <dt>Error type</dt>
            <dd>
              {problem.type ? (
                <a href={problem.type} target="_blank" rel="noreferrer">
                  {problem.error_type}
                </a>
              ) : (
                problem.error_type
              )}
            </dd>
          </>
        ) : null}
        {pipe ? (
          <>
            <dt>Failing pipe</dt>
            <dd>{pipe}</dd>
          </>
        ) : null}
        {problem.request_id ? (
          <>
            <dt>Request id</dt>
            <dd>
              <code>{problem.request_id}</code>
            </dd>
          </>
        ) : null}
      </dl>
    </div>
  );
}
