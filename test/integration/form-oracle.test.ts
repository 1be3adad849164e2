import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { expect } from 'chai';
import request from 'supertest';
import type { FormNode, PipeInputFormDescriptor, PipeIOContract } from '../../shared/wire/index.js';
import { corpusMethodBundles, corpusSampleFiles, methodClosureFiles, sample } from '../helpers/corpus.js';
import { formInputs } from '../helpers/form-values.js';
import { buildTestApp } from '../helpers/test-app.js';

/**
 * The reference runner's outputs beside each oracle bundle (`../shared/reference/mthds-ui-pipelines/<name>/`):
 * `input_schema.json` (the inputs template of the main pipe) and `inputs.json` (the inputs its runs used).
 */
const ORACLE = new URL('../../../shared/reference/mthds-ui-pipelines/', import.meta.url);

/** Pipes whose form round trip fails for a reason outside the form. */
const ROUND_TRIP_EXCEPTIONS: Record<string, string> = {
  'draft_with_signature.summarize_then_translate': 'it calls a PipeSignature (contract only), which cannot run',
};

/** The form node kind the reference gives each native the oracle bundles take as input. */
const NATIVE_KINDS: Record<string, string> = {
  'native.Text': 'prose',
  'native.Document': 'document',
  'native.Image': 'image',
};

type ReferenceInputs = Record<string, { concept: string; content: unknown }>;

/** The reference's inputs of the main pipe: its template when it is JSON, else the inputs its runs used. */
function referenceInputs(bundle: string): { inputs: ReferenceInputs; template: boolean; pipeCode?: string } {
  try {
    const schema = JSON.parse(readFileSync(new URL(`${bundle}/input_schema.json`, ORACLE), 'utf8')) as {
      pipe_code: string;
      inputs: ReferenceInputs;
    };
    return { inputs: schema.inputs, template: true, pipeCode: schema.pipe_code };
  } catch {
    return { inputs: JSON.parse(readFileSync(new URL(`${bundle}/inputs.json`, ORACLE), 'utf8')), template: false };
  }
}

const bundles = existsSync(ORACLE)
  ? readdirSync(ORACLE)
      .filter((name) => name.startsWith('pipeline_'))
      .sort()
  : [];

type FormReport = {
  is_valid: boolean;
  default_pipe_ref: string;
  pending_signatures: string[];
  pipe_io_contracts: Record<string, PipeIOContract>;
  input_form: Record<string, PipeInputFormDescriptor>;
};

const app = buildTestApp();

/**
 * Run every runnable pipe of a validated library from the values its input form collects.
 * @returns one line per pipe that did not complete
 */
async function roundTripFailures(contents: string[], report: FormReport): Promise<string[]> {
  const failures: string[] = [];
  for (const [pipeRef, form] of Object.entries(report.input_form)) {
    if (pipeRef in ROUND_TRIP_EXCEPTIONS || report.pending_signatures.includes(pipeRef)) continue;
    const response = await request(app)
      .post('/v1/execute')
      .send({ mthds_contents: contents, pipe_code: pipeRef, inputs: formInputs(form) });
    if (response.body.state !== 'COMPLETED') failures.push(`${pipeRef}: ${JSON.stringify(response.body)}`);
  }
  return failures;
}

describe('form descriptors and I/O contracts against the reference runner (mthds-ui-pipelines)', () => {
  before(function () {
    if (bundles.length === 0) {
      console.log('    ../shared/reference/mthds-ui-pipelines is absent: skipping the comparison with the reference');
      this.skip();
    }
  });

  for (const bundle of bundles) {
    describe(bundle, () => {
      const content = existsSync(ORACLE) ? readFileSync(new URL(`${bundle}/bundle.mthds`, ORACLE), 'utf8') : '';
      let report: FormReport;

      before(async () => {
        report = (
          await request(app)
            .post('/v1/validate')
            .send({ mthds_contents: [content], views: ['input_form', 'output_form'] })
            .expect(200)
        ).body;
        expect(report.is_valid).to.equal(true);
      });

      it('should take the inputs the reference takes, described as the reference describes them', () => {
        const reference = referenceInputs(bundle);
        const pipeRef = report.default_pipe_ref;
        if (reference.pipeCode !== undefined) expect(pipeRef.split('.')[1]).to.equal(reference.pipeCode);
        const contract = report.pipe_io_contracts[pipeRef]!;
        expect(Object.keys(contract.inputs).sort()).to.deep.equal(Object.keys(reference.inputs).sort());
        const fields = new Map<string | undefined, FormNode>(
          report.input_form[pipeRef]!.fields.map((field) => [field.name, field]),
        );
        for (const [name, { concept, content: value }] of Object.entries(reference.inputs)) {
          const input = contract.inputs[name]!;
          expect(input.concept_ref, name).to.equal(concept);
          const plural = Array.isArray(value);
          expect(input.multiplicity === 'single', name).to.equal(!plural);
          const schema = (plural ? input.json_schema['items'] : input.json_schema) as {
            title: string;
            required: string[];
            properties: Record<string, unknown>;
          };
          expect(schema.title, name).to.equal(concept);
          for (const item of plural ? (value as object[]) : [value as object]) {
            const keys = Object.keys(item).sort();
            if (reference.template) expect(keys, name).to.deep.equal([...schema.required].sort());
            else {
              expect(keys, name).to.include.members(schema.required);
              expect(Object.keys(schema.properties), name).to.include.members(keys);
            }
          }
          const field = fields.get(name)!;
          const node = plural ? field.item! : field;
          expect(field.concept_ref, name).to.equal(concept);
          expect(node.kind, name).to.equal(NATIVE_KINDS[concept] ?? 'object');
        }
      });

      it('should run every pipe to COMPLETED from the values its input form collects', async () => {
        expect(await roundTripFailures([content], report)).to.deep.equal([]);
      });
    });
  }
});

describe('form round trips over the corpus samples and the published methods', () => {
  const libraries: [string, string[]][] = [
    ...corpusSampleFiles().map((file): [string, string[]] => [file, [sample(file.replace('.mthds', ''))]]),
    ...corpusMethodBundles().map((bundle): [string, string[]] => [
      bundle,
      methodClosureFiles(bundle).map((file) => file.content),
    ]),
  ];
  for (const [name, contents] of libraries) {
    it(`should run every pipe of ${name} to COMPLETED from the values its input form collects`, async () => {
      const report: FormReport = (
        await request(app)
          .post('/v1/validate')
          .send({ mthds_contents: contents, views: ['input_form'] })
          .expect(200)
      ).body;
      expect(report.is_valid).to.equal(true);
      expect(await roundTripFailures(contents, report)).to.deep.equal([]);
    });
  }
});
