/**
 * Fake time for tests of code that reads the global clocks (`Date`, `performance.now`) and waits on timers: the
 * test moves time itself (`tickAsync`), so a wait of seconds takes none and every duration it measures is exact.
 * Built on `@sinonjs/fake-timers`; named imports of `node:timers` and `node:timers/promises` (`setTimeout as sleep`)
 * are faked too.
 */
import { syncBuiltinESMExports } from 'node:module';
import { type Clock, type FakeMethod, install } from '@sinonjs/fake-timers';

/** What is faked: the clocks and the timers; never `queueMicrotask`, `nextTick` or immediates (I/O still runs). */
const FAKED = [
  'Date',
  'performance',
  'setTimeout',
  'clearTimeout',
  'setInterval',
  'clearInterval',
] satisfies FakeMethod[];

/**
 * Replace the clocks and timers of this process until {@link uninstallFakeClock}.
 * @param now - the fake epoch time to start at, ms; the real time by default
 * @returns the clock to move (`await clock.tickAsync(ms)` runs every timer due meanwhile)
 */
export function installFakeClock(now = Date.now()): Clock {
  const clock = install({ now, toFake: FAKED });
  syncBuiltinESMExports();
  return clock;
}

/**
 * Put the real clocks and timers back (pending fake timers are dropped).
 * @param clock - the clock {@link installFakeClock} returned
 */
export function uninstallFakeClock(clock: Clock): void {
  clock.uninstall();
  syncBuiltinESMExports();
}
