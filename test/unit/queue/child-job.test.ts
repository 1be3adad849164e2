/**
 * Child jobs of fanned-out runs (docs/fan-out.md): their deterministic ids, their payload, whose working memory
 * snapshot crosses the queue as JSON and comes back as an equal memory, and their results; absences and usage cross in
 * the wire's shapes.
 */
import { expect } from 'chai';
import {
  type ChildJobPayload,
  childJobOf,
  childJobPayload,
} from '../../../shared/orchestration/queue/child-job-payload.js';
import {
  type ChildResult,
  childResultOf,
  childResultValue,
} from '../../../shared/orchestration/queue/child-job-result.js';
import { CHILD_JOB, type ChildJob, childJobId, type FanOutRun } from '../../../shared/orchestration/queue/index.js';
import { type FanOutReport, WorkingMemory } from '../../../shared/runtime/index.js';
import { summarizeUsage } from '../../../shared/runtime/usage-report.js';
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
        variableName: 'gone',
        kind: 'not_provided',
        reason: 'omitted',
        producingPipe: null,
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
      const kept = JSON.parse(JSON.stringify(childJobPayload(payload))) as ChildJobPayload;
      expect(
        kept.child.memory.absences,
        'absences as the wire’s AbsenceRecord, as child jobs always carried them',
      ).to.deep.equal([
        [
          'gone',
          { variable_name: 'gone', kind: 'not_provided', reason: 'omitted', producing_pipe: null, upstream: null },
        ],
      ]);
      expect(CHILD_JOB.safeParse(kept).success).to.equal(true);
      const carried = childJobOf(kept);
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

  describe('child results', () => {
    const call = {
      modelType: 'llm' as const,
      modelName: 'gpt-4o-mini',
      modelId: 'gpt-4o-mini',
      pipeCode: 'echo',
      jobCategory: 'llm_job',
      inputTokens: 3,
      outputTokens: 4,
      costUsd: 0.25,
      backend: 'openai',
      startedAt: 1_760_000_000_000,
      completedAt: 1_760_000_000_500,
    };
    const step = {
      step: 1,
      parentStep: null,
      pipeCode: 'echo',
      pipeType: 'PipeLLM' as const,
      outputConcept: 'native.Text',
    };
    const report: FanOutReport = {
      usage: [call],
      progress: [
        { kind: 'started', step, at: 1_760_000_000_000 },
        {
          kind: 'finished',
          step,
          at: 1_760_000_000_600,
          durationMs: 600,
          usage: { inputTokens: 3, outputTokens: 4 },
          runUsage: summarizeUsage([call]),
        },
      ],
      graph: { nodes: [], contains: [], finished: [], pipes: [] },
      pipes: 1,
    };
    const result: ChildResult = { ok: true, outcome: { kind: 'none' }, report };

    it('should carry a child’s usage through JSON and back', () => {
      expect(childResultOf(JSON.parse(JSON.stringify(childResultValue(result))))).to.deep.equal(result);
    });

    it('should carry an absent outcome as an absence record, its chain included, and back', () => {
      const absent: ChildResult = {
        ok: true,
        outcome: {
          kind: 'absent',
          absence: {
            variableName: 'main_stuff',
            kind: 'skipped',
            reason: 'its input is absent',
            producingPipe: 'echo',
            upstream: {
              variableName: 'hint',
              kind: 'not_provided',
              reason: 'omitted',
              producingPipe: null,
              upstream: null,
            },
          },
        },
        report,
      };
      const value = JSON.parse(JSON.stringify(childResultValue(absent)));
      expect(value.outcome.absence).to.deep.equal({
        variable_name: 'main_stuff',
        kind: 'skipped',
        reason: 'its input is absent',
        producing_pipe: 'echo',
        upstream: {
          variable_name: 'hint',
          kind: 'not_provided',
          reason: 'omitted',
          producing_pipe: null,
          upstream: null,
        },
      });
      expect(childResultOf(value)).to.deep.equal(absent);
    });

    it('should refuse a return value whose ended pipe report has no usage report', () => {
      const value = JSON.parse(JSON.stringify(childResultValue(result)));
      delete value.report.progress[1].runUsage;
      expect(childResultOf(value)).to.equal(undefined);
    });

    it('should return its usage in the wire’s shapes, as child jobs returned it before the wire layer', () => {
      const value = JSON.parse(JSON.stringify(childResultValue(result)));
      expect(value.report.usage[0]).to.deep.include({
        inference_model_name: 'gpt-4o-mini',
        nb_tokens_by_category: { input: 3, output: 4 },
        cost: 0.25,
        started_at: '2025-10-09T08:53:20.000Z',
      });
      expect(value.report.progress[1].usage).to.deep.equal({ input_tokens: 3, output_tokens: 4 });
      expect(value.report.progress[1].runUsage.total).to.deep.equal({
        calls: 1,
        input_tokens: 3,
        output_tokens: 4,
        cost_usd: 0.25,
        unpriced_calls: 0,
      });
    });
  });
});
