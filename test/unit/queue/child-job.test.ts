/**
 * Child jobs of fanned-out runs (docs/fan-out.md): their deterministic ids, and their payload, whose working memory
 * snapshot crosses the queue as JSON and comes back as an equal memory.
 */
import { expect } from 'chai';
import { CHILD_JOB, type ChildJob, childJobId, type FanOutRun } from '../../../shared/orchestration/queue/index.js';
import { WorkingMemory } from '../../../shared/runtime/index.js';
import { workingMemoryToWire } from '../../../shared/wire/working-memory.js';
import { controllersLibrary } from '../../helpers/controllers-bundle.js';

const RUN: FanOutRun = {
  pipelineRunId: 'run-1',
  requestId: 'req-1',
  runJobId: 'run-1',
  createdAt: 1_760_000_000_000,
  retake: false,
};

describe('child jobs', () => {
  describe('childJobId', () => {
    it('should give a child the same id on every attempt of the same submission', () => {
      expect(childJobId(RUN, 'main/s2/b11')).to.equal(childJobId({ ...RUN }, 'main/s2/b11'));
      expect(childJobId(RUN, 'main/s2/b11')).to.match(/^run-1\.[0-9a-f]{24}$/);
    });

    it('should tell step paths and submissions of the same run id apart', () => {
      const ids = new Set([
        childJobId(RUN, 'main/b0'),
        childJobId(RUN, 'main/b1'),
        childJobId({ ...RUN, createdAt: RUN.createdAt + 1 }, 'main/b0'),
        childJobId({ ...RUN, requestId: 'req-2' }, 'main/b0'),
      ]);
      expect(ids.size).to.equal(4);
    });
  });

  describe('CHILD_JOB', () => {
    it('should carry a working memory through JSON and back to an equal one', () => {
      const library = controllersLibrary();
      const text = library.resolveConcept('native.Text');
      const memory = new WorkingMemory();
      memory.addNewStuff('word', {
        stuffCode: 'c1',
        stuffName: 'word',
        concept: text,
        content: { kind: 'item', item: { text: 'hi' } },
      });
      memory.setNewMainStuff(
        { stuffCode: 'c2', stuffName: 'words', concept: text, content: { kind: 'list', items: [{ text: 'a' }] } },
        'words',
      );
      memory.recordAbsence({
        variable_name: 'gone',
        kind: 'not_provided',
        reason: 'omitted',
        producing_pipe: null,
        upstream: null,
      });
      const payload: ChildJob = {
        pipeline_run_id: 'run-1',
        request_id: 'req-1',
        run_job_id: 'run-1',
        created_at: RUN.createdAt,
        child: {
          pipeRef: 'ctl.wrap',
          memory: memory.snapshot(),
          outputName: null,
          params: {
            outputMultiplicity: null,
            dynamicOutputConceptRef: null,
            stack: ['batch_wrap'],
            stepPath: 'main/b0',
          },
          pipes: { max: 10_000, started: 1 },
        },
      };
      const carried = JSON.parse(JSON.stringify(CHILD_JOB.parse(payload))) as ChildJob;
      const rebuilt = WorkingMemory.fromSnapshot(carried.child.memory, (ref) => library.resolveConcept(ref));
      expect(workingMemoryToWire(rebuilt)).to.deep.equal(workingMemoryToWire(memory));
      expect(rebuilt.mainStuffName()).to.equal('words');
      expect(rebuilt.find('word')!.concept, 'the library concept itself').to.equal(text);
      expect(rebuilt.absence('gone')).to.deep.include({ kind: 'not_provided' });
    });

    it('should refuse a child without a step path', () => {
      const parsed = CHILD_JOB.safeParse({
        pipeline_run_id: 'run-1',
        request_id: 'req-1',
        run_job_id: 'run-1',
        created_at: 1,
        child: {
          pipeRef: 'ctl.wrap',
          memory: { root: [], aliases: [], absences: [], absentMain: null },
          outputName: null,
          params: {},
        },
      });
      expect(parsed.success).to.equal(false);
    });
  });
});
