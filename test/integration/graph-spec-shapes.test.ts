/**
 * The graph_spec shapes (docs/graph-spec.md) on a bundle written for this test: a sequence whose steps are an
 * operator, an inline batch, a PipeParallel whose output is named like one of its branch results, and a
 * PipeCondition. The dry-run graph of `/v1/validate` holds every condition outcome; the live graph of `/v1/execute`
 * holds the outcome that ran. Both connect stuffs by digest across pipes.
 */
import { expect } from 'chai';
import request from 'supertest';
import { buildTestApp } from '../helpers/test-app.js';

const BUNDLE = `domain      = "graph_shapes"
description = "Every graph shape: a sequence, an inline batch, a parallel whose output is named like a branch result, a condition"
main_pipe   = "review_article"

[concept.Headline]
description = "A headline for one paragraph"
refines     = "Text"

[concept.Verdict]
description = "Whether to publish"

[concept.Verdict.structure]
label = { type = "text", description = "approve or reject", required = true, choices = ["approve", "reject"] }

[pipe.review_article]
type        = "PipeSequence"
description = "Split an article, give each paragraph a headline, judge and summarize, then publish or reject"
inputs      = { article = "Text" }
output      = "Text"
steps = [
  { pipe = "split_paragraphs", result = "paragraphs" },
  { pipe = "headline_paragraph", batch_over = "paragraphs", batch_as = "paragraph", result = "headlines" },
  { pipe = "judge_and_summarize", result = "verdict" },
  { pipe = "route_verdict", result = "answer" },
]

[pipe.split_paragraphs]
type        = "PipeLLM"
description = "Split the article into paragraphs"
inputs      = { article = "Text" }
output      = "Text[]"
prompt      = "Split into paragraphs: @article"

[pipe.headline_paragraph]
type        = "PipeLLM"
description = "A headline for one paragraph"
inputs      = { paragraph = "Text" }
output      = "Headline"
prompt      = "Write a headline for: @paragraph"

[pipe.judge_and_summarize]
type            = "PipeParallel"
description     = "Judge the headlines and summarize the article at once"
inputs          = { headlines = "Headline[]", article = "Text" }
output          = "Verdict"
add_each_output = true
branches = [
  { pipe = "judge_headlines", result = "verdict" },
  { pipe = "summarize_article", result = "summary" },
]

[pipe.judge_headlines]
type        = "PipeLLM"
description = "Decide whether the headlines are publishable"
inputs      = { headlines = "Headline[]" }
output      = "Verdict"
prompt      = "Approve or reject these headlines: @headlines"

[pipe.summarize_article]
type        = "PipeLLM"
description = "Summarize the article"
inputs      = { article = "Text" }
output      = "Text"
prompt      = "Summarize: @article"

[pipe.route_verdict]
type            = "PipeCondition"
description     = "Publish an approved article, else write a rejection note"
inputs          = { verdict = "Verdict", summary = "Text" }
output          = "Text"
expression      = "verdict.label"
outcomes        = { approve = "publish_summary", reject = "reject_note" }
default_outcome = "reject_note"

[pipe.publish_summary]
type        = "PipeCompose"
description = "The published summary"
inputs      = { summary = "Text" }
output      = "Text"
template    = "Published: $summary"

[pipe.reject_note]
type        = "PipeCompose"
description = "A rejection note"
inputs      = { summary = "Text" }
output      = "Text"
template    = "Rejected: $summary"
`;

interface Io {
  name: string;
  concept: string;
  digest: string;
  size: number | null;
}
interface Node {
  id: string;
  kind: string;
  pipe_code: string;
  pipe_type: string;
  status: string;
  timing: { started_at: string; ended_at: string; duration: number };
  error: unknown;
  io: { inputs: Io[]; outputs: Io[] };
}
interface Edge {
  source: string;
  target: string;
  kind: string;
  label: string | null;
  source_stuff_digest: string | null;
  target_stuff_digest: string | null;
}
interface Spec {
  pipeline_ref: unknown;
  nodes: Node[];
  edges: Edge[];
  pipe_registry: Record<string, { pipe_category: string; type: string }>;
  concept_registry: Record<string, { json_schema: unknown }>;
}

/** Edges as `kind source>target[:label]` by pipe code, in order. */
function edgeShapes(spec: Spec): string[] {
  const code = new Map(spec.nodes.map((node) => [node.id, node.pipe_code]));
  return spec.edges.map(
    (edge) =>
      `${edge.kind} ${code.get(edge.source)}>${code.get(edge.target)}${edge.label === null ? '' : `:${edge.label}`}`,
  );
}

function node(spec: Spec, code: string, nth = 0): Node {
  return spec.nodes.filter((candidate) => candidate.pipe_code === code)[nth]!;
}

/** The edges every graph of the bundle has, before the condition's outcomes. */
const COMMON_EDGES = [
  'contains review_article>split_paragraphs',
  'contains review_article>headline_paragraph_batch',
  'contains headline_paragraph_batch>headline_paragraph',
  'contains headline_paragraph_batch>headline_paragraph',
  'contains review_article>judge_and_summarize',
  'contains judge_and_summarize>judge_headlines',
  'contains judge_and_summarize>summarize_article',
  'contains review_article>route_verdict',
];

function expectConnected(spec: Spec): void {
  const byId = new Map(spec.nodes.map((entry) => [entry.id, entry]));
  for (const edge of spec.edges.filter((candidate) => candidate.kind === 'data')) {
    const read = byId.get(edge.target)!.io.inputs.find((input) => input.name === edge.label)!;
    expect(byId.get(edge.source)!.io.outputs.map((output) => output.digest)).to.include(read.digest);
  }
}

function expectBatch(spec: Spec): void {
  const batch = node(spec, 'headline_paragraph_batch');
  const [list] = batch.io.inputs;
  expect(batch).to.include({ kind: 'controller', pipe_type: 'PipeBatch' });
  expect(node(spec, 'split_paragraphs').io.outputs[0]).to.include({
    name: 'paragraphs',
    digest: list!.digest,
    size: 2,
  });
  for (const index of [0, 1]) {
    const item = node(spec, 'headline_paragraph', index);
    expect(item.io.inputs).to.deep.include({ ...item.io.inputs[0]!, digest: `${list!.digest}-branch-${index}` });
    expect(
      spec.edges.filter((edge) => edge.target === item.id && edge.kind === 'batch_item').map((edge) => edge),
    ).to.deep.include.members([
      {
        ...spec.edges.find((edge) => edge.target === item.id && edge.kind === 'batch_item')!,
        source: batch.id,
        label: `[${index}]`,
        source_stuff_digest: list!.digest,
        target_stuff_digest: `${list!.digest}-branch-${index}`,
      },
    ]);
    expect(spec.edges.find((edge) => edge.source === item.id && edge.kind === 'batch_aggregate')).to.deep.include({
      target: batch.id,
      label: `[${index}]`,
      source_stuff_digest: item.io.outputs[0]!.digest,
      target_stuff_digest: batch.io.outputs[0]!.digest,
    });
  }
}

describe('graph_spec shapes', () => {
  const app = buildTestApp();

  describe('the dry-run graph of POST /v1/validate', () => {
    let spec: Spec;

    before(async () => {
      const response = await request(app)
        .post('/v1/validate')
        .send({ mthds_contents: [BUNDLE] })
        .expect(200);
      expect(response.body.is_valid).to.equal(true);
      spec = response.body.graph_spec as Spec;
    });

    it('should name the pipeline', () => {
      expect(spec.pipeline_ref).to.deep.equal({
        domain: 'graph_shapes',
        main_pipe: 'review_article',
        entrypoint: null,
      });
    });

    it('should hold a node per pipe run, every condition outcome included', () => {
      expect(spec.nodes.map((entry) => `${entry.id} ${entry.kind} ${entry.pipe_code} ${entry.status}`)).to.deep.equal([
        'node_0 controller review_article succeeded',
        'node_1 operator split_paragraphs succeeded',
        'node_2 controller headline_paragraph_batch succeeded',
        'node_3 operator headline_paragraph succeeded',
        'node_4 operator headline_paragraph succeeded',
        'node_5 controller judge_and_summarize succeeded',
        'node_6 operator judge_headlines succeeded',
        'node_7 operator summarize_article succeeded',
        'node_8 controller route_verdict succeeded',
        'node_9 operator publish_summary succeeded',
        'node_10 operator reject_note succeeded',
      ]);
    });

    it('should give contains, data, batch_item and batch_aggregate edges', () => {
      expect(edgeShapes(spec)).to.deep.equal([
        ...COMMON_EDGES,
        'contains route_verdict>publish_summary',
        'contains route_verdict>reject_note',
        'data split_paragraphs>headline_paragraph_batch:paragraphs',
        'data headline_paragraph_batch>judge_and_summarize:headlines',
        'data headline_paragraph_batch>judge_headlines:headlines',
        'data judge_and_summarize>route_verdict:verdict',
        'data judge_and_summarize>route_verdict:summary',
        'data judge_and_summarize>publish_summary:summary',
        'data judge_and_summarize>reject_note:summary',
        'batch_item headline_paragraph_batch>headline_paragraph:[0]',
        'batch_item headline_paragraph_batch>headline_paragraph:[1]',
        'batch_aggregate headline_paragraph>headline_paragraph_batch:[0]',
        'batch_aggregate headline_paragraph>headline_paragraph_batch:[1]',
      ]);
    });

    it('should connect every data edge by digest', () => {
      expectConnected(spec);
    });

    it('should expand the inline batch into item runs', () => {
      expectBatch(spec);
    });

    it('should keep the branch result a parallel is stored under', () => {
      const parallel = node(spec, 'judge_and_summarize');
      const judged = node(spec, 'judge_headlines').io.outputs[0]!;
      expect(parallel.io.outputs.map((output) => `${output.name}:${output.concept}`)).to.deep.equal([
        'verdict:Verdict',
        'summary:Text',
      ]);
      expect(parallel.io.outputs[0]!.digest).to.equal(judged.digest);
      expect(node(spec, 'route_verdict').io.inputs[0]).to.include({ name: 'verdict', digest: judged.digest });
    });

    it('should fill the registries', () => {
      expect(Object.keys(spec.pipe_registry)).to.deep.equal([
        'graph_shapes.review_article',
        'graph_shapes.split_paragraphs',
        'graph_shapes.headline_paragraph_batch',
        'graph_shapes.headline_paragraph',
        'graph_shapes.judge_and_summarize',
        'graph_shapes.judge_headlines',
        'graph_shapes.summarize_article',
        'graph_shapes.route_verdict',
        'graph_shapes.publish_summary',
        'graph_shapes.reject_note',
      ]);
      expect(spec.pipe_registry['graph_shapes.headline_paragraph_batch']).to.deep.include({
        pipe_category: 'PipeController',
        type: 'PipeBatch',
      });
      expect(Object.keys(spec.concept_registry)).to.deep.equal([
        'native.Text',
        'graph_shapes.Headline',
        'graph_shapes.Verdict',
      ]);
      expect(spec.concept_registry['graph_shapes.Verdict']!.json_schema).to.have.property('type', 'object');
    });
  });

  describe('the live graph of POST /v1/execute', () => {
    let spec: Spec;
    let root: Record<string, { stuff_code: string; content: Record<string, unknown> }>;

    before(async () => {
      const response = await request(app)
        .post('/v1/execute')
        .send({ mthds_contents: [BUNDLE], inputs: { article: 'A first paragraph.\n\nA second paragraph.' } })
        .expect(200);
      spec = response.body.pipe_output.graph_spec as Spec;
      root = response.body.pipe_output.working_memory.root;
    });

    it('should hold the outcome the verdict chose, with timing and no error', () => {
      expect(edgeShapes(spec).filter((shape) => shape.startsWith('contains'))).to.deep.equal([
        ...COMMON_EDGES,
        `contains route_verdict>${root['verdict']!.content['label'] === 'approve' ? 'publish_summary' : 'reject_note'}`,
      ]);
      for (const entry of spec.nodes) {
        expect(entry).to.include({ status: 'succeeded', error: null });
        expect(entry.timing.duration).to.equal(
          (Date.parse(entry.timing.ended_at) - Date.parse(entry.timing.started_at)) / 1000,
        );
      }
    });

    it('should connect stuffs by digest: the stuff codes of the working memory', () => {
      expectConnected(spec);
      expectBatch(spec);
      expect(node(spec, 'review_article').io.inputs[0]).to.include({
        name: 'article',
        digest: root['article']!.stuff_code,
      });
      expect(node(spec, 'summarize_article').io.outputs[0]!.digest).to.equal(root['summary']!.stuff_code);
    });
  });
});
