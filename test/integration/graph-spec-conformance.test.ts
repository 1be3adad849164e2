/**
 * Conformance of `/v1/validate`'s dry-run `graph_spec` with the reference runner's, for every bundle of the oracle in
 * `../shared/reference/mthds-ui-pipelines/` (docs/graph-spec.md), compared structurally: the node set by pipe code,
 * edge kinds and endpoints, io concepts and digest relations (not generated ids, not the item count of a batch, which
 * follows each runner's mock list length). Our graph is then drawn by mthds-ui's own graph layer
 * (`../shared/clients/mthds-ui/dist/graph.js`): a pipe card for every operator node, stuff nodes, controller groups —
 * for the oracle bundles and for the corpus samples and published methods too.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { expect } from 'chai';
import request from 'supertest';
import { corpusMethodBundles, corpusSampleFiles, corpusText, DOCUMENTS_BUNDLE, sample } from '../helpers/corpus.js';
import { pollUntil } from '../helpers/poll.js';
import { type QueueDeployment, startQueueDeployment } from '../helpers/queue-app.js';
import { buildTestApp } from '../helpers/test-app.js';

const ORACLE = new URL('../../../shared/reference/mthds-ui-pipelines/', import.meta.url);
const MTHDS_UI = new URL('../../../shared/clients/mthds-ui/dist/graph.js', import.meta.url).href;

interface Io {
  name: string;
  concept: string;
  digest: string;
}
interface Node {
  id: string;
  kind: string;
  pipe_code: string;
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
  nodes: Node[];
  edges: Edge[];
  pipe_registry: Record<string, unknown>;
  concept_registry: Record<string, unknown>;
}
interface FlowNode {
  id: string;
  type?: string;
}
interface MthdsUi {
  buildGraph(spec: Spec, edgeType: string): { graphData: { nodes: FlowNode[]; edges: unknown[] }; analysis: unknown };
  getLayoutedElements(
    nodes: FlowNode[],
    edges: unknown[],
    direction: string,
    config: undefined,
    spec: Spec,
    analysis: unknown,
  ): Promise<{ nodes: FlowNode[]; edges: unknown[] }>;
  applyControllers(
    nodes: FlowNode[],
    edges: unknown[],
    spec: Spec,
    analysis: unknown,
    show: boolean,
  ): { nodes: FlowNode[] };
}

function codes(spec: Spec): Map<string, string> {
  return new Map(spec.nodes.map((node) => [node.id, node.pipe_code]));
}

/** Edges by kind and pipe codes; contains and data edges also by label. */
function edgeShapes(spec: Spec): Set<string> {
  const code = codes(spec);
  return new Set(
    spec.edges.map(
      (edge) =>
        `${edge.kind}:${code.get(edge.source)}>${code.get(edge.target)}${edge.kind === 'data' ? `:${edge.label}` : ''}`,
    ),
  );
}

/** The input and output concepts of each pipe code. */
function ioConcepts(spec: Spec): Record<string, { inputs: string[]; outputs: string[] }> {
  const byCode: Record<string, { inputs: Set<string>; outputs: Set<string> }> = {};
  for (const node of spec.nodes) {
    byCode[node.pipe_code] ??= { inputs: new Set(), outputs: new Set() };
    const entry = byCode[node.pipe_code]!;
    for (const input of node.io.inputs) entry.inputs.add(input.concept);
    for (const output of node.io.outputs) entry.outputs.add(output.concept);
  }
  return Object.fromEntries(
    Object.entries(byCode).map(([key, entry]) => [
      key,
      { inputs: [...entry.inputs].sort(), outputs: [...entry.outputs].sort() },
    ]),
  );
}

/** Digest relations every edge implies: what it says of the stuffs at both ends, as booleans per edge shape. */
function digestRelations(spec: Spec): string[] {
  const byId = new Map(spec.nodes.map((node) => [node.id, node]));
  return spec.edges.flatMap((edge) => {
    const source = byId.get(edge.source)!;
    const target = byId.get(edge.target)!;
    if (edge.kind === 'data') {
      const read = target.io.inputs.find((input) => input.name === edge.label);
      const written = source.io.outputs.some((output) => output.digest === read?.digest);
      return [`data ${source.pipe_code}>${target.pipe_code}:${edge.label} connects=${written}`];
    }
    if (edge.kind === 'batch_item') {
      const index = /^\[(\d+)\]$/.exec(edge.label ?? '')?.[1];
      const item = edge.target_stuff_digest === `${edge.source_stuff_digest}-branch-${index}`;
      const read = target.io.inputs.some((input) => input.digest === edge.target_stuff_digest);
      const list = source.io.inputs.some((input) => input.digest === edge.source_stuff_digest);
      return [`batch_item ${source.pipe_code}>${target.pipe_code} item=${item} read=${read} list=${list}`];
    }
    if (edge.kind === 'batch_aggregate') {
      const from = source.io.outputs.some((output) => output.digest === edge.source_stuff_digest);
      const into = target.io.outputs.some((output) => output.digest === edge.target_stuff_digest);
      return [`batch_aggregate ${source.pipe_code}>${target.pipe_code} from=${from} into=${into}`];
    }
    return [];
  });
}

/**
 * Differences left as they are (docs/graph-spec.md#remaining-differences-and-why): in a dry run a PipeCondition runs
 * every outcome and
 * stands for the last one run; we run them sorted by pipe code, and the reference's order for `pipeline_30` (True/False
 * outcomes of an expression template) is another, so that condition and its sequence show the other branch's concept.
 */
const KNOWN_IO_DIFFERENCES: Record<string, string[]> = { pipeline_30: ['route_on_match', 'screen_candidate'] };

const unique = (values: string[]): string[] => [...new Set(values)].sort();

/**
 * Draw a graph with mthds-ui and check what it drew.
 * @param ui - the mthds-ui graph layer
 * @param spec - our graph
 */
async function expectDrawn(ui: MthdsUi, spec: Spec): Promise<void> {
  const { graphData, analysis } = ui.buildGraph(spec, 'default');
  const cards = new Set(graphData.nodes.filter((node) => node.type === 'pipeCard').map((node) => node.id));
  const operators = spec.nodes.filter((node) => node.kind === 'operator').map((node) => node.id);
  expect(operators.filter((id) => !cards.has(id))).to.deep.equal([]);
  expect(graphData.nodes.filter((node) => node.type === 'default')).to.not.have.length(0);
  const laid = await ui.getLayoutedElements(graphData.nodes, graphData.edges, 'TB', undefined, spec, analysis);
  const drawn = ui.applyControllers(laid.nodes, laid.edges, spec, analysis, true);
  const controllers = spec.nodes.filter((node) => node.kind === 'controller').length;
  expect(drawn.nodes.filter((node) => node.type === 'controllerGroup').length > 0).to.equal(controllers > 0);
}

describe('graph_spec drawn by mthds-ui for the corpus samples and published methods', () => {
  const app = buildTestApp();
  let ui: MthdsUi;

  before(async () => {
    ui = (await import(MTHDS_UI)) as MthdsUi;
  });

  for (const file of corpusSampleFiles()) {
    it(`should draw the sample ${file}`, async () => {
      const response = await request(app)
        .post('/v1/validate')
        .send({ mthds_contents: [sample(file.replace(/\.mthds$/, ''))] })
        .expect(200);
      expect(response.body.graph_spec).to.not.equal(null);
      await expectDrawn(ui, response.body.graph_spec as Spec);
    });
  }

  for (const path of corpusMethodBundles().filter((bundle) => bundle !== DOCUMENTS_BUNDLE)) {
    it(`should draw the published method ${path}, with the documents package beside it`, async () => {
      const response = await request(app)
        .post('/v1/validate')
        .send({ mthds_contents: [corpusText(`methods/${path}`), corpusText(`methods/${DOCUMENTS_BUNDLE}`)] })
        .expect(200);
      const spec = response.body.graph_spec as Spec;
      expect(spec.nodes.map((node) => (node as Node & { status: string }).status)).to.not.include('failed');
      await expectDrawn(ui, spec);
    });
  }
});

describe('graph_spec conformance with the reference runner (mthds-ui-pipelines oracle)', () => {
  const app = buildTestApp();
  const bundles = readdirSync(ORACLE, { withFileTypes: true })
    .filter((entry) => entry.isDirectory())
    .map((entry) => entry.name)
    .sort();
  let ui: MthdsUi;

  before(async () => {
    ui = (await import(MTHDS_UI)) as MthdsUi;
  });

  it('should hold the 28 oracle bundles', () => {
    expect(bundles).to.have.length(28);
  });

  for (const name of bundles) {
    describe(name, () => {
      let ours: Spec;
      let reference: Spec;

      before(async () => {
        const content = readFileSync(new URL(`${name}/bundle.mthds`, ORACLE), 'utf8');
        reference = JSON.parse(readFileSync(new URL(`${name}/dry_run_graph_spec.json`, ORACLE), 'utf8')) as Spec;
        const response = await request(app)
          .post('/v1/validate')
          .send({ mthds_contents: [content] })
          .expect(200);
        expect(response.body.is_valid, JSON.stringify(response.body.validation_errors)).to.equal(true);
        ours = response.body.graph_spec as Spec;
      });

      it('should have the reference node set by pipe code, kinds included', () => {
        const set = (spec: Spec) => unique(spec.nodes.map((node) => `${node.kind}:${node.pipe_code}`));
        expect(set(ours)).to.deep.equal(set(reference));
      });

      it('should have the reference edge kinds and endpoints', () => {
        expect([...edgeShapes(ours)].sort()).to.deep.equal([...edgeShapes(reference)].sort());
      });

      it('should have the reference io concepts per pipe', () => {
        const known = KNOWN_IO_DIFFERENCES[name] ?? [];
        const compared = (spec: Spec) =>
          Object.fromEntries(Object.entries(ioConcepts(spec)).filter(([code]) => !known.includes(code)));
        expect(compared(ours)).to.deep.equal(compared(reference));
      });

      it('should relate digests as the reference does', () => {
        expect(unique(digestRelations(ours))).to.deep.equal(unique(digestRelations(reference)));
      });

      it('should fill pipe_registry and concept_registry with the reference keys', () => {
        expect(Object.keys(ours.pipe_registry).sort()).to.deep.equal(Object.keys(reference.pipe_registry).sort());
        expect(Object.keys(ours.concept_registry).sort()).to.deep.equal(Object.keys(reference.concept_registry).sort());
      });

      it('should be drawn by mthds-ui: a pipe card per operator, stuff nodes, controller groups', async () => {
        await expectDrawn(ui, ours);
      });
    });
  }
});

/**
 * The live graphs of the oracle (`live_run_graph_spec.json`, a reduced dump: nodes and edges) against the graph of
 * our `/v1/execute` on the same `inputs.json` with mock inference: the same structure, except which outcome a
 * condition took, which follows the model's answer (one outcome under each condition on both sides).
 */
describe('live graph_spec conformance with the reference runner (mthds-ui-pipelines oracle)', () => {
  const app = buildTestApp();
  const live = readdirSync(ORACLE, { withFileTypes: true })
    .filter((entry) => entry.isDirectory())
    .map((entry) => entry.name)
    .filter((name) => readdirSync(new URL(`${name}/`, ORACLE)).includes('live_run_graph_spec.json'))
    .sort();

  /** The graph without what a condition ran, and how many nodes each condition ran. */
  function beyondOutcomes(spec: Spec): {
    edges: string[];
    io: Record<string, unknown>;
    digests: string[];
    outcomes: number[];
  } {
    const conditions = new Set(
      spec.nodes
        .filter((node) => (node as Node & { pipe_type: string }).pipe_type === 'PipeCondition')
        .map((n) => n.id),
    );
    const outcomes = new Set(
      spec.edges.filter((edge) => edge.kind === 'contains' && conditions.has(edge.source)).map((edge) => edge.target),
    );
    const kept: Spec = {
      ...spec,
      nodes: spec.nodes.filter((node) => !outcomes.has(node.id)),
      edges: spec.edges.filter((edge) => !outcomes.has(edge.source) && !outcomes.has(edge.target)),
    };
    return {
      edges: [...edgeShapes(kept)].sort(),
      io: ioConcepts(kept),
      digests: unique(digestRelations(kept)),
      outcomes: [...conditions].map(
        (id) => spec.edges.filter((edge) => edge.kind === 'contains' && edge.source === id).length,
      ),
    };
  }

  it('should hold the three live graphs', () => {
    expect(live).to.deep.equal(['pipeline_01', 'pipeline_07', 'pipeline_16']);
  });

  for (const name of live) {
    it(`should run ${name} to the reference's live graph structure`, async () => {
      const response = await request(app)
        .post('/v1/execute')
        .send({
          mthds_contents: [readFileSync(new URL(`${name}/bundle.mthds`, ORACLE), 'utf8')],
          inputs: JSON.parse(readFileSync(new URL(`${name}/inputs.json`, ORACLE), 'utf8')),
        })
        .expect(200);
      const ours = response.body.pipe_output.graph_spec as Spec;
      const reference = JSON.parse(readFileSync(new URL(`${name}/live_run_graph_spec.json`, ORACLE), 'utf8')) as Spec;
      expect(beyondOutcomes(ours)).to.deep.equal(beyondOutcomes(reference));
    });
  }
});

describe('live graph_spec drawn by mthds-ui from run results, in both orchestration modes', () => {
  /** The oracle bundles whose `inputs.json` are the values of a real run (the others hold input templates). */
  const live = ['pipeline_01', 'pipeline_07', 'pipeline_16'];
  const runBody = (name: string) => ({
    mthds_contents: [readFileSync(new URL(`${name}/bundle.mthds`, ORACLE), 'utf8')],
    inputs: JSON.parse(readFileSync(new URL(`${name}/inputs.json`, ORACLE), 'utf8')),
  });
  let ui: MthdsUi;
  let deployment: QueueDeployment;

  before(async () => {
    ui = (await import(MTHDS_UI)) as MthdsUi;
    deployment = startQueueDeployment();
  });

  after(async () => {
    await deployment.close();
  });

  for (const name of live) {
    it(`should draw the live graph of ${name} from /v1/execute in direct mode`, async () => {
      const response = await request(buildTestApp()).post('/v1/execute').send(runBody(name)).expect(200);
      await expectDrawn(ui, response.body.pipe_output.graph_spec as Spec);
    });

    it(`should draw the live graph of ${name} from /v1/runs/{id}/results in queue mode`, async () => {
      const started = await request(deployment.app).post('/v1/start').send(runBody(name)).expect(202);
      const results = await pollUntil(
        () => request(deployment.app).get(`/v1/runs/${started.body.pipeline_run_id}/results`),
        (response) => response.status === 200,
      );
      expect(results.body.graph_spec).to.deep.equal(results.body.pipe_output.graph_spec);
      await expectDrawn(ui, results.body.graph_spec as Spec);
    });
  }
});
