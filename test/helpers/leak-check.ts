/**
 * A mocha root hook plugin (`.mocharc.cjs` `require`): after the last test, the process must be free to exit — no
 * server, socket, timer, child process or worker thread the tests opened may keep it alive. Mocha runs with
 * `exit: false`, so the process ends by itself once every handle is closed; should it still be alive `SETTLE_MS`
 * after the last test, this hook names what holds it and ends it with a failure, so CI never waits on a leak. With
 * `LEAK_TRACE=1` it also prints where each leftover timer was created.
 */
import { createHook } from 'node:async_hooks';

/** Resources Node keeps for itself or for the test runner's own output. */
const EXPECTED = new Set(['TTYWrap', 'PipeWrap', 'FSReqCallback', 'FSReqPromise']);
/** How long closing handles and the last short timers get to finish after the last test, in ms. */
const SETTLE_MS = 10000;

/** Timers alive now, with where each was created; filled only under `LEAK_TRACE=1`. */
const liveTimers = new Map<number, { timer: { hasRef?: () => boolean }; origin: Error }>();
if (process.env.LEAK_TRACE === '1') {
  createHook({
    init(id, type, _trigger, resource) {
      if (type === 'Timeout')
        liveTimers.set(id, { timer: resource as { hasRef?: () => boolean }, origin: new Error('timer') });
    },
    destroy(id) {
      liveTimers.delete(id);
    },
  }).enable();
}

/** The creation stacks of the timers that still keep the process alive (none unless `LEAK_TRACE=1`). */
function timerOrigins(): string[] {
  return [...liveTimers.values()]
    .filter(({ timer }) => timer.hasRef?.() !== false)
    .map(({ origin }) => origin.stack ?? '');
}

function leftovers(): Map<string, number> {
  const counts = new Map<string, number>();
  for (const resource of process.getActiveResourcesInfo()) {
    if (!EXPECTED.has(resource)) counts.set(resource, (counts.get(resource) ?? 0) + 1);
  }
  return counts;
}

/** The root hooks mocha loads from this module. */
export const mochaHooks = {
  afterAll(): void {
    setTimeout(() => {
      for (const origin of timerOrigins()) console.error(`leftover timer created ${origin}`);
      const listing = [...leftovers()].map(([resource, count]) => `${resource} × ${count}`).join(', ');
      console.error(
        `\nThe tests left handles open ${SETTLE_MS} ms after the last one: ${listing}; close every server, client, timer, process and thread a suite starts.`,
      );
      // mocha sets the exit code from the failure count in its own `exit` listener; this one runs after it
      process.on('exit', () => {
        process.exitCode = 1;
      });
      process.exit(1);
    }, SETTLE_MS).unref();
  },
};
