import { expect } from 'chai';
import { runJobId } from '../../../shared/orchestration/queued.js';

describe('runJobId', () => {
  it('should be the pipeline_run_id itself when BullMQ takes it', () => {
    for (const id of ['client-run-42', '7c9e6679-7425-40de-944b-e07fc1f90ae7', '042', '4.2', 'run 42', 'é']) {
      expect(runJobId(id)).to.equal(id);
    }
  });

  it('should encode the ids BullMQ refuses (integers, colons) and those starting with the mark', () => {
    expect(runJobId('42')).to.equal('~NDI');
    expect(runJobId('-3')).to.equal('~LTM');
    expect(runJobId('a:b')).to.equal('~YTpi');
    expect(runJobId('~NDI')).to.equal('~fk5ESQ');
  });

  it('should never give two run ids the same job id', () => {
    const ids = ['42', '~NDI', 'NDI', 'a:b', '~YTpi', '~', ''];
    expect(new Set(ids.map(runJobId)).size).to.equal(ids.length);
  });
});
