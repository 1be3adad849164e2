/**
 * Step checkpoints in the runtime (shared/runtime/step-checkpoints.ts, docs/checkpoints.md), with an in-memory store
 * behind the port: a second attempt of a run replays the operators the first one finished — no inference call — and
 * runs only the rest, in sequences, batches, parallels and conditions; a checkpoint replays only for the same pipe
 * reading the same inputs; replayed calls stay in the usage report and the budget; progress says what was replayed.
 */
import { expect } from 'chai';
import { RunBudgetExceededError } from '../../../shared/errors/index.js';
import type { Library } from '../../../shared/mthds/index.js';
import {
  type InferencePort,
  type PipeProgress,
  runPipeline,
  type StepCheckpoint,
  type StepCheckpointStore,
} from '../../../shared/runtime/index.js';
import { draftsBundle } from '../../helpers/drafts-bundle.js';
import { libraryOf } from '../../helpers/library.js';
import { describeOnBothPaths, memoryView, recordingPort, runFailure, runPipe } from '../../helpers/runtime-run.js';

const BUNDLE = draftsBundle(
  'ckpt',
  `
[pipe.both]
type = "PipeParallel"
description = "Two drafts at once"
inputs = { topic = "Text" }
output = "Anything"
add_each_output = true
branches = [
  { pipe = "draft_one", result = "one" },
  { pipe = "draft_other", result = "other" },
]

[pipe.draft_other]
type = "PipeLLM"
description = "Another draft"
inputs = { topic = "Text" }
output = "Text"
prompt = "other on $topic"

[pipe.choose]
type = "PipeCondition"
description = "Drafts one way or the other"
inputs = { topic = "Text" }
output = "Text"
expression = "topic"
outcomes = { tea = "draft_one" }
default_outcome = "draft_other"

[pipe.choose_then_four]
type = "PipeSequence"
description = "A condition, then a draft reading its output"
inputs = { topic = "Text" }
output = "Text"
steps = [
  { pipe = "choose", result = "three" },
  { pipe = "draft_four", result = "four" },
]

[pipe.hinted]
type = "PipeSequence"
description = "A draft lifted when the hint is absent, then one that always runs"
inputs = { topic = "Text", hint = "Text?" }
output = "Text"
steps = [
  { pipe = "enrich", result = "enriched" },
  { pipe = "draft_one", result = "one" },
]

[pipe.enrich]
type = "PipeLLM"
description = "Enriches the hint"
inputs = { hint = "Text" }
output = "Text"
prompt = "enrich $hint"
`,
);

/** The checkpoint store of one run, in memory (JSON copies, as a real store keeps them). */
class MemoryCheckpoints implements StepCheckpointStore {
  readonly kept = new Map<string, string>();

  async load(stepPath: string): Promise<StepCheckpoint | undefined> {
    const text = this.kept.get(stepPath);
    return text === undefined ? undefined : (JSON.parse(text) as StepCheckpoint);
  }

  async save(stepPath: string, checkpoint: StepCheckpoint): Promise<void> {
    this.kept.set(stepPath, JSON.stringify(checkpoint));
  }

  /** The kept checkpoint of a path (throws when none). */
  at(stepPath: string): StepCheckpoint {
    const text = this.kept.get(stepPath);
    if (text === undefined) throw new Error(`no checkpoint at ${stepPath}`);
    return JSON.parse(text) as StepCheckpoint;
  }
}

/** A store whose saves end only when the test releases them (a slow Redis). */
class HeldCheckpoints extends MemoryCheckpoints {
  private readonly held: (() => void)[] = [];

  override async save(stepPath: string, checkpoint: StepCheckpoint): Promise<void> {
    await new Promise<void>((resolve) => this.held.push(resolve));
    await super.save(stepPath, checkpoint);
  }

  /** Saves started and not yet released. */
  get pending(): number {
    return this.held.length;
  }

  release(): void {
    for (const resolve of this.held.splice(0)) resolve();
  }
}

/** A port answering `<pipe>: <prompt>`, failing the calls `fails` picks (a provider down for them). */
function drafts(fails: (pipeCode: string, prompt: string) => boolean = () => false) {
  return recordingPort({
    text: (request) => {
      if (fails(request.pipeCode, request.userPrompt)) throw new Error(`provider down for ${request.pipeCode}`);
      return `${request.pipeCode}: ${request.userPrompt}`;
    },
  });
}

function pipesCalled(port: ReturnType<typeof drafts>): string[] {
  return port.calls.map((call) => call.request.pipeCode);
}

/** The root stuffs' contents by name (codes and order left out: ids differ between attempts). */
function contents(memory: Awaited<ReturnType<typeof runPipe>>['memory']): Record<string, unknown> {
  return Object.fromEntries(Object.entries(memoryView(memory).root).map(([name, stuff]) => [name, stuff.content]));
}

describeOnBothPaths('step checkpoints (shared/runtime/step-checkpoints.ts)', () => {
  const library: Library = libraryOf(BUNDLE);

  it('should replay the two finished steps of a four-step sequence and call only for the last two', async () => {
    const store = new MemoryCheckpoints();
    const first = drafts((pipe) => pipe === 'draft_three');
    await runFailure(runPipe(library, 'four', { topic: 'tea' }, { inference: first, checkpoints: store }));
    expect(pipesCalled(first)).to.deep.equal(['draft_one', 'draft_two', 'draft_three']);
    expect([...store.kept.keys()]).to.deep.equal(['main/s0', 'main/s1']);

    const second = drafts();
    const retaken = await runPipe(library, 'four', { topic: 'tea' }, { inference: second, checkpoints: store });
    expect(pipesCalled(second)).to.deep.equal(['draft_three', 'draft_four']);
    const clean = await runPipe(library, 'four', { topic: 'tea' }, { inference: drafts() });
    expect(contents(retaken.memory)).to.deep.equal(contents(clean.memory));
    expect(memoryView(retaken.memory).main).to.equal('four');
    expect(retaken.usage.total.calls, 'the replayed steps’ calls stay in the report').to.equal(4);
    expect(retaken.inferenceCalls.map((call) => call.pipeCode)).to.deep.equal([
      'draft_one',
      'draft_two',
      'draft_three',
      'draft_four',
    ]);
    expect([...store.kept.keys()]).to.deep.equal(['main/s0', 'main/s1', 'main/s2', 'main/s3']);
  });

  it('should go on to the next step while a checkpoint is being kept, and end only once every one is kept', async () => {
    const store = new HeldCheckpoints();
    const port = drafts();
    let ended = false;
    const run = runPipe(library, 'four', { topic: 'tea' }, { inference: port, checkpoints: store }).then((outcome) => {
      ended = true;
      return outcome;
    });
    while (store.pending < 4) await new Promise(setImmediate);
    expect(pipesCalled(port)).to.deep.equal(['draft_one', 'draft_two', 'draft_three', 'draft_four']);
    expect(store.kept.size, 'no save has ended yet').to.equal(0);
    await new Promise(setImmediate);
    expect(ended, 'the run waits for its checkpoints').to.equal(false);
    store.release();
    await run;
    expect([...store.kept.keys()]).to.deep.equal(['main/s0', 'main/s1', 'main/s2', 'main/s3']);
  });

  it('should make no call at all when every step has its checkpoint', async () => {
    const store = new MemoryCheckpoints();
    await runPipe(library, 'four', { topic: 'tea' }, { inference: drafts(), checkpoints: store });
    const again = drafts();
    const replayed = await runPipe(library, 'four', { topic: 'tea' }, { inference: again, checkpoints: store });
    expect(again.calls).to.deep.equal([]);
    expect(replayed.memory.mainStuff()?.content).to.deep.equal({
      kind: 'item',
      item: {
        text: 'draft_four: Draft four after draft_three: Draft three after draft_two: Draft two after draft_one: Draft one on tea',
      },
    });
  });

  it('should replay the finished items of a batch and run only the others, outputs in input order', async () => {
    const store = new MemoryCheckpoints();
    const topics = ['a', 'b', 'c', 'd', 'e'];
    const first = drafts((_pipe, prompt) => prompt.endsWith(' d'));
    await runFailure(
      runPipe(library, 'each', { topics }, { inference: first, checkpoints: store, batchConcurrency: 1 }),
    );
    expect([...store.kept.keys()]).to.deep.equal(['main/b0', 'main/b1', 'main/b2']);

    const second = drafts();
    const retaken = await runPipe(library, 'each', { topics }, { inference: second, checkpoints: store });
    expect(second.calls.map((call) => call.request.userPrompt)).to.deep.equal(['Draft one on d', 'Draft one on e']);
    expect(retaken.memory.mainStuff()?.content).to.deep.equal({
      kind: 'list',
      items: topics.map((topic) => ({ text: `draft_one: Draft one on ${topic}` })),
    });
  });

  it('should replay the finished branch of a parallel and run the other again', async () => {
    const store = new MemoryCheckpoints();
    const first = drafts((pipe) => pipe === 'draft_other');
    await runFailure(runPipe(library, 'both', { topic: 'tea' }, { inference: first, checkpoints: store }));
    expect([...store.kept.keys()]).to.deep.equal(['main/p0']);

    const second = drafts();
    const retaken = await runPipe(library, 'both', { topic: 'tea' }, { inference: second, checkpoints: store });
    expect(pipesCalled(second)).to.deep.equal(['draft_other']);
    const clean = await runPipe(library, 'both', { topic: 'tea' }, { inference: drafts() });
    expect(contents(retaken.memory)).to.deep.equal(contents(clean.memory));
  });

  it('should evaluate a condition again and replay the outcome pipe it ran', async () => {
    const store = new MemoryCheckpoints();
    const first = drafts((pipe) => pipe === 'draft_four');
    await runFailure(runPipe(library, 'choose_then_four', { topic: 'tea' }, { inference: first, checkpoints: store }));
    expect([...store.kept.keys()]).to.deep.equal(['main/s0/c:draft_one']);

    const second = drafts();
    const retaken = await runPipe(
      library,
      'choose_then_four',
      { topic: 'tea' },
      { inference: second, checkpoints: store },
    );
    expect(pipesCalled(second)).to.deep.equal(['draft_four']);
    expect(contents(retaken.memory)['three']).to.deep.equal({ text: 'draft_one: Draft one on tea' });
  });

  it('should lift a step over an absent input again (no checkpoint) and replay the rest', async () => {
    const store = new MemoryCheckpoints();
    await runPipe(library, 'hinted', { topic: 'tea' }, { inference: drafts(), checkpoints: store });
    expect([...store.kept.keys()]).to.deep.equal(['main/s1']);
    const again = drafts();
    const replayed = await runPipe(library, 'hinted', { topic: 'tea' }, { inference: again, checkpoints: store });
    expect(again.calls).to.deep.equal([]);
    expect(replayed.memory.absence('enriched')).to.include({ kind: 'skipped', producingPipe: 'enrich' });
  });

  it('should restore a recorded absence as the step’s output', async () => {
    const store = new MemoryCheckpoints();
    await runPipe(library, 'four', { topic: 'tea' }, { inference: drafts(), checkpoints: store });
    const last = store.at('main/s3');
    const absence = {
      variableName: 'four',
      kind: 'declared_absent' as const,
      reason: 'nothing to say',
      producingPipe: 'draft_four',
      upstream: null,
    };
    await store.save('main/s3', { ...last, outcome: { kind: 'absent', absence } });
    const replayed = await runPipe(library, 'four', { topic: 'tea' }, { inference: drafts(), checkpoints: store });
    expect(replayed.memory.mainAbsence()).to.deep.equal(absence);
  });

  it('should run a step again when its inputs differ from those its checkpoint was made with', async () => {
    const store = new MemoryCheckpoints();
    await runPipe(library, 'four', { topic: 'tea' }, { inference: drafts(), checkpoints: store });
    const other = drafts();
    const coffee = await runPipe(library, 'four', { topic: 'coffee' }, { inference: other, checkpoints: store });
    expect(pipesCalled(other)).to.deep.equal(['draft_one', 'draft_two', 'draft_three', 'draft_four']);
    expect(coffee.memory.mainStuff()?.content).to.deep.equal({
      kind: 'item',
      item: {
        text: 'draft_four: Draft four after draft_three: Draft three after draft_two: Draft two after draft_one: Draft one on coffee',
      },
    });
    expect(store.at('main/s0').outcome).to.deep.include({ kind: 'stuff' });
    expect(JSON.stringify(store.at('main/s0').outcome)).to.include('Draft one on coffee');
  });

  it('should hash a step’s inputs only when its checkpoint is written, with the digest of the inputs it read', async () => {
    const handed: StepCheckpoint[] = [];
    const holding: StepCheckpointStore = {
      load: async () => undefined,
      save: async (_stepPath, checkpoint) => {
        handed.push(checkpoint);
      },
    };
    await runPipe(library, 'four', { topic: 'tea' }, { inference: drafts(), checkpoints: holding });
    expect(handed).to.have.length(4);
    const lazy = Object.getOwnPropertyDescriptor(handed[0], 'inputs_digest');
    expect(lazy?.get, 'a checkpoint held behind and dropped costs no digest').to.be.a('function');
    const written = new MemoryCheckpoints();
    await runPipe(library, 'four', { topic: 'tea' }, { inference: drafts(), checkpoints: written });
    expect(handed.map((checkpoint) => checkpoint.inputs_digest)).to.deep.equal(
      ['main/s0', 'main/s1', 'main/s2', 'main/s3'].map((path) => written.at(path).inputs_digest),
    );
    expect(handed[0]?.inputs_digest).to.match(/^[0-9a-f]{64}$/);
  });

  it('should run a step again when its checkpoint names another pipe or a concept the library lacks', async () => {
    const store = new MemoryCheckpoints();
    await runPipe(library, 'four', { topic: 'tea' }, { inference: drafts(), checkpoints: store });
    const s0 = store.at('main/s0');
    await store.save('main/s0', { ...s0, pipe_code: 'draft_other' });
    const s1 = store.at('main/s1');
    if (s1.outcome.kind !== 'stuff') throw new Error('expected a stuff');
    await store.save('main/s1', { ...s1, outcome: { ...s1.outcome, concept_ref: 'ckpt.Missing' } });
    const again = drafts();
    await runPipe(library, 'four', { topic: 'tea' }, { inference: again, checkpoints: store });
    expect(pipesCalled(again)).to.deep.equal(['draft_one', 'draft_two']);
  });

  it('should report replayed steps as replayed, with no tokens of their own', async () => {
    const store = new MemoryCheckpoints();
    await runPipe(library, 'four', { topic: 'tea' }, { inference: drafts(), checkpoints: store });
    store.kept.delete('main/s3');
    const reports: PipeProgress[] = [];
    await runPipe(
      library,
      'four',
      { topic: 'tea' },
      { inference: drafts(), checkpoints: store, observer: { pipeProgress: (report) => reports.push(report) } },
    );
    const finished = reports.flatMap((report) =>
      report.kind === 'finished' ? [[report.step.pipeCode, report.replayed === true, report.usage.inputTokens]] : [],
    );
    expect(finished).to.deep.equal([
      ['draft_one', true, 0],
      ['draft_two', true, 0],
      ['draft_three', true, 0],
      ['draft_four', false, 1],
      ['four', false, 1],
    ]);
    const last = reports.at(-1);
    expect(last?.kind === 'finished' && last.runUsage.total.calls).to.equal(4);
  });

  it('should count the replayed steps’ cost against the run’s budget', async () => {
    const priced = (fails: boolean): InferencePort => ({
      name: 'priced',
      isMock: false,
      async generateText(request) {
        if (fails && request.pipeCode === 'draft_three') throw new Error('provider down');
        return { text: 'ok', usage: { model: 'priced', input_tokens: 1, output_tokens: 1, cost: 0.004 } };
      },
      async generateObject() {
        throw new Error('unused');
      },
      quote: () => ({ model: 'priced', input: 0, output: 1, image: null, search: null, maxOutputTokens: 1000 }),
    });
    const store = new MemoryCheckpoints();
    const request = { library, pipe: library.resolvePipe('four'), inputs: { topic: 'tea' }, pipelineRunId: 'r' };
    const deps = (fails: boolean) => ({
      inference: priced(fails),
      ids: { next: () => Math.random().toString(36).slice(2) },
      now: Date.now,
      checkpoints: store,
    });
    await runFailure(runPipeline({ ...request, maxCostUsd: 0.1 }, deps(true)));
    // each call is estimated at 0.001 USD and costs 0.004: 0.008 replayed + 0.001 > 0.0085
    const error = await runFailure(runPipeline({ ...request, maxCostUsd: 0.0085 }, deps(false)));
    expect(error).to.be.instanceOf(RunBudgetExceededError);
    expect(error.message).to.include('0.008 USD spent so far');
  });

  it('should neither read nor keep checkpoints in a dry run', async () => {
    const store = new MemoryCheckpoints();
    const deps = { inference: drafts(), ids: { next: () => 'x' }, now: Date.now, checkpoints: store };
    await runPipeline({ library, pipe: library.resolvePipe('four'), inputs: {}, pipelineRunId: 'dry' }, deps, {
      mockValues: (_schema, seeds) => seeds.map(() => ({ text: 'mock' })),
    });
    expect(store.kept.size).to.equal(0);
  });
});
