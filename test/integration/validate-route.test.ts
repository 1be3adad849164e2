import { expect } from 'chai';
import request from 'supertest';
import { corpusText, sample } from '../helpers/corpus.js';
import { buildTestApp } from '../helpers/test-app.js';

const app = buildTestApp();

function validate(body: unknown) {
  return request(app)
    .post('/v1/validate')
    .send(body as object);
}

describe('POST /v1/validate', () => {
  describe('when the bundle is valid', () => {
    for (const name of ['hello_greeting', 'cv_job_match', 'fashion_moodboard', 'batch_candidate_screening']) {
      it(`should answer a runnable ValidReport for ${name}`, async () => {
        const response = await validate({ mthds_contents: [sample(name)], mthds_sources: [`${name}.mthds`] }).expect(
          200,
        );
        expect(response.headers['content-type']).to.equal('application/json');
        expect(response.body).to.include({
          is_valid: true,
          is_runnable: true,
          message: 'MTHDS content validated successfully',
        });
        expect(response.body.pending_signatures).to.deep.equal([]);
        expect(response.body.graph_spec.pipeline_ref).to.deep.equal({
          domain: name,
          main_pipe: response.body.bundle_blueprint.main_pipe,
          entrypoint: null,
        });
        expect(response.body.mthds_contents).to.deep.equal([sample(name)]);
        expect(response.body.bundle_blueprint.source).to.equal(`${name}.mthds`);
        expect(response.body.bundle_blueprint.domain).to.equal(name);
        expect(response.body.default_pipe_ref).to.equal(`${name}.${response.body.bundle_blueprint.main_pipe}`);
      });
    }

    it('should give the graph of a dry run of the main pipe', async () => {
      const response = await validate({ mthds_contents: [sample('fashion_moodboard')] }).expect(200);
      const graph = response.body.graph_spec;
      expect(Object.keys(graph)).to.deep.equal([
        'graph_id',
        'created_at',
        'pipeline_ref',
        'nodes',
        'edges',
        'usage',
        'meta',
        'pipe_registry',
        'concept_registry',
      ]);
      expect(graph.nodes[0]).to.deep.include({
        id: 'node_0',
        kind: 'controller',
        pipe_code: 'create_collection_moodboards',
        pipe_type: 'PipeSequence',
        status: 'succeeded',
      });
      expect(graph.nodes.slice(1, 4).map((node: { pipe_code: string }) => node.pipe_code)).to.deep.equal([
        'search_trends',
        'generate_inspirations',
        'create_moodboards',
      ]);
      expect(
        graph.edges
          .filter((edge: { kind: string }) => edge.kind === 'data')
          .map(
            (edge: { source: string; target: string; label: string }) => `${edge.source}>${edge.target}:${edge.label}`,
          ),
      ).to.include('node_1>node_2:trends');
      expect(
        graph.edges.filter(
          (edge: { source: string; kind: string }) => edge.source === 'node_0' && edge.kind === 'contains',
        ),
      ).to.have.length(3);
    });

    it('should give the pipe I/O contract of hello_greeting', async () => {
      const response = await validate({ mthds_contents: [sample('hello_greeting')] }).expect(200);
      const contract = response.body.pipe_io_contracts['hello_greeting.write_greeting'];
      expect(contract.inputs.name).to.include({
        concept_ref: 'native.Text',
        presence: 'plain',
        multiplicity: 'single',
        item_count: null,
      });
      expect(contract.inputs.name.json_schema).to.deep.equal({
        description: 'A text',
        properties: { text: { type: 'string', description: 'The text', title: 'Text' } },
        required: ['text'],
        title: 'native.Text',
        type: 'object',
      });
      expect(contract.output).to.include({ concept_ref: 'native.Text', multiplicity: 'single', optional: false });
      expect(response.body.bundle_blueprint.source).to.equal(null);
    });

    it('should list a PipeSignature as pending and not runnable', async () => {
      const response = await validate({ mthds_contents: [sample('draft_with_signature')] }).expect(200);
      expect(response.body).to.include({ is_valid: true, is_runnable: false });
      expect(response.body.pending_signatures).to.deep.equal(['draft_with_signature.translate_summary']);
      expect(response.body.validated_pipes).to.deep.equal([
        { pipe_ref: 'draft_with_signature.summarize_document', status: 'SUCCESS' },
        { pipe_ref: 'draft_with_signature.summarize_then_translate', status: 'SUCCESS' },
      ]);
    });

    it('should mock-run the signature too with allow_signatures', async () => {
      const response = await validate({
        mthds_contents: [sample('draft_with_signature')],
        allow_signatures: true,
      }).expect(200);
      expect(response.body.validated_pipes.map((entry: { pipe_ref: string }) => entry.pipe_ref)).to.include(
        'draft_with_signature.translate_summary',
      );
      expect(response.body.is_runnable).to.equal(false);
    });

    it('should dry-run every pipe of a bundle (validated_pipes)', async () => {
      const response = await validate({ mthds_contents: [sample('fashion_moodboard')] }).expect(200);
      expect(response.body.validated_pipes).to.have.length(8);
      expect(new Set(response.body.validated_pipes.map((entry: { status: string }) => entry.status))).to.deep.equal(
        new Set(['SUCCESS']),
      );
    });

    it('should refuse a bundle calling a package absent from the request (docs/namespaces.md#cross-package-references)', async () => {
      const response = await validate({ mthds_contents: [corpusText('methods/doc_summarizer/bundle.mthds')] }).expect(
        200,
      );
      expect(response.body).to.include({ is_valid: false });
      expect(response.body.validation_errors).to.deep.equal([
        {
          category: 'pipe_validation',
          message:
            "Pipe 'summarize_document', field 'steps[0].pipe': 'github.com/Pipelex/methods/documents->documents.extract_text_pages' calls package 'github.com/Pipelex/methods/documents', which is not loaded: cross-package references resolve among the bundles of the request (or, for a method_ref, the packages it references, fetched by address). Send that package's bundles too, or run the method by method_ref.",
          error_type: 'unresolved_package_dependency',
          pipe_code: 'summarize_document',
          domain_code: 'document_summarization',
          field_path: 'pipe.summarize_document.steps[0].pipe',
          field_name: 'pipe',
          missing_pipe_code: 'github.com/Pipelex/methods/documents->documents.extract_text_pages',
          source: null,
        },
      ]);
    });

    it('should dry-run every pipe of a bundle sent with the package it calls', async () => {
      const response = await validate({
        mthds_contents: [
          corpusText('methods/doc_summarizer/bundle.mthds'),
          corpusText('methods/documents/documents.mthds'),
        ],
      }).expect(200);
      expect(response.body.validated_pipes).to.deep.include({
        pipe_ref: 'document_summarization.summarize_document',
        status: 'SUCCESS',
      });
    });

    it('should accept a bundle without main_pipe, with a null default_pipe_ref', async () => {
      const response = await validate({ mthds_contents: [sample('invalid/missing_main_pipe')] }).expect(200);
      expect(response.body).to.include({ is_valid: true, default_pipe_ref: null, graph_spec: null });
    });

    it('should add input_form and output_form only when views asks for them', async () => {
      const plain = await validate({ mthds_contents: [sample('cv_job_match')] }).expect(200);
      const noViews = await validate({ mthds_contents: [sample('cv_job_match')], views: [] }).expect(200);
      const unknownView = await validate({ mthds_contents: [sample('cv_job_match')], views: ['graph'] }).expect(200);
      expect(plain.body).to.not.have.property('input_form');
      const withoutGraph = (body: Record<string, unknown>) => ({ ...body, graph_spec: undefined });
      expect(withoutGraph(noViews.body)).to.deep.equal(withoutGraph(plain.body));
      expect(unknownView.body).to.not.have.property('input_form');
      const withViews = await validate({
        mthds_contents: [sample('cv_job_match')],
        views: ['input_form', 'output_form', 'input_form'],
      }).expect(200);
      expect(withViews.body.input_form['cv_job_match.analyze_cv_job_match']).to.deep.equal({
        fields: [
          {
            kind: 'prose',
            name: 'cv_text',
            concept_ref: 'native.Text',
            description: 'A text',
            required: true,
            presence: 'plain',
            gating: true,
          },
          {
            kind: 'prose',
            name: 'job_offer_text',
            concept_ref: 'native.Text',
            description: 'A text',
            required: true,
            presence: 'plain',
            gating: true,
          },
        ],
      });
      const output = withViews.body.output_form['cv_job_match.analyze_cv_job_match'].field;
      expect(output).to.include({
        kind: 'object',
        name: 'output',
        concept_ref: 'cv_job_match.MatchAnalysis',
        required: true,
      });
      expect(output.fields[0]).to.deep.equal({
        kind: 'boolean',
        name: 'is_match',
        required: true,
        description: 'Whether the candidate is a good match for the job',
      });
      expect(output.fields[1]).to.deep.equal({
        kind: 'number',
        name: 'match_score',
        integer: true,
        required: true,
        description: 'Score from 0 to 100 indicating how well the CV matches the job offer',
      });
    });

    it('should ignore unknown members such as allow_signatures', async () => {
      await validate({
        mthds_contents: [sample('hello_greeting')],
        allow_signatures: true,
        render: ['markdown'],
      }).expect(200);
    });
  });

  describe('when the bundle is invalid', () => {
    it('should answer one residual blueprint_validation item for a TOML syntax error', async () => {
      const response = await validate({
        mthds_contents: [sample('invalid/syntax_error')],
        mthds_sources: ['bad.mthds'],
      }).expect(200);
      expect(Object.keys(response.body).sort()).to.deep.equal([
        'is_runnable',
        'is_valid',
        'message',
        'pending_signatures',
        'validation_errors',
      ]);
      expect(response.body).to.include({ is_valid: false, is_runnable: false });
      expect(response.body.validation_errors).to.have.length(1);
      const [item] = response.body.validation_errors;
      expect(item.category).to.equal('blueprint_validation');
      expect(item).to.not.have.property('source');
      expect(item).to.not.have.property('error_type');
      expect(response.body.message).to.include('TOML');
    });

    const cases: [string, Record<string, unknown>][] = [
      [
        'invalid/missing_pipe_ref',
        { error_type: 'unresolved_pipe_dependency', missing_pipe_code: 'second_step_missing' },
      ],
      ['invalid/prompt_input_mismatch', { error_type: 'missing_input_variable', pipe_code: 'greet_person' }],
      ['invalid/bad_pipe_type', { error_type: 'unknown_pipe_type', pipe_code: 'mystery' }],
    ];
    for (const [name, expected] of cases) {
      it(`should report ${String(expected['error_type'])} for ${name}`, async () => {
        const response = await validate({ mthds_contents: [sample(name)], mthds_sources: ['file.mthds'] }).expect(200);
        expect(response.body.is_valid).to.equal(false);
        const item = response.body.validation_errors.find(
          (candidate: Record<string, unknown>) => candidate['error_type'] === expected['error_type'],
        );
        expect(item, JSON.stringify(response.body.validation_errors)).to.include(expected);
        for (const value of Object.values(item)) expect(value).to.not.equal(null);
      });
    }

    it('should report the undeclared variable of prompt_input_mismatch', async () => {
      const response = await validate({ mthds_contents: [sample('invalid/prompt_input_mismatch')] }).expect(200);
      const item = response.body.validation_errors.find(
        (candidate: Record<string, unknown>) => candidate['error_type'] === 'missing_input_variable',
      );
      expect(item.variable_names).to.deep.equal(['city']);
      expect(item.source).to.equal(null);
    });

    it('should turn a dry-run failure into a dry_run item', async () => {
      const bundle =
        'domain = "funcs"\nmain_pipe = "call"\n[pipe.call]\ntype = "PipeFunc"\ndescription = "d"\noutput = "Text"\nfunction_name = "my_module.my_function"\n';
      const response = await validate({ mthds_contents: [bundle] }).expect(200);
      expect(response.body.is_valid).to.equal(false);
      expect(response.body.validation_errors).to.have.length(1);
      expect(response.body.validation_errors[0]).to.include({
        category: 'dry_run',
        error_type: 'DryRunError',
        pipe_code: 'call',
        domain_code: 'funcs',
      });
      expect(response.body.validation_errors[0]).to.not.have.property('source');
      expect(response.body.validation_errors[0].message).to.include("Dry run of pipe 'funcs.call' failed");
    });

    it('should report the unknown concept of unknown_concept', async () => {
      const response = await validate({ mthds_contents: [sample('invalid/unknown_concept')] }).expect(200);
      expect(response.body.is_valid).to.equal(false);
      expect(JSON.stringify(response.body.validation_errors)).to.include('NonExistentConcept');
    });
  });

  describe('when validation_mode names a mode', () => {
    it('should report strict deviations as errors in strict mode and accept them in compat (the default)', async () => {
      const bundles = [
        corpusText('methods/entity_extractor/bundle.mthds'),
        corpusText('methods/documents/documents.mthds'),
      ];
      const compat = await validate({ mthds_contents: bundles, validation_mode: 'compat' }).expect(200);
      expect(compat.body.is_valid).to.equal(true);
      const strict = await validate({
        mthds_contents: bundles,
        mthds_sources: ['entity_extractor.mthds', 'documents.mthds'],
        validation_mode: 'strict',
      }).expect(200);
      expect(strict.body).to.include({ is_valid: false, is_runnable: false });
      expect(
        strict.body.validation_errors.map(
          (item: { error_type: string; concept_code: string; field_name: string; source: string }) => [
            item.error_type,
            item.concept_code,
            item.field_name,
            item.source,
          ],
        ),
      ).to.deep.equal([['invalid_concept_field', 'Entity', 'entity_type', 'entity_extractor.mthds']]);
    });

    it('should refuse an unknown mode with 422', async () => {
      const response = await validate({
        mthds_contents: [sample('hello_greeting')],
        validation_mode: 'lenient',
      }).expect(422);
      expect(response.body.error_type).to.equal('ValidationError');
      expect(response.body.detail).to.match(/^body\.validation_mode: /);
    });
  });

  describe('when a content is over MAX_MTHDS_FILE_KIB', () => {
    it('should refuse it with 422 on validate and on the closure routes, under the deployment limit', async () => {
      const small = buildTestApp({ MAX_MTHDS_FILE_KIB: '1' });
      const content = `${sample('hello_greeting')}\n# ${'x'.repeat(1024)}\n`;
      const bytes = Buffer.byteLength(content, 'utf8');
      const validated = await request(small)
        .post('/v1/validate')
        .send({ mthds_contents: [content] })
        .expect(422);
      expect(validated.body.detail).to.equal(`body.mthds_contents.0: MTHDS file exceeds 1 KiB limit (${bytes} bytes)`);
      for (const path of ['/v1/resolve', '/v1/build/inputs']) {
        const response = await request(small)
          .post(path)
          .send({ files: [{ content }] })
          .expect(422);
        expect(response.body.detail).to.equal(`body.files.0.content: MTHDS file exceeds 1 KiB limit (${bytes} bytes)`);
      }
      const codegen = await request(small)
        .post('/v1/codegen')
        .send({ files: [{ content }], kind: 'types', target: 'ts-zod' })
        .expect(422);
      expect(codegen.body.detail).to.equal(`body.files.0.content: MTHDS file exceeds 1 KiB limit (${bytes} bytes)`);
      await validate({ mthds_contents: [content] }).expect(200);
    });
  });

  describe('when the request is malformed', () => {
    it('should refuse mthds_sources of another length with 422 naming mthds_sources', async () => {
      const response = await validate({
        mthds_contents: [sample('hello_greeting')],
        mthds_sources: ['a.mthds', 'b.mthds'],
      }).expect(422);
      expect(response.headers['content-type']).to.equal('application/problem+json');
      expect(response.body).to.include({ error_type: 'ValidationError', status: 422, retryable: false });
      expect(response.body.detail).to.include('mthds_sources');
    });

    it('should refuse neither mthds_contents nor method_ref', async () => {
      const response = await validate({}).expect(422);
      expect(response.body.detail).to.include('provide exactly one of `mthds_contents`, `method_ref` or `method_id`');
    });

    it('should refuse both mthds_contents and method_ref', async () => {
      await validate({ mthds_contents: ['domain = "x"'], method_ref: 'github.com/a/b' }).expect(422);
    });

    it('should refuse malformed JSON with a ValidationError problem', async () => {
      const response = await request(app)
        .post('/v1/validate')
        .set('Content-Type', 'application/json')
        .send('{"mthds_contents": [')
        .expect(422);
      expect(response.body.error_type).to.equal('ValidationError');
      expect(response.body.detail).to.match(/^body: JSON decode error/);
    });

    it('should answer 501 for a registry-form method_ref', async () => {
      const response = await validate({ method_ref: 'pipelex/methods' }).expect(501);
      expect(response.body.error_type).to.equal('MethodRefNotSupported');
    });

    it('should refuse an orchestration_mode override with 403', async () => {
      const response = await validate({
        mthds_contents: [sample('hello_greeting')],
        orchestration_mode: 'bullmq',
      }).expect(403);
      expect(response.body.error_type).to.equal('OrchestrationModeOverrideForbidden');
      expect(response.body.detail).to.include("configured mode 'direct', requested 'bullmq'");
    });
  });
});
