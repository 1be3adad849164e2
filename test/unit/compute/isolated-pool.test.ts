import type { Clock } from '@sinonjs/fake-timers';
import { expect } from 'chai';
import { ABANDON_GRACE_MS, IsolatedPool, type IsolatedPoolOptions } from '../../../shared/compute/index.js';
import {
  ComputeBudgetExceededError,
  Jinja2TemplateBudgetError,
  MthdsError,
  renderProblem,
  ServerBusyError,
} from '../../../shared/errors/index.js';
import { installFakeClock, uninstallFakeClock } from '../../helpers/fake-clock.js';
import { pollUntil } from '../../helpers/poll.js';

const WORKER = new URL('../../helpers/isolated-test-tasks.ts', import.meta.url);

function pool(overrides: Partial<IsolatedPoolOptions> = {}): IsolatedPool {
  return new IsolatedPool({
    label: 'test',
    filename: WORKER,
    maxThreads: 1,
    maxQueue: 4,
    queueDeadlineMs: 5000,
    timeoutMs: 1000,
    timeoutSetting: 'TEST_TIMEOUT_MS',
    heapMib: 64,
    heapSetting: 'TEST_HEAP_MIB',
    idleTimeoutMs: 1000,
    retryAfterSeconds: 2,
    ...overrides,
  });
}

/**
 * The test's side of a task's gate (`isolated-test-tasks.ts`): learn that the task runs, and release a `hold` task.
 */
class TaskGate {
  /** The gate, passed to the task as its input. */
  readonly buffer = new SharedArrayBuffer(2 * Int32Array.BYTES_PER_ELEMENT);
  private readonly cells = new Int32Array(this.buffer);

  /** Resolves once the task runs in its thread: checked at each turn of the event loop, so it needs no timer. */
  async started(): Promise<void> {
    while (Atomics.load(this.cells, 0) !== 1) await new Promise((resolve) => setImmediate(resolve));
  }

  /** Let a `hold` task return. */
  release(): void {
    Atomics.store(this.cells, 1, 1);
    Atomics.notify(this.cells, 1);
  }
}

async function rejection(promise: Promise<unknown>): Promise<unknown> {
  try {
    await promise;
  } catch (error) {
    return error;
  }
  throw new Error('expected a rejection');
}

describe('IsolatedPool (worker threads with hard limits)', function () {
  this.timeout(30000);
  const opened: IsolatedPool[] = [];
  const open = (overrides: Partial<IsolatedPoolOptions> = {}) => {
    const created = pool(overrides);
    opened.push(created);
    return created;
  };
  afterEach(async () => {
    await Promise.all(opened.splice(0).map((each) => each.close()));
  });

  it('should answer an operation with its value', async () => {
    expect(await open().run('echo', { a: [1, 'two'] })).to.deep.equal({ a: [1, 'two'] });
  });

  it('should rebuild a typed error thrown in the thread with its error_type and message', async () => {
    const error = await rejection(open().run('typed', 'bad tag'));
    expect(error).to.be.instanceOf(MthdsError);
    expect((error as MthdsError).error_type).to.equal('Jinja2TemplateSyntaxError');
    expect((error as MthdsError).message).to.equal('bad tag');
  });

  it('should stop a task that never yields at its time budget, and keep serving', async () => {
    const isolated = open({ timeoutMs: 300 });
    const error = await rejection(isolated.run('spin', null));
    expect(error).to.be.instanceOf(ComputeBudgetExceededError);
    expect((error as Error).message).to.equal(
      'The test needed more than 300 ms (TEST_TIMEOUT_MS) and was stopped; send a smaller or simpler request.',
    );
    expect(await isolated.run('echo', 'after')).to.equal('after');
  });

  it('should stop a task that outgrows its heap without touching the process', async () => {
    const isolated = open({ heapMib: 32, timeoutMs: 20000 });
    const before = process.memoryUsage().heapUsed;
    const error = await rejection(isolated.run('grow', null));
    expect(error).to.be.instanceOf(ComputeBudgetExceededError);
    expect((error as Error).message).to.contain('more than 32 MiB of memory (TEST_HEAP_MIB)');
    expect(process.memoryUsage().heapUsed - before).to.be.below(64 * 1024 * 1024);
    expect(await isolated.run('echo', 'alive')).to.equal('alive');
  });

  it('should refuse an allocation its heap cannot hold with the memory limit, keeping the thread', async () => {
    const isolated = open({ heapMib: 32, timeoutMs: 20000 });
    const thread = await isolated.run<number>('reserve', 1);
    const error = await rejection(isolated.run('reserve', 256));
    expect(error).to.be.instanceOf(ComputeBudgetExceededError);
    expect((error as Error).message).to.equal(
      'The test needed more than 32 MiB of memory (TEST_HEAP_MIB) and was stopped; send a smaller or simpler request.',
    );
    expect(await isolated.run('thread', null)).to.equal(thread);
  });

  it('should report a limit with the pool-specific error when one is given', async () => {
    const isolated = open({
      timeoutMs: 200,
      budgetError: (limit) => new Jinja2TemplateBudgetError(`render over ${limit.value} ms (${limit.setting})`),
    });
    const error = await rejection(isolated.run('spin', null));
    expect(error).to.be.instanceOf(Jinja2TemplateBudgetError);
    expect((error as Error).message).to.equal('render over 200 ms (TEST_TIMEOUT_MS)');
  });

  it('should answer 503 ServerBusyError with Retry-After when the queue is full', async () => {
    const isolated = open({ maxQueue: 1, timeoutMs: 5000 });
    await isolated.run('echo', 'warm');
    const running = isolated.run('sleep', 400);
    const waiting = isolated.run('sleep', 10);
    const refused = await rejection(isolated.run('sleep', 10));
    expect(refused).to.be.instanceOf(ServerBusyError);
    const problem = renderProblem(refused, {
      docsUrl: 'https://docs.example',
      instance: '/v1/validate',
      requestId: 'r',
      disclosure: 'verbose',
    });
    expect(problem.status).to.equal(503);
    expect(problem.headers).to.deep.equal({ 'Retry-After': '2' });
    expect(problem.body.retryable).to.equal(true);
    expect(problem.body.detail).to.equal(
      'The server is busy: every test thread is taken and its wait queue (1) is full. Retry in 2 s.',
    );
    expect(await running).to.equal(400);
    expect(await waiting).to.equal(10);
  });

  it('should answer ServerBusyError when a task waits longer than the queue deadline', async () => {
    const isolated = open({ queueDeadlineMs: 400, timeoutMs: 5000 });
    // a loaded machine may take longer than the deadline to start the thread: warm it until it answers
    await pollUntil(
      () =>
        isolated.run('echo', 'warm').then(
          () => true,
          () => false,
        ),
      (warm) => warm,
    );
    const gate = new TaskGate();
    const running = isolated.run('hold', gate.buffer);
    const error = await rejection(isolated.run('echo', 'late'));
    expect(error).to.be.instanceOf(ServerBusyError);
    expect((error as Error).message).to.equal(
      'The server is busy: no test thread came free within 400 ms. Retry in 2 s.',
    );
    gate.release();
    expect(await running).to.equal('released');
  });

  describe('when the caller abandons a task (the client went away)', () => {
    // the grace is a timer of this process: fake (from before the pool starts, so that every timer of the pool is),
    // so a task ends within it or outlives it as the test says
    let clock: Clock | undefined;
    afterEach(() => {
      if (clock) uninstallFakeClock(clock);
      clock = undefined;
    });

    it('should answer the caller at once with its reason and stop a task still running after the grace', async () => {
      clock = installFakeClock();
      const isolated = open({ timeoutMs: 10_000 });
      const before = await isolated.run<number>('thread', null);
      const gate = new TaskGate();
      const controller = new AbortController();
      const reason = new Error('client went away');
      const spinning = isolated.run('spin', gate.buffer, { signal: controller.signal });
      await gate.started();
      controller.abort(reason);
      expect(await rejection(spinning)).to.equal(reason);
      await clock.tickAsync(ABANDON_GRACE_MS);
      expect(await isolated.run('echo', 'next')).to.equal('next');
      expect(await isolated.run<number>('thread', null)).to.not.equal(before);
    });

    it('should let a running task that ends within the grace finish on its thread, which stays warm', async () => {
      clock = installFakeClock();
      const isolated = open({ timeoutMs: 10_000 });
      const before = await isolated.run<number>('thread', null);
      const gate = new TaskGate();
      const controller = new AbortController();
      const reason = new Error('client went away');
      const abandoned = isolated.run('hold', gate.buffer, { signal: controller.signal });
      await gate.started();
      controller.abort(reason);
      expect(await rejection(abandoned)).to.equal(reason);
      await clock.tickAsync(ABANDON_GRACE_MS - 1);
      gate.release();
      expect(await isolated.run<number>('thread', null)).to.equal(before);
    });

    it('should drop a task still waiting for a thread without touching the running one', async () => {
      const isolated = open({ timeoutMs: 10_000 });
      const before = await isolated.run<number>('thread', null);
      const running = isolated.run('sleep', 300);
      const controller = new AbortController();
      const waiting = isolated.run('echo', 'never', { signal: controller.signal });
      controller.abort(new Error('gone'));
      expect(((await rejection(waiting)) as Error).message).to.equal('gone');
      expect(await running).to.equal(300);
      expect(await isolated.run<number>('thread', null)).to.equal(before);
    });
  });
});
