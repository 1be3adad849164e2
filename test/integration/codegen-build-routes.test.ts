import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expect } from 'chai';
import { parse } from 'smol-toml';
import request from 'supertest';
import { codegenLibraries } from '../helpers/codegen-libraries.js';
import { corpusText, sample } from '../helpers/corpus.js';
import { buildTestApp } from '../helpers/test-app.js';

const PDF = readFileSync(
  new URL(
    '../../../shared/corpus/methods/_sample-inputs/cv-analyzer/inputs/acme_cv_software_engineer.pdf',
    import.meta.url,
  ),
);
const PDF_URL = `data:application/pdf;base64,${PDF.toString('base64')}`;
const hello = [{ content: sample('hello_greeting'), source: 'hello.mthds' }];

const TWO_MAIN_PIPES = [
  ...hello,
  {
    content:
      'domain = "other"\ndescription = "Other"\nmain_pipe = "echo"\n\n[pipe.echo]\ntype = "PipeLLM"\ndescription = "Echo"\ninputs = { text = "Text" }\noutput = "Text"\nprompt = "$text"\n',
    source: 'other.mthds',
  },
];
const NO_MAIN_PIPE = [
  {
    content:
      'domain = "plain"\ndescription = "Plain"\n\n[pipe.echo]\ntype = "PipeLLM"\ndescription = "Echo"\ninputs = { text = "Text" }\noutput = "Text[]"\nprompt = "$text"\n',
    source: 'plain.mthds',
  },
];
const LOOSE_OUTPUT = [
  {
    source: 'loose.mthds',
    content: `domain = "loose"
description = "A condition whose outcomes produce different concepts"
main_pipe = "route"

[concept.Verdict]
description = "A verdict"

[concept.Verdict.structure]
ok = { type = "boolean", description = "Fine", required = true }

[pipe.route]
type = "PipeCondition"
description = "Route on the text"
inputs = { text = "Text" }
output = "Anything"
expression = "text.text"
outcomes = { yes = "judge" }
default_outcome = "rephrase"

[pipe.chain]
type = "PipeSequence"
description = "Rephrase, then judge"
inputs = { text = "Text" }
output = "Anything"
steps = [
  { pipe = "rephrase", result = "text" },
  { pipe = "judge", result = "verdict" },
]

[pipe.judge]
type = "PipeLLM"
description = "Judge"
inputs = { text = "Text" }
output = "Verdict"
prompt = "Judge $text"

[pipe.rephrase]
type = "PipeLLM"
description = "Rephrase"
inputs = { text = "Text" }
output = "Text"
prompt = "Rephrase $text"
`,
  },
];
const UNREGISTERED_FUNCTION = [
  {
    source: 'func.mthds',
    content:
      'domain = "func"\ndescription = "Func"\nmain_pipe = "compute"\n\n[pipe.compute]\ntype = "PipeFunc"\ndescription = "Compute"\ninputs = { text = "Text" }\noutput = "Text"\nfunction_name = "not_registered_anywhere"\n',
  },
];

/**
 * A pipe with a plain, an optional and a forced input (docs/language.md#optionality-presence-markers-and-absences),
 * written for these tests.
 */
const OPTIONAL_INPUTS = [
  'domain = "memo"',
  'main_pipe = "write_memo"',
  '[pipe.write_memo]',
  'type = "PipeLLM"',
  'description = "Writes a memo"',
  'inputs = { topic = "Text", hint = "Text?", tone = "Text!" }',
  'output = "Text"',
  'prompt = "Write a memo on $topic in a $tone tone{% if hint %}, hinting {{ hint.text }}{% endif %}"',
].join('\n');

describe('codegen and build routes', function () {
  this.timeout(60000);
  const app = buildTestApp();

  describe('POST /v1/codegen', () => {
    it('should answer the stamped ts-zod projection with its lock', async () => {
      const response = await request(app)
        .post('/v1/codegen')
        .send({ files: hello, kind: 'types', target: 'ts-zod' })
        .expect(200)
        .expect('content-type', 'application/json');
      const body = response.body;
      expect(Object.keys(body)).to.deep.equal([
        'is_valid',
        'kind',
        'target',
        'crate_fingerprint',
        'engine_version',
        'artifacts',
        'lock',
        'lock_filename',
        'message',
      ]);
      expect(body).to.include({
        is_valid: true,
        kind: 'types',
        target: 'ts-zod',
        engine_version: '0.1.0',
        lock_filename: 'codegen.lock',
        message: 'Codegen artifacts generated successfully',
      });
      expect(body.artifacts.map((artifact: { path: string }) => artifact.path)).to.deep.equal(['types.ts']);
      expect(body.artifacts[0].content)
        .to.include(`// crate_fingerprint: ${body.crate_fingerprint}\n`)
        .and.include('export const TextContentSchema');
      expect(parse(body.lock)['crate_fingerprint']).to.equal(body.crate_fingerprint);
    });

    it('should stamp the fingerprint of the crate /v1/resolve answers', async () => {
      const resolved = await request(app).post('/v1/resolve').send({ files: TWO_MAIN_PIPES }).expect(200);
      const generated = await request(app)
        .post('/v1/codegen')
        .send({ files: TWO_MAIN_PIPES, kind: 'types', target: 'python-pydantic' })
        .expect(200);
      expect(generated.body.crate_fingerprint).to.equal(resolved.body.crate.fingerprint);
    });

    it('should answer the same bytes for the files in another order', async () => {
      const first = await request(app)
        .post('/v1/codegen')
        .send({ files: TWO_MAIN_PIPES, kind: 'types', target: 'python-structures' })
        .expect(200);
      const second = await request(app)
        .post('/v1/codegen')
        .send({ files: [...TWO_MAIN_PIPES].reverse(), kind: 'types', target: 'python-structures' })
        .expect(200);
      expect(second.text).to.equal(first.text);
    });

    it('should answer the invalid arm for an invalid bundle', async () => {
      const response = await request(app)
        .post('/v1/codegen')
        .send({ files: [{ content: sample('invalid/unknown_concept') }], kind: 'types', target: 'python-pydantic' })
        .expect(200);
      expect(Object.keys(response.body)).to.deep.equal(['is_valid', 'validation_errors', 'message']);
      expect(response.body.is_valid).to.equal(false);
      expect(response.body.validation_errors.length).to.be.greaterThan(0);
    });

    for (const [label, extra, fragment] of [
      ['an unknown kind', { kind: 'inputs', target: 'ts-zod' }, 'body.kind: '],
      ['an unknown target', { kind: 'types', target: 'rust-serde' }, 'body.target: '],
      [
        'a pipe_ref with types',
        { kind: 'types', target: 'ts-zod', pipe_ref: 'hello_greeting.write_greeting' },
        "body: Value error, pipe_ref is not accepted for kind='types' (a concept-set-wide projection)",
      ],
    ] as const) {
      it(`should refuse ${label} with a 422`, async () => {
        const response = await request(app)
          .post('/v1/codegen')
          .send({ files: hello, ...extra })
          .expect(422)
          .expect('content-type', 'application/problem+json');
        expect(response.body.error_type).to.equal('ValidationError');
        expect(response.body.detail).to.include(fragment);
      });
    }

    it('should refuse a request with no selector (422) and answer 501 for a registry-form method_ref', async () => {
      const missing = await request(app).post('/v1/codegen').send({ kind: 'types', target: 'ts-zod' }).expect(422);
      expect(missing.body.detail).to.equal(
        'body: Value error, provide exactly one of `files`, `method_ref` or `method_id`',
      );
      const ref = await request(app)
        .post('/v1/codegen')
        .send({ method_ref: 'acme/methods', kind: 'types', target: 'ts-zod' })
        .expect(501);
      expect(ref.body.error_type).to.equal('MethodRefNotSupported');
    });
  });

  describe('POST /v1/build/inputs', () => {
    it('should answer the light json template of the main pipe', async () => {
      const response = await request(app).post('/v1/build/inputs').send({ files: hello }).expect(200);
      expect(response.body).to.deep.equal({
        is_valid: true,
        pipe_ref: 'hello_greeting.write_greeting',
        format: 'json',
        explicit: false,
        inputs: { name: 'text_value' },
        message: 'Inputs template generated successfully',
      });
    });

    it('should answer the explicit template, echoing a bare requested pipe_ref qualified', async () => {
      const response = await request(app)
        .post('/v1/build/inputs')
        .send({ files: hello, pipe_ref: 'write_greeting', explicit: true })
        .expect(200);
      expect(response.body).to.deep.equal({
        is_valid: true,
        pipe_ref: 'hello_greeting.write_greeting',
        requested_pipe_ref: 'write_greeting',
        format: 'json',
        explicit: true,
        inputs: { name: { concept: 'native.Text', content: { text: 'text_value' } } },
        message: 'Inputs template generated successfully',
      });
    });

    it('should answer a TOML template that parses to the json one', async () => {
      const files = [{ content: corpusText('methods/cv_analyzer/cv_analyzer.mthds') }];
      const json = await request(app).post('/v1/build/inputs').send({ files, explicit: true }).expect(200);
      const toml = await request(app)
        .post('/v1/build/inputs')
        .send({ files, explicit: true, format: 'toml' })
        .expect(200);
      expect(toml.body).to.not.have.property('inputs');
      expect(toml.body.inputs_toml).to.match(/^# cv: Document\n\[cv\]\nconcept = "native.Document"\n/);
      expect(parse(toml.body.inputs_toml)).to.deep.equal(json.body.inputs);
    });

    it('should keep an optional input in the template, its TOML comment saying it may be left out', async () => {
      const files = [{ content: OPTIONAL_INPUTS }];
      const json = await request(app).post('/v1/build/inputs').send({ files }).expect(200);
      expect(json.body.inputs).to.deep.equal({ topic: 'text_value', hint: 'text_value', tone: 'text_value' });
      const toml = await request(app).post('/v1/build/inputs').send({ files, format: 'toml' }).expect(200);
      expect(toml.body.inputs_toml).to.equal(
        [
          '# topic: Text',
          'topic = "text_value"',
          '',
          '# hint: Text? (optional: may be left out)',
          'hint = "text_value"',
          '',
          '# tone: Text!',
          'tone = "text_value"',
          '',
        ].join('\n'),
      );
    });

    it('should say so for a pipe without inputs', async () => {
      const files = [
        {
          content:
            'domain = "bare"\ndescription = "Bare"\nmain_pipe = "say"\n\n[pipe.say]\ntype = "PipeLLM"\ndescription = "Say"\noutput = "Text"\nprompt = "Say hello"\n',
        },
      ];
      const json = await request(app).post('/v1/build/inputs').send({ files }).expect(200);
      expect(json.body)
        .to.include({ message: 'This pipe declares no inputs — the template is empty.' })
        .and.deep.include({ inputs: {} });
      const toml = await request(app).post('/v1/build/inputs').send({ files, format: 'toml' }).expect(200);
      expect(toml.body.inputs_toml).to.equal('');
    });

    it('should refuse with a 422 when no default pipe exists, several do, or the pipe is unknown', async () => {
      const none = await request(app).post('/v1/build/inputs').send({ files: NO_MAIN_PIPE }).expect(422);
      expect(none.body.detail).to.equal(
        'No `pipe_ref` was given and the closure declares no `main_pipe` — name the pipe to project explicitly.',
      );
      const several = await request(app).post('/v1/build/inputs').send({ files: TWO_MAIN_PIPES }).expect(422);
      expect(several.body.detail).to.equal(
        'No `pipe_ref` was given and the closure declares several `main_pipe`s (hello_greeting.write_greeting, other.echo) — name the pipe to project explicitly.',
      );
      const unknown = await request(app).post('/v1/build/inputs').send({ files: hello, pipe_ref: 'nope' }).expect(422);
      expect(unknown.body.detail).to.match(/^Pipe 'nope' not found in the submitted closure: /);
      expect(unknown.body.error_type).to.equal('ValidationError');
    });

    it('should ignore unknown fields such as allow_signatures', async () => {
      await request(app).post('/v1/build/inputs').send({ files: hello, allow_signatures: true }).expect(200);
    });

    it('should give templates that /v1/execute accepts once filled in, for every corpus library', async () => {
      const fill = (value: unknown): unknown => {
        if (Array.isArray(value)) return value.map(fill);
        if (value === null || typeof value !== 'object') return value;
        return Object.fromEntries(
          Object.entries(value).map(([key, field]) => [key, key === 'url' ? PDF_URL : fill(field)]),
        );
      };
      const failures: string[] = [];
      let executed = 0;
      for (const { name, sources } of codegenLibraries()) {
        const main = sources.find((source) => /^main_pipe\s*=/m.test(source.content));
        const callsAbsentPackage = sources.length === 1 && main?.content.includes('/documents->');
        const hasSignature = sources.some((source) => source.content.includes('PipeSignature'));
        if (!main || callsAbsentPackage || hasSignature) continue;
        for (const explicit of [false, true]) {
          const template = await request(app)
            .post('/v1/build/inputs')
            .send({ files: sources.map(({ content, source }) => ({ content, source })), pipe_ref: undefined, explicit })
            .expect(200);
          const run = await request(app)
            .post('/v1/execute')
            .send({
              mthds_contents: sources.map((source) => source.content),
              pipe_code: template.body.pipe_ref,
              inputs: fill(template.body.inputs),
            });
          if (run.status !== 200) failures.push(`${name} (explicit ${explicit}): ${run.status} ${run.body.detail}`);
          executed += 1;
        }
      }
      expect(failures).to.deep.equal([]);
      expect(executed).to.equal(22);
    });
  });

  describe('POST /v1/build/output', () => {
    it('should answer the schema, json and python representations', async () => {
      const schema = await request(app)
        .post('/v1/build/output')
        .send({ files: NO_MAIN_PIPE, pipe_ref: 'plain.echo' })
        .expect(200);
      expect(Object.keys(schema.body)).to.deep.equal([
        'is_valid',
        'pipe_ref',
        'requested_pipe_ref',
        'format',
        'output',
        'message',
      ]);
      expect(schema.body.output).to.deep.include({ concept: 'native.Text' });
      expect(schema.body.output.content).to.include({ type: 'array' });
      expect(schema.body.output.content.items.properties).to.deep.equal({ text: { type: 'string' } });
      const json = await request(app)
        .post('/v1/build/output')
        .send({ files: NO_MAIN_PIPE, pipe_ref: 'echo', format: 'json' })
        .expect(200);
      expect(json.body.output).to.deep.equal({ concept: 'native.Text', content: [{ text: 'text_value' }] });
      const python = await request(app).post('/v1/build/output').send({ files: hello, format: 'python' }).expect(200);
      expect(python.body).to.deep.equal({
        is_valid: true,
        pipe_ref: 'hello_greeting.write_greeting',
        format: 'python',
        output_python: 'TextContent(text="text_value")\n',
        message: 'Output representation generated successfully',
      });
    });

    it('should refuse an uppercase format', async () => {
      await request(app).post('/v1/build/output').send({ files: hello, format: 'JSON' }).expect(422);
    });

    it('should refuse with a 422 an Anything output no step fixes', async () => {
      const response = await request(app).post('/v1/build/output').send({ files: LOOSE_OUTPUT }).expect(422);
      expect(response.body.detail).to.match(/^Cannot render the output representation of pipe 'loose\.route': /);
    });

    it('should refuse cv_analyzer, whose condition ends in a list of questions or an e-mail', async () => {
      const files = [{ content: corpusText('methods/cv_analyzer/cv_analyzer.mthds') }];
      const response = await request(app).post('/v1/build/output').send({ files, format: 'json' }).expect(422);
      expect(response.body.detail).to.match(
        /^Cannot render the output representation of pipe 'candidate_screening\.screen_candidate': /,
      );
    });

    it('should render an Anything output the last step of its sequence fixes', async () => {
      const response = await request(app)
        .post('/v1/build/output')
        .send({ files: LOOSE_OUTPUT, pipe_ref: 'loose.chain', format: 'json' })
        .expect(200);
      expect(response.body.output).to.deep.equal({ concept: 'loose.Verdict', content: { ok: false } });
    });
  });

  describe('POST /v1/build/runner', () => {
    let scratch: string;
    before(() => {
      scratch = mkdtempSync(join(tmpdir(), 'runner-'));
    });
    after(() => rmSync(scratch, { recursive: true, force: true }));

    it('should answer a script and the python-structures projection it imports', async () => {
      const response = await request(app).post('/v1/build/runner').send({ files: hello }).expect(200);
      expect(Object.keys(response.body)).to.deep.equal([
        'is_valid',
        'pipe_ref',
        'python_code',
        'structures',
        'message',
      ]);
      expect(response.body.message).to.equal('Runner code generated successfully');
      expect(response.body.python_code)
        .to.include('from structures.structures import TextContent\n')
        .and.include('pipe_output.main_stuff_as(content_type=TextContent)');
      expect(response.body.structures.directory).to.equal('structures');
      expect(response.body.structures.lock_filename).to.equal('codegen.lock');
      expect(response.body.structures.artifacts[0].path).to.equal('structures.py');
      expect(response.body.structures.artifacts[0].content).to.match(/^# >>> pipelex-codegen-stamp >>>\n/);
    });

    it('should spell out an optional input under a comment saying it may be left out', async () => {
      const response = await request(app)
        .post('/v1/build/runner')
        .send({ files: [{ content: OPTIONAL_INPUTS }] })
        .expect(200);
      const lines = (response.body.python_code as string).split('\n');
      const hint = lines.indexOf('            "hint": {');
      expect(lines[hint - 1]).to.equal('            # optional (Text?): leave it out to run without it');
      expect(lines.filter((line) => line.includes('# optional'))).to.have.length(1);
    });

    it('should read a list output with main_stuff_as_items', async () => {
      const response = await request(app)
        .post('/v1/build/runner')
        .send({ files: NO_MAIN_PIPE, pipe_ref: 'plain.echo' })
        .expect(200);
      expect(response.body.python_code)
        .to.include('-> list[TextContent]:')
        .and.include('pipe_output.main_stuff_as_items(item_type=TextContent)');
      expect(response.body.requested_pipe_ref).to.equal('plain.echo');
    });

    it('should compile every corpus runner script and its structures with python3', async () => {
      const written: string[] = [];
      for (const [index, { sources }] of codegenLibraries().entries()) {
        const main = sources.some((source) => /^main_pipe\s*=/m.test(source.content));
        if (!main) continue;
        const response = await request(app)
          .post('/v1/build/runner')
          .send({ files: sources.map(({ content, source }) => ({ content, source })) });
        if (response.status === 422) continue;
        expect(response.status, JSON.stringify(response.body)).to.equal(200);
        const directory = join(scratch, `run-${index}`);
        mkdirSync(join(directory, 'structures'), { recursive: true });
        writeFileSync(join(directory, 'runner.py'), response.body.python_code);
        writeFileSync(join(directory, 'structures', 'structures.py'), response.body.structures.artifacts[0].content);
        written.push(join(directory, 'runner.py'), join(directory, 'structures', 'structures.py'));
      }
      expect(written.length).to.be.greaterThan(20);
      execFileSync('python3', ['-m', 'py_compile', ...written]);
    });

    it('should answer the invalid arm for a closure calling a package absent from the request', async () => {
      const files = [{ content: corpusText('methods/entity_extractor/bundle.mthds') }];
      const response = await request(app)
        .post('/v1/build/runner')
        .send({ files, pipe_ref: 'entity_extraction.identify_entities' })
        .expect(200);
      expect(response.body.is_valid).to.equal(false);
      expect(
        response.body.validation_errors.map((item: { error_type: string; pipe_code: string }) => [
          item.error_type,
          item.pipe_code,
        ]),
      ).to.deep.equal([['unresolved_package_dependency', 'extract_entities']]);
    });

    it('should answer the invalid arm when the dry run fails, and sweep only the requested pipe', async () => {
      const failed = await request(app)
        .post('/v1/build/runner')
        .send({ files: [...hello, ...UNREGISTERED_FUNCTION] })
        .expect(200);
      expect(failed.body.is_valid).to.equal(false);
      expect(failed.body.validation_errors[0]).to.include({ category: 'dry_run', pipe_code: 'compute' });
      await request(app)
        .post('/v1/build/runner')
        .send({ files: [...hello, ...UNREGISTERED_FUNCTION], pipe_ref: 'hello_greeting.write_greeting' })
        .expect(200);
    });
  });
});
