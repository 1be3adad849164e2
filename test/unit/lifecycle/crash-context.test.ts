import { expect } from 'chai';
import { crashFields, withCrashContext, workStarted } from '../../../shared/lifecycle/crash-context.js';

describe('the crash context (shared/lifecycle/crash-context.ts)', () => {
  it('should name nothing when no work is in progress', () => {
    expect(crashFields()).to.deep.equal({});
  });

  it('should name the one piece of work in progress by its own fields, until it is released (once)', () => {
    const release = workStarted({ request_id: 'req-1' });
    expect(crashFields()).to.deep.equal({ request_id: 'req-1' });
    release();
    release();
    expect(crashFields()).to.deep.equal({});
  });

  it('should list every piece of work in progress when there are several, and count them past the named ones', () => {
    const releases = Array.from({ length: 60 }, (_, index) => workStarted({ request_id: `req-${index}` }));
    const fields = crashFields();
    expect(fields['in_flight_count']).to.equal(60);
    expect(fields['in_flight']).to.have.length(50);
    expect((fields['in_flight'] as unknown[])[0]).to.deep.equal({ request_id: 'req-0' });
    for (const release of releases) release();
    expect(crashFields()).to.deep.equal({});
  });

  it('should keep asynchronous work in progress until it settles, whether it resolves or rejects', async () => {
    let finish!: () => void;
    const running = withCrashContext(
      { pipeline_run_id: 'run-1', job_id: '7' },
      () => new Promise<void>((resolve) => (finish = resolve)),
    );
    expect(crashFields()).to.deep.equal({ pipeline_run_id: 'run-1', job_id: '7' });
    finish();
    await running;
    expect(crashFields()).to.deep.equal({});
    const failing = withCrashContext({ pipeline_run_id: 'run-2' }, async () => {
      throw new Error('boom');
    });
    await failing.catch(() => undefined);
    expect(crashFields()).to.deep.equal({});
  });
});
