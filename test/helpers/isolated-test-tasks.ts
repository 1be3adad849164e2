/**
 * Worker module for the isolated-pool tests: operations that answer (their input, or the thread's id), fail with a
 * typed error, sleep, spin, eat memory, or reserve heap for an allocation.
 */
import { threadId } from 'node:worker_threads';
import { isolatedTaskHandler, reserveHeap } from '../../shared/compute/index.js';
import { Jinja2TemplateSyntaxError } from '../../shared/errors/index.js';

export default isolatedTaskHandler({
  echo: (input: unknown) => input,
  thread: () => threadId,
  typed: (message: string) => {
    throw new Jinja2TemplateSyntaxError(message);
  },
  spin: () => {
    for (;;) {
      // a render that never yields
    }
  },
  sleep: (ms: number) => new Promise((resolve) => setTimeout(() => resolve(ms), ms)),
  reserve: (mib: number) => {
    reserveHeap(mib * 1024 * 1024);
    return threadId;
  },
  grow: () => {
    const hoard: string[] = [];
    for (let index = 0; ; index += 1) hoard.push(`${index}`.repeat(1024));
  },
});
