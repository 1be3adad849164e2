/**
 * Bull Board, the queue dashboard, mounted at `/admin/queues` behind the API's authentication
 * (`ADMIN_QUEUES_ENABLED=false` turns it off). Failed callback jobs there are the dead-lettered deliveries.
 */
import { createBullBoard } from '@bull-board/api';
import { BullMQAdapter } from '@bull-board/api/bullMQAdapter';
import { ExpressAdapter } from '@bull-board/express';
import type { Queue } from 'bullmq';
import type { Router } from 'express';

/** Where the dashboard is served. */
export const ADMIN_QUEUES_PATH = '/admin/queues';

/**
 * Build the dashboard router.
 * @param queues - the queues to show
 */
export function adminQueuesRouter(queues: Queue[]): Router {
  const adapter = new ExpressAdapter();
  adapter.setBasePath(ADMIN_QUEUES_PATH);
  createBullBoard({ queues: queues.map((queue) => new BullMQAdapter(queue)), serverAdapter: adapter });
  return adapter.getRouter() as Router;
}
