import { expect } from 'chai';
import { DiagnosticsPool } from '../../../api/offload/diagnostics-pool.js';
import { loadSettings } from '../../../shared/config/index.js';
import { Metrics } from '../../../shared/observability/index.js';

describe('DiagnosticsPool warm-up (api/offload/diagnostics-pool.ts)', function () {
  this.timeout(60000);
  const pool = () =>
    new DiagnosticsPool({
      compute: loadSettings({ COMPUTE_THREADS: '1', COMPUTE_WARM_THREADS: '1' }).compute,
      metrics: new Metrics(),
      keepWarm: true,
    });

  it('should end quietly when the pool is closed during the warm-up (a shutdown while booting)', async () => {
    const diagnostics = pool();
    const warming = diagnostics.warm();
    await diagnostics.close();
    expect(
      await warming.then(
        () => 'ended',
        (error: unknown) => error,
      ),
    ).to.equal('ended');
  });

  it('should load the warm thread when left open', async () => {
    const diagnostics = pool();
    try {
      await diagnostics.warm();
      expect(diagnostics.occupancy().threads).to.equal(1);
    } finally {
      await diagnostics.close();
    }
  });
});
