/**
 * The signal a run's calls share (shared/runtime/run-signal.ts): a host's signal is followed by one made for the run,
 * without a listener cap, and left as it is; a signal made for the run (a hold's) is shared as it is.
 */
import { expect } from 'chai';
import { uncappedRunSignal } from '../../../shared/runtime/index.js';
import { GREETING_BUNDLE } from '../../helpers/greeting-bundle.js';
import { libraryOf } from '../../helpers/library.js';
import { recordingPort, runPipe } from '../../helpers/runtime-run.js';

describe('the run signal (shared/runtime/run-signal.ts)', () => {
  const library = libraryOf(GREETING_BUNDLE);

  async function signalOfTheCall(host: AbortSignal): Promise<AbortSignal> {
    const port = recordingPort({ text: () => 'Hello, Ada.' });
    await runPipe(library, 'greet_person', { name: 'Ada' }, { inference: port, signal: host });
    const [call] = port.calls;
    if (call?.kind !== 'text' || !call.request.signal) throw new Error('expected one text call, with a signal');
    return call.request.signal;
  }

  it('should give the calls a signal that follows the host’s, leaving the host’s signal as it is', async () => {
    const host = new AbortController();
    const shared = await signalOfTheCall(host.signal);
    expect(shared).to.be.an.instanceOf(AbortSignal);
    expect(shared).to.not.equal(host.signal);
    host.abort(new Error('the request went away'));
    expect(shared.aborted).to.equal(true);
    expect((shared.reason as Error).message).to.equal('the request went away');
  });

  it('should give the calls a signal made for the run as it is', async () => {
    const own = uncappedRunSignal(new AbortController().signal);
    expect(await signalOfTheCall(own)).to.equal(own);
  });
});
