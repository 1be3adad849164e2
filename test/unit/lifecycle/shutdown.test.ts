/**
 * The shutdown deadline of `shutdownOnSignals` (docs/run-failures.md#shutdown-and-grace-periods) on a fake clock: a
 * release that never
 * ends is cut off exactly at the deadline with status 1, a clean release exits 0 and cancels the deadline, and a second
 * signal exits at once. The spawned processes of test/e2e/shutdown.test.ts show the entry points wire it.
 */
import type { Clock } from '@sinonjs/fake-timers';
import { expect } from 'chai';
import { ResourceStack, shutdownOnSignals } from '../../../shared/lifecycle/index.js';
import { createLogger } from '../../../shared/observability/index.js';
import { installFakeClock, uninstallFakeClock } from '../../helpers/fake-clock.js';

const DEADLINE_MS = 2500;
const SIGNALS = ['SIGTERM', 'SIGINT'] as const;

describe('shutdownOnSignals', () => {
  let clock: Clock;
  let installed: Map<NodeJS.Signals, Set<NodeJS.SignalsListener>>;
  const exits: number[] = [];

  /** Install the handlers on a stack, remembering which listeners are ours to remove. */
  function install(resources: ResourceStack): void {
    const before = new Map(SIGNALS.map((signal) => [signal, new Set(process.listeners(signal))]));
    shutdownOnSignals({
      logger: createLogger('silent', 'test'),
      resources,
      deadlineMs: DEADLINE_MS,
      exit: (code) => exits.push(code),
    });
    installed = new Map(
      SIGNALS.map((signal) => [
        signal,
        new Set(process.listeners(signal).filter((listener) => !before.get(signal)!.has(listener))),
      ]),
    );
  }

  beforeEach(() => {
    exits.length = 0;
    clock = installFakeClock();
  });

  afterEach(() => {
    uninstallFakeClock(clock);
    for (const [signal, listeners] of installed) for (const listener of listeners) process.off(signal, listener);
  });

  it('should exit with status 1 exactly at the deadline when a release never ends', async () => {
    const resources = new ResourceStack();
    resources.defer('stuck', () => new Promise<void>(() => undefined));
    install(resources);
    process.emit('SIGTERM', 'SIGTERM');
    await clock.tickAsync(DEADLINE_MS - 1);
    expect(exits, 'before the deadline').to.deep.equal([]);
    await clock.tickAsync(1);
    expect(exits).to.deep.equal([1]);
  });

  it('should exit with status 0 once everything closed, and never again at the deadline', async () => {
    const resources = new ResourceStack();
    let finish: () => void = () => undefined;
    resources.defer('server', () => new Promise<void>((resolve) => (finish = resolve)));
    install(resources);
    process.emit('SIGINT', 'SIGINT');
    await clock.tickAsync(DEADLINE_MS - 1);
    finish();
    await clock.tickAsync(0);
    expect(exits).to.deep.equal([0]);
    await clock.tickAsync(DEADLINE_MS);
    expect(exits, 'the deadline was cancelled').to.deep.equal([0]);
  });

  it('should exit with status 1 when a release failed', async () => {
    const resources = new ResourceStack();
    resources.defer('pool', () => Promise.reject(new Error('pool broke')));
    install(resources);
    process.emit('SIGTERM', 'SIGTERM');
    await clock.tickAsync(0);
    expect(exits).to.deep.equal([1]);
  });

  it('should exit at once with status 1 on a second signal', async () => {
    const resources = new ResourceStack();
    resources.defer('stuck', () => new Promise<void>(() => undefined));
    install(resources);
    process.emit('SIGTERM', 'SIGTERM');
    await clock.tickAsync(1);
    process.emit('SIGTERM', 'SIGTERM');
    expect(exits).to.deep.equal([1]);
  });
});
