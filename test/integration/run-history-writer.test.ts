/**
 * The history writer's catch-up (docs/control-plane.md#the-history-outbox): what a listing or a bulk cancel writes
 * before reading the history, on a real PostgreSQL, with the in-memory run store as the outbox.
 */
import { expect } from 'chai';
import { RunHistory } from '../../shared/database/index.js';
import { createLogger } from '../../shared/observability/index.js';
import { RunHistoryWriter } from '../../shared/orchestration/history/index.js';
import { memoryRuns } from '../../shared/orchestration/memory/index.js';
import type { RunRecord } from '../../shared/orchestration/registry/index.js';
import { useTestControlPlane } from '../helpers/postgres.js';

const NOW = Date.parse('2026-11-29T12:00:00.000Z');

function record(owner: string, index: number): RunRecord {
  return {
    pipeline_run_id: `${owner}-${index}`,
    workflow_id: `job-${owner}-${index}`,
    state: 'STARTED',
    pipe_code: null,
    owner,
    storage_scope: owner,
    request_id: `req-${index}`,
    created_at: new Date(NOW + index).toISOString(),
    started_at: null,
    finished_at: null,
  };
}

describe('the history writer catching up (real PostgreSQL)', () => {
  const suite = useTestControlPlane();

  async function writerWith(owner: string, runs: number, batchSize: number) {
    const { store } = memoryRuns({
      ttlSeconds: 60,
      maxRuns: 1000,
      maxBytes: 2 ** 24,
      maxEventsPerRun: 10,
      now: () => NOW,
    });
    for (let index = 0; index < runs; index += 1) await store.save(record(owner, index));
    const history = new RunHistory(suite.database);
    const writer = new RunHistoryWriter(
      { outbox: store, history },
      { batchSize, intervalMs: 1000, leaseMs: 5000, logger: createLogger('silent', 'test') },
    );
    const unfinished = () => history.unfinished(owner, { states: ['STARTED'] }, 10_000);
    return { store, writer, unfinished };
  }

  it('should write every run the outbox holds, batch after batch, before a read', async () => {
    const { store, writer, unfinished } = await writerWith('acme', 12, 5);
    expect(await writer.catchUp()).to.equal(12);
    expect(await unfinished()).to.have.length(12);
    expect(await store.historyBacklog()).to.equal(0);
    expect(await writer.catchUp(), 'nothing left').to.equal(0);
  });

  it('should write at most 20 batches in one catch-up, leaving the rest to the writer', async () => {
    const { store, writer, unfinished } = await writerWith('globex', 25, 1);
    expect(await writer.catchUp()).to.equal(20);
    expect(await unfinished()).to.have.length(20);
    expect(await store.historyBacklog()).to.equal(5);
  });
});
