/**
 * The holds of a process's runs and their deadlines (shared/orchestration/control, docs/cancellation.md): a stop
 * aborts every hold of its run's submission with the stop's error, never another submission of the same run id, and
 * is remembered so a piece taken after it never starts; a deadline fires once, at its time.
 */
import type { Clock } from '@sinonjs/fake-timers';
import { expect } from 'chai';
import { RunCancelledError, RunTimedOutError } from '../../../shared/errors/index.js';
import {
  armDeadline,
  RunControls,
  type RunRef,
  runDeadline,
  stopStateOf,
} from '../../../shared/orchestration/index.js';
import { installFakeClock, uninstallFakeClock } from '../../helpers/fake-clock.js';

const RUN: RunRef = { pipelineRunId: 'run-1', requestId: 'req-1', createdAt: 1_000 };

describe('run controls (shared/orchestration/control)', () => {
  describe('a hold', () => {
    it('should abort every hold of the stopped run with the stop’s error, and no other run’s', () => {
      const controls = new RunControls();
      const attempt = controls.hold(RUN);
      const child = controls.hold(RUN);
      const other = controls.hold({ ...RUN, pipelineRunId: 'run-2' });
      const resubmitted = controls.hold({ ...RUN, requestId: 'req-2', createdAt: 2_000 });
      controls.abort([RUN], 'CANCELLED');
      expect(attempt.signal.aborted).to.equal(true);
      expect(child.signal.aborted).to.equal(true);
      expect(attempt.signal.reason).to.be.instanceOf(RunCancelledError);
      expect((attempt.signal.reason as Error).message).to.equal(
        "Run 'run-1' was cancelled by its owner before it ended.",
      );
      expect(stopStateOf(attempt.signal.reason)).to.equal('CANCELLED');
      expect(other.signal.aborted).to.equal(false);
      expect(resubmitted.signal.aborted).to.equal(false);
    });

    it('should be aborted at once when its run was stopped before it was taken', () => {
      const controls = new RunControls();
      controls.abort([RUN], 'TIMED_OUT');
      const late = controls.hold(RUN);
      expect(late.signal.aborted).to.equal(true);
      expect(late.signal.reason).to.be.instanceOf(RunTimedOutError);
      expect(stopStateOf(late.signal.reason)).to.equal('TIMED_OUT');
    });

    it('should abort with its host’s signal, with the host’s reason, until it is released', () => {
      const controls = new RunControls();
      const closing = new AbortController();
      const attempt = controls.hold(RUN, closing.signal);
      closing.abort(new Error('the worker is closing'));
      expect(attempt.signal.aborted).to.equal(true);
      expect((attempt.signal.reason as Error).message).to.equal('the worker is closing');
      expect(stopStateOf(attempt.signal.reason)).to.equal(undefined);

      const host = new AbortController();
      const released = controls.hold(RUN, host.signal);
      released.release();
      host.abort(new Error('after the release'));
      expect(released.signal.aborted, 'a released hold no longer follows its host').to.equal(false);
    });

    it('should be aborted at once when its host’s signal already was', () => {
      const controls = new RunControls();
      const host = AbortSignal.abort(new Error('gone before the hold'));
      const late = controls.hold(RUN, host);
      expect(late.signal.aborted).to.equal(true);
      expect((late.signal.reason as Error).message).to.equal('gone before the hold');
    });

    it('should list the runs held, each once, until their last hold is released', () => {
      const controls = new RunControls();
      const attempt = controls.hold(RUN);
      const child = controls.hold(RUN);
      expect(controls.held()).to.deep.equal([RUN]);
      attempt.release();
      expect(controls.held()).to.deep.equal([RUN]);
      child.release();
      expect(controls.held()).to.deep.equal([]);
    });

    it('should tell no stop in an error that is not one', () => {
      expect(stopStateOf(new Error('boom'))).to.equal(undefined);
      expect(stopStateOf(undefined)).to.equal(undefined);
    });
  });

  describe('a deadline', () => {
    let clock: Clock;
    beforeEach(() => {
      clock = installFakeClock(10_000);
    });
    afterEach(() => uninstallFakeClock(clock));

    it('should be the acceptance time plus the timeout, and none without one', () => {
      expect(runDeadline(10_000, 3)).to.equal(13_000);
      expect(runDeadline(10_000, null)).to.equal(undefined);
      expect(runDeadline(10_000, undefined)).to.equal(undefined);
    });

    it('should fire once at its time, not before, and not once disarmed', async () => {
      let fired = 0;
      armDeadline(13_000, Date.now, () => {
        fired += 1;
      });
      await clock.tickAsync(2_999);
      expect(fired).to.equal(0);
      await clock.tickAsync(1);
      expect(fired).to.equal(1);
      await clock.tickAsync(10_000);
      expect(fired).to.equal(1);
      const disarm = armDeadline(Date.now() + 1_000, Date.now, () => {
        fired += 1;
      });
      disarm();
      await clock.tickAsync(5_000);
      expect(fired).to.equal(1);
    });

    it('should wait past the longest timer Node holds, and fire at once when it has passed', async () => {
      let fired = 0;
      const days = 30 * 86_400_000;
      armDeadline(Date.now() + days, Date.now, () => {
        fired += 1;
      });
      await clock.tickAsync(days - 1);
      expect(fired).to.equal(0);
      await clock.tickAsync(1);
      expect(fired).to.equal(1);
      armDeadline(Date.now() - 5_000, Date.now, () => {
        fired += 1;
      });
      await clock.tickAsync(0);
      expect(fired).to.equal(2);
    });
  });
});
