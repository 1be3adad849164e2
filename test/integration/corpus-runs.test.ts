import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expect } from 'chai';
import request from 'supertest';
import { corpusText, sample } from '../helpers/corpus.js';
import { type FakeAnthropicServer, startFakeAnthropicServer } from '../helpers/fake-anthropic-server.js';
import { type GenerateContentBody, startFakeGeminiServer } from '../helpers/fake-gemini-server.js';
import { completion, type FakeOpenAiServer, startFakeOpenAiServer } from '../helpers/fake-openai-server.js';
import type { FakeProviderServer } from '../helpers/fake-provider-server.js';
import { buildTestApp } from '../helpers/test-app.js';

const SAMPLE_INPUTS = new URL('../../../shared/corpus/methods/_sample-inputs/', import.meta.url);

function pdfDocument(path: string): { concept: string; content: { url: string; mime_type: string } } {
  const bytes = readFileSync(new URL(path, SAMPLE_INPUTS));
  return {
    concept: 'native.Document',
    content: { url: `data:application/pdf;base64,${bytes.toString('base64')}`, mime_type: 'application/pdf' },
  };
}

const cvAnalyzerInputs = {
  cv: pdfDocument('cv-analyzer/inputs/acme_cv_software_engineer.pdf'),
  job_offer: pdfDocument('cv-analyzer/inputs/acme_job_offer_engineer.pdf'),
};

describe('corpus bundles run to completion', function () {
  this.timeout(30000);

  describe('with mock inference', () => {
    const app = buildTestApp();

    it('should run fashion_moodboard (search, list LLM output, batch of image generations)', async () => {
      const response = await request(app)
        .post('/v1/execute')
        .send({ mthds_contents: [sample('fashion_moodboard')], inputs: { fashion_target: 'Women SS27' } })
        .expect(200);
      const { root, aliases } = response.body.pipe_output.working_memory;
      expect(aliases).to.deep.equal({ main_stuff: 'moodboards' });
      expect(root.trends.concept.code).to.equal('SearchResult');
      expect(root.trends.content.answer).to.include('Women SS27');
      expect(root.inspirations.content.items).to.have.length(5);
      expect(root.inspirations.concept).to.include({ code: 'FashionInspiration', structure_class_name: 'TextContent' });
      expect(root.moodboards.content.items).to.have.length(5);
      expect(root.moodboards.content.items[0].url).to.match(/^data:image\/svg\+xml;base64,/);
    });

    it('should run batch_candidate_screening on PDF documents (extract, inline batch, search)', async () => {
      const response = await request(app)
        .post('/v1/execute')
        .send({
          mthds_contents: [sample('batch_candidate_screening')],
          inputs: {
            cvs: {
              concept: 'native.Document',
              content: [
                pdfDocument('cv-analyzer/inputs/acme_cv_software_engineer.pdf').content,
                pdfDocument('compliance-checker/inputs/synthetic_contract.pdf').content,
              ],
            },
            job_offer_pdf: pdfDocument('cv-analyzer/inputs/acme_job_offer_engineer.pdf'),
          },
        })
        .expect(200);
      const { root } = response.body.pipe_output.working_memory;
      expect(response.body.main_stuff_name).to.equal('match_analyses');
      expect(root.match_analyses.content.items).to.have.length(2);
      expect(root.match_analyses.concept.code).to.equal('CandidateMatch');
      expect(root.job_offer_pages.content.items[0].text_and_images.text.text).to.match(
        /^JOB OFFER\nSenior Backend Engineer/,
      );
    });

    it('should extract the text layer of each PDF page', async () => {
      const response = await request(app)
        .post('/v1/execute')
        .send({
          mthds_contents: [corpusText('methods/cv_analyzer/cv_analyzer.mthds')],
          pipe_code: 'extract_cv',
          inputs: { cv: cvAnalyzerInputs.cv },
        })
        .expect(200);
      const pages = response.body.pipe_output.working_memory.root.main_stuff.content.items;
      expect(pages.length).to.be.at.least(1);
      expect(pages[0].page_view).to.equal(null);
      expect(pages[0].text_and_images.images).to.deep.equal([]);
      expect(pages[0].text_and_images.text.text.length).to.be.above(100);
    });
  });

  describe('every published method, with the documents package it calls', () => {
    const app = buildTestApp();
    const documents = corpusText('methods/documents/documents.mthds');
    const withDataUrls = (directory: URL, value: unknown): unknown => {
      if (Array.isArray(value)) return value.map((item) => withDataUrls(directory, item));
      if (value === null || typeof value !== 'object') return value;
      return Object.fromEntries(
        Object.entries(value).map(([key, field]) =>
          key === 'url' && typeof field === 'string' && !/^https?:/.test(field)
            ? [key, `data:application/pdf;base64,${readFileSync(new URL(field, directory)).toString('base64')}`]
            : [key, withDataUrls(directory, field)],
        ),
      );
    };
    const methods: [string, string, string | null][] = [
      ['cv_analyzer', 'cv_analyzer.mthds', 'cv-analyzer'],
      ['doc_summarizer', 'bundle.mthds', 'doc-summarizer'],
      ['compliance_checker', 'bundle.mthds', 'compliance-checker'],
      ['entity_extractor', 'bundle.mthds', 'entity-extractor'],
      ['key_fact_extractor', 'bundle.mthds', 'key-fact-extractor'],
      ['report_writer', 'bundle.mthds', null],
    ];
    for (const [name, file, sampleInputs] of methods) {
      it(`should run ${name} to COMPLETED`, async () => {
        const directory = new URL(`${sampleInputs}/`, SAMPLE_INPUTS);
        const inputs =
          sampleInputs === null
            ? JSON.parse(corpusText(`methods/${name}/inputs.json`))
            : withDataUrls(directory, JSON.parse(readFileSync(new URL('inputs.json', directory), 'utf8')));
        const response = await request(app)
          .post('/v1/execute')
          .send({ mthds_contents: [corpusText(`methods/${name}/${file}`), documents], inputs });
        expect(response.status, JSON.stringify(response.body).slice(0, 400)).to.equal(200);
        expect(response.body.state).to.equal('COMPLETED');
      });
    }
  });

  describe('every runnable bundle with each real provider wire (fake servers on 127.0.0.1)', () => {
    let openai: FakeOpenAiServer;
    let anthropic: FakeAnthropicServer;
    let gemini: FakeProviderServer<GenerateContentBody>;
    let configDir: string;
    before(async () => {
      openai = await startFakeOpenAiServer();
      anthropic = await startFakeAnthropicServer();
      gemini = await startFakeGeminiServer();
      configDir = mkdtempSync(join(tmpdir(), 'corpus-providers-'));
      mkdirSync(join(configDir, 'inference'));
      writeFileSync(
        join(configDir, 'inference', 'routing_profiles.toml'),
        'active = "openai_only"\n[profiles.openai_only]\ndefault = "openai"\nroutes = { "pdfjs-extract-pdf" = "internal" }\n[profiles.anthropic_only]\ndefault = "anthropic"\nroutes = { "pdfjs-extract-pdf" = "internal" }\n[profiles.google_only]\ndefault = "google"\nroutes = { "pdfjs-extract-pdf" = "internal" }\n',
      );
    });
    after(async () => {
      await openai.close();
      await anthropic.close();
      await gemini.close();
      rmSync(configDir, { recursive: true, force: true });
    });

    const documents = () => corpusText('methods/documents/documents.mthds');
    const bundles: [string, () => string[], () => unknown][] = [
      ['hello_greeting', () => [sample('hello_greeting')], () => ({ name: 'Ada' })],
      [
        'cv_job_match',
        () => [sample('cv_job_match')],
        () => JSON.parse(corpusText('pipelex-api-samples/cv_job_match.inputs.json')),
      ],
      ['cv_analyzer', () => [corpusText('methods/cv_analyzer/cv_analyzer.mthds')], () => cvAnalyzerInputs],
      [
        'doc_summarizer',
        () => [corpusText('methods/doc_summarizer/bundle.mthds'), documents()],
        () => ({ document: pdfDocument('doc-summarizer/inputs/synthetic_contract.pdf') }),
      ],
      [
        'report_writer',
        () => [corpusText('methods/report_writer/bundle.mthds')],
        () => JSON.parse(corpusText('methods/report_writer/inputs.json')),
      ],
    ];
    const fakes = () => ({
      openai_only: openai.requests,
      anthropic_only: anthropic.requests,
      google_only: gemini.requests,
    });
    for (const profile of ['openai_only', 'anthropic_only', 'google_only'] as const) {
      for (const [name, contents, inputs] of bundles) {
        it(`should run ${name} through the ${profile.replace('_only', '')} wire`, async () => {
          const before = fakes()[profile].length;
          const app = buildTestApp({
            SERVICE_CONFIG_DIR: configDir,
            INFERENCE_PROFILE: profile,
            OPENAI_API_KEY: 'k',
            OPENAI_BASE_URL: openai.baseUrl,
            ANTHROPIC_API_KEY: 'k',
            ANTHROPIC_BASE_URL: anthropic.baseUrl,
            GEMINI_API_KEY: 'k',
            GEMINI_BASE_URL: gemini.origin,
            INFERENCE_MAX_RETRIES: '0',
          });
          const response = await request(app)
            .post('/v1/execute')
            .send({ mthds_contents: contents(), inputs: inputs() });
          expect(response.status, JSON.stringify(response.body).slice(0, 400)).to.equal(200);
          const after = fakes()[profile].length;
          expect(after).to.be.above(before);
          const backends = new Set(response.body.tokens_usages_backends);
          expect(backends).to.deep.equal(new Set([profile.replace('_only', '')]));
        });
      }
    }
  });

  describe('cv_analyzer with an OpenAI-compatible provider', () => {
    let fake: FakeOpenAiServer;
    beforeEach(async () => {
      fake = await startFakeOpenAiServer();
    });
    afterEach(async () => {
      await fake.close();
    });

    for (const [isMatch, branch] of [
      [true, 'generate_interview_questions'],
      [false, 'write_refusal_email'],
    ] as const) {
      it(`should take the ${branch} branch when is_match is ${isMatch}`, async () => {
        fake.respondWith((recorded) => {
          const schema = recorded.body.response_format?.json_schema;
          if (schema?.name === 'MatchResult') {
            return completion(JSON.stringify({ is_match: isMatch, match_analysis: 'because' }));
          }
          return completion(
            schema
              ? JSON.stringify({
                  items: [{ text: 'Q1' }, { text: 'Q2' }, { text: 'Q3' }, { text: 'Q4' }, { text: 'Q5' }],
                })
              : `${branch} output`,
          );
        });
        const app = buildTestApp({ OPENAI_API_KEY: 'k', OPENAI_BASE_URL: fake.baseUrl, INFERENCE_MAX_RETRIES: '0' });
        const response = await request(app)
          .post('/v1/execute')
          .send({ mthds_contents: [corpusText('methods/cv_analyzer/cv_analyzer.mthds')], inputs: cvAnalyzerInputs });
        expect(response.status, JSON.stringify(response.body).slice(0, 500)).to.equal(200);
        const prompts = fake.requests.map((recorded) => recorded.body.messages!.at(-1)!.content);
        expect(prompts.some((prompt) => prompt.includes(isMatch ? 'interview questions' : 'refusal email'))).to.equal(
          true,
        );
        expect(prompts.some((prompt) => prompt.includes(isMatch ? 'refusal email' : 'interview questions'))).to.equal(
          false,
        );
      });
    }
  });
});
