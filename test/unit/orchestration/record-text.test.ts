/**
 * The JSON text of a run record (shared/orchestration/registry/record-text.ts): a finished record's text, written to
 * the registry and to `results/`, is made once per record object.
 */
import { expect } from 'chai';
import { type RunRecord, recordText } from '../../../shared/orchestration/index.js';

/** A COMPLETED record that counts how often it is serialised. */
function countedRecord(runId: string): { record: RunRecord; serialised: () => number } {
  let times = 0;
  const record = {
    pipeline_run_id: runId,
    toJSON() {
      times += 1;
      return { pipeline_run_id: runId, state: 'COMPLETED', owner: 'acme' };
    },
  } as unknown as RunRecord;
  return { record, serialised: () => times };
}

describe('recordText (shared/orchestration/registry/record-text.ts)', () => {
  it('should give the record’s JSON text, serialising each record object once', () => {
    const first = countedRecord('run-1');
    expect(recordText(first.record)).to.equal('{"pipeline_run_id":"run-1","state":"COMPLETED","owner":"acme"}');
    expect(recordText(first.record)).to.equal('{"pipeline_run_id":"run-1","state":"COMPLETED","owner":"acme"}');
    expect(first.serialised()).to.equal(1);
    const other = countedRecord('run-2');
    expect(recordText(other.record)).to.equal('{"pipeline_run_id":"run-2","state":"COMPLETED","owner":"acme"}');
    expect(other.serialised()).to.equal(1);
  });
});
