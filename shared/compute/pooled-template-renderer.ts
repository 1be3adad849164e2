/**
 * A {@link TemplateRenderer} that renders templates in an {@link IsolatedPool} of worker threads, so a template that
 * never yields or allocates without bound costs one thread, never the process (docs/isolation.md#templates).
 * Threads stay warm for {@link IDLE_TIMEOUT_MS} after their last render.
 *
 * A straight-line template (no loop, `{% set %}`, macro or call; linear filters; a bounded number of nodes) of at most
 * {@link INLINE_TEMPLATE_MAX_CHARS} characters reading a model of at most {@link INLINE_MODEL_MAX_CHARS} renders on the
 * calling thread: its work is bounded by a small multiple of those sizes, far less than a hand-off to a thread.
 */
import { Jinja2TemplateBudgetError } from '../errors/index.js';
import { siblingModule } from '../lifecycle/index.js';
import type {
  RenderedTemplate,
  RenderModel,
  TemplateRenderer,
  TemplateRenderOptions,
  TemplateRenderTask,
} from '../runtime/index.js';
import { renderModelWithin } from '../runtime/render-model.js';
import { renderTemplateTask } from '../runtime/template-renderer.js';
import { isStraightLine, type TemplateLimits } from '../templating/index.js';
import { type ExceededLimit, IsolatedPool } from './isolated-pool.js';

/** What the render pool is built from: the `templates` settings. */
export interface TemplateRenderPoolSettings {
  /** Largest rendered text, in KiB of characters (`TEMPLATE_MAX_OUTPUT_KIB`). */
  maxOutputKib: number;
  /** Hard wall-clock budget of one render, in ms (`TEMPLATE_RENDER_TIMEOUT_MS`). */
  renderTimeoutMs: number;
  /** Heap of one render thread, in MiB (`TEMPLATE_RENDER_HEAP_MIB`). */
  renderHeapMib: number;
  /** Render threads (`TEMPLATE_RENDER_THREADS`). */
  renderThreads: number;
  /**
   * Renders that may wait for a thread; {@link DEFAULT_RENDER_QUEUE_MAX} by default. A worker process sizes it for its
   * runs in flight (`WORKER_CONCURRENCY` × batch branches), so a busy worker's renders wait instead of failing.
   */
  queueMax?: number;
}

/**
 * How long an idle render thread stays, in ms: renders come in bursts (one per pipe), so threads stay warm between
 * them.
 */
const IDLE_TIMEOUT_MS = 60_000;
/** Renders that may wait for a thread by default (one run renders one template at a time per batch branch). */
const DEFAULT_RENDER_QUEUE_MAX = 1000;
/** Longest a render may wait for a thread, in ms. */
const QUEUE_DEADLINE_MS = 60_000;
/** Seconds a busy answer asks the caller to wait. */
const RETRY_AFTER_SECONDS = 5;
/** Longest straight-line template rendered on the calling thread, in characters (4 Ki). */
const INLINE_TEMPLATE_MAX_CHARS = 4 * 1024;
/**
 * Largest render model a template rendered on the calling thread may read, in characters (32 Ki; see
 * `renderModelWithin`).
 */
const INLINE_MODEL_MAX_CHARS = 32 * 1024;

function rendersInline(template: string, model: RenderModel): boolean {
  return (
    template.length <= INLINE_TEMPLATE_MAX_CHARS &&
    isStraightLine(template) &&
    renderModelWithin(model, INLINE_MODEL_MAX_CHARS)
  );
}

function renderBudgetError(limit: ExceededLimit): Jinja2TemplateBudgetError {
  const what =
    limit.kind === 'time'
      ? `ran longer than ${limit.setting} (${limit.value} ms)`
      : `needed more memory than ${limit.setting} (${limit.value} MiB)`;
  return new Jinja2TemplateBudgetError(`Template budget: the render ${what} and was stopped.`);
}

/** Renders templates in isolated worker threads. */
export class PooledTemplateRenderer implements TemplateRenderer {
  private readonly pool: IsolatedPool;
  private readonly limits: TemplateLimits;

  /**
   * @param settings - output budget, time and heap limits, threads
   */
  constructor(settings: TemplateRenderPoolSettings) {
    this.limits = { maxOutputKib: settings.maxOutputKib };
    this.pool = new IsolatedPool({
      label: 'template render',
      filename: siblingModule('./template-render-task', import.meta.url),
      maxThreads: settings.renderThreads,
      maxQueue: settings.queueMax ?? DEFAULT_RENDER_QUEUE_MAX,
      queueDeadlineMs: QUEUE_DEADLINE_MS,
      timeoutMs: settings.renderTimeoutMs,
      timeoutSetting: 'TEMPLATE_RENDER_TIMEOUT_MS',
      heapMib: settings.renderHeapMib,
      heapSetting: 'TEMPLATE_RENDER_HEAP_MIB',
      idleTimeoutMs: IDLE_TIMEOUT_MS,
      retryAfterSeconds: RETRY_AFTER_SECONDS,
      budgetError: renderBudgetError,
    });
  }

  /**
   * Render in a thread, or on the calling thread for a straight-line template reading a small model.
   * @throws the render's Jinja2Template* errors (422); Jinja2TemplateBudgetError naming `TEMPLATE_RENDER_TIMEOUT_MS`
   *   or `TEMPLATE_RENDER_HEAP_MIB` when the thread was stopped; ServerBusyError (503) when no thread came free
   */
  render(
    template: string,
    model: RenderModel,
    { signal, ...options }: TemplateRenderOptions,
  ): Promise<RenderedTemplate> {
    const task: TemplateRenderTask = { template, model, options, limits: this.limits };
    if (rendersInline(template, model)) {
      try {
        signal?.throwIfAborted();
        return Promise.resolve(renderTemplateTask(task));
      } catch (error) {
        return Promise.reject(error);
      }
    }
    return this.pool.run<RenderedTemplate>('render', task, signal ? { signal } : {});
  }

  /** Stop the render threads (renders under way are rejected). */
  close(): Promise<void> {
    return this.pool.close();
  }
}
