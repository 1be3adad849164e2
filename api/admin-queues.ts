/**
 * Bull Board, the queue dashboard, mounted at `/admin/queues` behind the operator credential, which a browser gives as
 * the password of HTTP Basic (`middleware/operator-auth.ts`); `ADMIN_QUEUES_ENABLED=false` turns it off. Failed
 * callback jobs there are the dead-lettered deliveries. Bull Board is loaded on the dashboard's first request, not at
 * boot: its modules take longer to load than the rest of the API's routes.
 *
 * Read-only by default (`ADMIN_QUEUES_READ_ONLY=true`): Bull Board's own read-only mode hides and refuses its actions,
 * and every request but `GET` and `HEAD` is refused here first with 403 `QueueDashboardReadOnly`, so no route of the
 * dashboard, present or added by a later Bull Board, can change a queue. Even with writes allowed, a job the
 * dashboard adds or edits cannot act as a run's owner: workers run only sealed jobs of accepted runs
 * (docs/run-ownership.md#queue-jobs).
 */
import type { Queue } from 'bullmq';
import type { RequestHandler, Router } from 'express';
import { QueueDashboardReadOnly } from '../shared/errors/index.js';

/** Where the dashboard is served. */
export const ADMIN_QUEUES_PATH = '/admin/queues';

/** Methods a read-only dashboard serves. */
const READ_METHODS = new Set(['GET', 'HEAD']);

async function dashboardRouter(queues: readonly Queue[], readOnly: boolean): Promise<Router> {
  const [{ createBullBoard }, { BullMQAdapter }, { ExpressAdapter }] = await Promise.all([
    import('@bull-board/api'),
    import('@bull-board/api/bullMQAdapter'),
    import('@bull-board/express'),
  ]);
  const adapter = new ExpressAdapter();
  adapter.setBasePath(ADMIN_QUEUES_PATH);
  createBullBoard({
    // the queues of run partitions share their names: each is shown under its partition's prefix
    queues: queues.map(
      (queue) =>
        new BullMQAdapter(queue, {
          readOnlyMode: readOnly,
          ...(queues.filter((other) => other.name === queue.name).length > 1
            ? { prefix: `${queue.opts.prefix}:` }
            : {}),
        }),
    ),
    serverAdapter: adapter,
  });
  return adapter.getRouter() as Router;
}

/**
 * The dashboard's handler: builds Bull Board's router on the first request and hands every request to it.
 * @param queues - the queues to show
 * @param options - `readOnly`: refuse every change (`ADMIN_QUEUES_READ_ONLY`)
 * @returns a handler that passes a failure to load the dashboard to the problem handler (500), and, when read-only,
 *   throws QueueDashboardReadOnly (403) on any method but `GET` and `HEAD`
 */
export function adminQueuesRouter(queues: readonly Queue[], options: { readOnly: boolean }): RequestHandler {
  let router: Promise<Router> | undefined;
  return (req, res, next) => {
    if (options.readOnly && !READ_METHODS.has(req.method))
      throw new QueueDashboardReadOnly(
        `The queue dashboard is read-only (ADMIN_QUEUES_READ_ONLY=true): a ${req.method} would change a queue. Set ADMIN_QUEUES_READ_ONLY=false on the API to allow its actions.`,
      );
    router ??= dashboardRouter(queues, options.readOnly);
    router.then((dashboard) => dashboard(req, res, next), next);
  };
}
