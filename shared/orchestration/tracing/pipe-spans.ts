/**
 * A span per pipe run (docs/tracing.md#pipes), made from the runtime's pipe reports (its `RunObserver` port) so the
 * runtime itself knows nothing of tracing: `pipe {code}` from the step's `started` report to its end, under its
 * controller's span (a controller parents its steps) or, for the entry pipe, under the span active when the run's
 * attempt began. Through the observer's `within` hook the step's span is the active one while the pipe runs, so its
 * provider calls and the child jobs it fans out are its children. The steps of a fanned-out child, which the run's
 * worker replays from the child's report, become spans too, with the times the child reported. A step restored from
 * its checkpoint carries `mthds.pipe.replayed` and a `checkpoint.replayed` event; a failed one its `error.type`.
 *
 * Tracing on or off, each pipe run that ends (a replayed one excepted) is timed in `mthds_pipe_duration_seconds`.
 */
import { type Context, context, type Span, SpanStatusCode, trace } from '@opentelemetry/api';
import { type Metrics, serviceTracer, tracingOn } from '../../observability/index.js';
import type { PipeProgress, RunObserver } from '../../runtime/index.js';

/** Time a pipe run that ended in the process metrics (a replayed step made no work and is not timed). */
function timePipe(metrics: Metrics, progress: PipeProgress): void {
  if (progress.kind === 'started' || (progress.kind === 'finished' && progress.replayed)) return;
  metrics.pipeDuration.observe(
    { pipe_type: progress.step.pipeType, outcome: progress.kind },
    progress.durationMs / 1000,
  );
}

/**
 * The observer with the pipe runs timed in the metrics and, while tracing is on, a span per pipe run.
 * @param observer - the run attempt's observer (its events and progress)
 * @param metrics - the process metrics
 * @returns an observer forwarding every report to `observer`
 */
export function instrumentedObserver(observer: RunObserver, metrics: Metrics): RunObserver {
  if (!tracingOn())
    return {
      pipeProgress(progress) {
        timePipe(metrics, progress);
        observer.pipeProgress(progress);
      },
    };
  const root = context.active();
  const steps = new Map<number, Context>();
  const spans = new Map<number, Span>();
  const record = (progress: PipeProgress): void => {
    const { step } = progress;
    if (progress.kind === 'started') {
      const parent = (step.parentStep !== null ? steps.get(step.parentStep) : undefined) ?? root;
      const span = serviceTracer().startSpan(
        `pipe ${step.pipeCode}`,
        {
          startTime: progress.at,
          attributes: {
            'mthds.pipe.code': step.pipeCode,
            'mthds.pipe.type': step.pipeType,
            'mthds.pipe.output_concept': step.outputConcept,
            'mthds.step': step.step,
          },
        },
        parent,
      );
      spans.set(step.step, span);
      steps.set(step.step, trace.setSpan(parent, span));
      return;
    }
    const span = spans.get(step.step);
    if (!span) return;
    spans.delete(step.step);
    steps.delete(step.step);
    span.setAttributes({
      'gen_ai.usage.input_tokens': progress.usage.inputTokens,
      'gen_ai.usage.output_tokens': progress.usage.outputTokens,
    });
    if (progress.kind === 'finished' && progress.replayed) {
      span.setAttribute('mthds.pipe.replayed', true);
      span.addEvent('checkpoint.replayed', undefined, progress.at);
    }
    if (progress.kind === 'failed') {
      span.setAttribute('error.type', progress.error.error_type);
      span.setStatus({ code: SpanStatusCode.ERROR, message: progress.error.error_type });
    }
    span.end(progress.at);
  };
  return {
    pipeProgress(progress) {
      timePipe(metrics, progress);
      record(progress);
      observer.pipeProgress(progress);
    },
    within(step, work) {
      const scope = steps.get(step);
      return scope ? context.with(scope, work) : work();
    },
  };
}
