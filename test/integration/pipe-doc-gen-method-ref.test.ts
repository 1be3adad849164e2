/**
 * PipeDocGen `template_file` in a package fetched by `method_ref` from a git server on 127.0.0.1
 * (docs/language.md#newer-reference-features
 * §4): the clone is a directory, so `/v1/validate` accepts a template file it holds and refuses one it lacks or whose
 * tags do not parse (the dry run's template checker), and `/v1/execute` fills it.
 */
import { rmSync } from 'node:fs';
import { expect } from 'chai';
import { Document, Packer, Paragraph } from 'docx';
import type { Express } from 'express';
import PizZip from 'pizzip';
import request from 'supertest';
import { TestRepo } from '../helpers/git-repos.js';
import { type GitServer, startGitServer } from '../helpers/git-server.js';
import { tempDir } from '../helpers/method-repos.js';
import { buildTestApp } from '../helpers/test-app.js';

const MANIFEST =
  '[package]\nname = "letters"\naddress = "github.com/acme/letters"\nversion = "1.0.0"\ndescription = "Letters"\nmain_pipe = "write_letter"\n';

function bundle(templateFile: string): string {
  return [
    'domain = "letters"',
    'main_pipe = "write_letter"',
    '[pipe.write_letter]',
    'type = "PipeDocGen"',
    'description = "Fills the letter template"',
    'inputs = { recipient = "Text" }',
    'output = "Document"',
    'format = "docx"',
    `template_file = "${templateFile}"`,
    'filename = "letter-{{ recipient.text }}"',
  ].join('\n');
}

describe('PipeDocGen template_file in a method_ref package', function () {
  this.timeout(60000);
  let root: string;
  let cacheDir: string;
  let server: GitServer;
  let repo: TestRepo;
  let app: Express;

  before(async () => {
    root = tempDir('docgen-git-');
    cacheDir = tempDir('docgen-cache-');
    server = await startGitServer(root);
    const template = await Packer.toBuffer(
      new Document({ sections: [{ children: [new Paragraph('Dear {{ recipient }},')] }] }),
    );
    repo = new TestRepo(root, 'acme', 'letters');
    repo
      .write({ 'METHODS.toml': MANIFEST, 'letters.mthds': bundle('templates/letter.docx') })
      .write({ 'templates/letter.docx': template })
      .commit('letters', 'v1.0.0');
    repo.write({ 'letters.mthds': bundle('templates/missing.docx') }).commit('missing template', 'v2.0.0');
    const broken = await Packer.toBuffer(
      new Document({ sections: [{ children: [new Paragraph('Dear {{ recipient,')] }] }),
    );
    repo
      .write({ 'letters.mthds': bundle('templates/broken.docx'), 'templates/broken.docx': broken })
      .commit('broken template', 'v3.0.0');
    app = buildTestApp({
      METHOD_REF_CLONE_URL_TEMPLATE: server.template,
      METHOD_REF_ALLOW_PRIVATE_HOSTS: 'true',
      METHOD_CACHE_DIR: cacheDir,
    });
  });

  after(async () => {
    await server.close();
    repo.dispose();
    rmSync(root, { recursive: true, force: true });
    rmSync(cacheDir, { recursive: true, force: true });
  });

  it('should validate a package holding its template file, and refuse one that lacks it', async () => {
    const valid = await request(app)
      .post('/v1/validate')
      .send({ method_ref: 'github.com/acme/letters@v1.0.0' })
      .expect(200);
    expect(valid.body.is_valid, JSON.stringify(valid.body).slice(0, 600)).to.equal(true);
    const invalid = await request(app)
      .post('/v1/validate')
      .send({ method_ref: 'github.com/acme/letters@v2.0.0' })
      .expect(200);
    expect(invalid.body.is_valid).to.equal(false);
    expect(invalid.body.validation_errors[0]).to.include({
      error_type: 'invalid_pipe_field',
      field_path: 'pipe.write_letter.template_file',
    });
    expect(invalid.body.validation_errors[0].message).to.match(
      /names no file of the bundle \(its files: .*templates\/letter\.docx/,
    );
  });

  it('should refuse a template whose tags do not parse in the dry run, as the engine checker finds it', async () => {
    const invalid = await request(app)
      .post('/v1/validate')
      .send({ method_ref: 'github.com/acme/letters@v3.0.0' })
      .expect(200);
    expect(invalid.body.is_valid).to.equal(false);
    expect(invalid.body.validation_errors).to.have.length(1);
    expect(invalid.body.validation_errors[0]).to.include({ category: 'dry_run', pipe_code: 'write_letter' });
    expect(invalid.body.validation_errors[0].message).to.include(
      "Pipe 'write_letter': the template_file could not be read:",
    );
  });

  it('should fill the template on /v1/execute', async () => {
    const response = await request(app)
      .post('/v1/execute')
      .send({ method_ref: 'github.com/acme/letters@v1.0.0', inputs: { recipient: 'Ada' } });
    expect(response.status, JSON.stringify(response.body).slice(0, 600)).to.equal(200);
    const document = response.body.pipe_output.working_memory.root.main_stuff.content;
    expect(document.filename).to.equal('letter-Ada.docx');
    const bytes = Buffer.from(String(document.url).split(',')[1] ?? '', 'base64');
    expect(new PizZip(bytes).file('word/document.xml')?.asText()).to.include('Dear Ada,');
  });
});
