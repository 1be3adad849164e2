/**
 * Bull Board, the queue dashboard, mounted at `/admin/queues` behind the API's token, which a browser gives as the
 * password of HTTP Basic (`middleware/admin-auth.ts`); `ADMIN_QUEUES_ENABLED=false` turns it off. Failed callback jobs there are the dead-lettered deliveries. Bull Board
 * is loaded on the dashboard's first request, not at boot: its modules take longer to load than the rest of the API's
 * routes.
 */
import type { Queue } from 'bullmq';
import type { RequestHandler, Router } from 'express';

/** Where the dashboard is served. */
export const ADMIN_QUEUES_PATH = '/admin/queues';

async function dashboardRouter(queues: readonly Queue[]): Promise<Router> {
  const [{ createBullBoard }, { BullMQAdapter }, { ExpressAdapter }] = await Promise.all([
    import('@bull-board/api'),
    import('@bull-board/api/bullMQAdapter'),
    import('@bull-board/express'),
  ]);
  const adapter = new ExpressAdapter();
  adapter.setBasePath(ADMIN_QUEUES_PATH);
  createBullBoard({ queues: queues.map((queue) => new BullMQAdapter(queue)), serverAdapter: adapter });
  return adapter.getRouter() as Router;
}

/**
 * The dashboard's handler: builds Bull Board's router on the first request and hands every request to it.
 * @param queues - the queues to show
 * @returns a handler that passes a failure to load the dashboard to the problem handler (500)
 */
export function adminQueuesRouter(queues: readonly Queue[]): RequestHandler {
  let router: Promise<Router> | undefined;
  return (req, res, next) => {
    router ??= dashboardRouter(queues);
    router.then((dashboard) => dashboard(req, res, next), next);
  };
}
