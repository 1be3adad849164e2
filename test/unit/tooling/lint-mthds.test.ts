import { readFileSync } from 'node:fs';
import { expect } from 'chai';
import { type Diagnostic, lintMthds } from '../../../shared/tooling/index.js';

/** The text a diagnostic's range covers (byte offsets). */
function covered(content: string, diagnostic: Diagnostic): string {
  const bytes = Buffer.from(content, 'utf8');
  return bytes.subarray(diagnostic.range!.start_offset, diagnostic.range!.end_offset).toString('utf8');
}

const PIPE = 'domain = "x"\n\n[pipe.p]\ntype        = "PipeLLM"\ndescription = "d"\noutput      = "Text"\n';

describe('lintMthds', () => {
  describe('syntax and key rules', () => {
    it('should give one syntax diagnostic for an unterminated string, after multi-byte text', () => {
      const content = 'description = "é"\nname = "open\n';
      const [diagnostic, ...rest] = lintMthds(content);
      expect(rest).to.deep.equal([]);
      expect(diagnostic).to.deep.include({ kind: 'syntax', severity: 'error', location: null });
      expect(diagnostic!.range).to.include({ start_line: 2 });
      expect(diagnostic!.range!.start_offset).to.be.greaterThan(Buffer.byteLength('description = "é"\n', 'utf8'));
    });

    it('should report a table defined twice as semantic', () => {
      const [diagnostic] = lintMthds('domain = "x"\n[concept.A]\ndescription = "a"\n[concept.A]\ndescription = "b"\n');
      expect(diagnostic).to.deep.include({ kind: 'semantic', message: 'Defining a key multiple times is invalid' });
      expect(diagnostic!.range).to.include({ start_line: 4 });
    });

    it('should report what the runtime parser refuses (an integer beyond 2^53) as syntax', () => {
      const [diagnostic] = lintMthds('domain = "x"\nn = 99999999999999999999\n');
      expect(diagnostic).to.deep.include({ kind: 'syntax', location: null });
      expect(diagnostic!.message).to.contain('losslessly');
      expect(diagnostic!.range).to.include({ start_line: 2, start_col: 5 });
    });
  });

  describe('schema', () => {
    it('should pass a well-formed pipe', () => {
      expect(lintMthds(PIPE)).to.deep.equal([]);
    });

    it('should place an unknown key on the key', () => {
      const content = PIPE.replace('output ', 'outptu ');
      const diagnostics = lintMthds(content);
      expect(
        diagnostics.map((diagnostic) => [
          diagnostic.kind,
          diagnostic.message,
          diagnostic.location,
          covered(content, diagnostic),
        ]),
      ).to.deep.equal([
        ['schema', "'pipe.p' is missing the required key 'output'", 'pipe.p', 'p'],
        ['schema', "Unknown key 'outptu' in 'pipe.p'", 'pipe.p.outptu', 'outptu'],
      ]);
    });

    it('should give a missing pipe type one diagnostic on the pipe key, naming the keys a signature cannot hold', () => {
      const content = `${PIPE.replace('type        = "PipeLLM"\n', '')}prompt = "Hi"\n`;
      const diagnostics = lintMthds(content);
      expect(diagnostics).to.have.length(1);
      expect(diagnostics[0]!.message).to.match(
        /^Pipe 'p' has no 'type': set one of PipeLLM, .*PipeBatch\. Without 'type' a pipe is a contract-only signature, which holds only description, inputs, output and signature_for, not 'prompt'\.$/,
      );
      expect(covered(content, diagnostics[0]!)).to.equal('p');
    });

    it('should report a type that is not a string as an unknown pipe type, placed on the value', () => {
      const content = PIPE.replace('"PipeLLM"', '5');
      const diagnostics = lintMthds(content);
      expect(diagnostics).to.have.length(1);
      expect(diagnostics[0]!.message).to.match(/^Pipe 'p', field 'type': '5' is not a pipe type \(allowed: PipeLLM, /);
      expect(covered(content, diagnostics[0]!)).to.equal('5');
    });

    it('should report the errors of the pipe type written, not of every pipe type', () => {
      const content = `${PIPE}prompt = 3\nmodel = { model = "m", temperature = 2 }\n`;
      const diagnostics = lintMthds(content);
      expect(diagnostics.map((diagnostic) => [diagnostic.message, covered(content, diagnostic)])).to.deep.equal([
        ["'pipe.p.prompt' must be string", '3'],
        ["'pipe.p.model.temperature' must be <= 1", '2'],
      ]);
    });

    it('should pick the model reference form when the value has its keys', () => {
      const content = `${PIPE}model = { kind = "preset", name = "x" }\n`;
      expect(lintMthds(content).map((diagnostic) => diagnostic.message)).to.deep.equal([
        "'pipe.p.model' is missing the required key 'raw'",
      ]);
    });

    it('should merge the type mismatches of every alternative into one', () => {
      const content = 'domain = "x"\n[concept]\nA = 3\n';
      const diagnostics = lintMthds(content);
      expect(
        diagnostics.map((diagnostic) => [diagnostic.message, diagnostic.location, covered(content, diagnostic)]),
      ).to.deep.equal([["'concept.A' must be object or string", 'concept.A', '3']]);
    });

    it('should list the allowed values of an enum, placed on the value in an inline table', () => {
      const content =
        'domain = "x"\n[concept.B]\ndescription = "b"\n[concept.B.structure]\nf = { type = "weird", description = "f" }\n';
      const [diagnostic] = lintMthds(content);
      expect(diagnostic!.message).to.equal(
        `'concept.B.structure.f.type' must be one of "text", "list", "dict", "integer", "boolean", "number", "date", "concept", "datetime", "time"`,
      );
      expect(covered(content, diagnostic!)).to.equal('"weird"');
    });

    it('should accept what validate accepts since the reference schema was written (hints, datetime and time fields, the 0.16 operator options)', () => {
      const content = [
        'domain = "x"',
        '[concept.B]',
        'description = "b"',
        'hints = { intent = "label" }',
        '[concept.B.structure]',
        'at = { type = "datetime", description = "when", hints = { intent = "label" } }',
        'doors = { type = "time", description = "doors" }',
        '[pipe.p]',
        'type = "PipeLLM"',
        'description = "p"',
        'output = "Text"',
        'prompt = "hi"',
        'templating_style = { tag_style = "ticks", text_format = "markdown" }',
        '[pipe.q]',
        'type = "PipeImgGen"',
        'description = "q"',
        'output = "Image"',
        'prompt = "a cat"',
        'size = { width = 512, height = 512 }',
        '[pipe.r]',
        'type = "PipeExtract"',
        'description = "r"',
        'inputs = { page = "Document" }',
        'output = "Page[]"',
        'render_js = true',
        'include_raw_html = false',
      ].join('\n');
      expect(lintMthds(content)).to.deep.equal([]);
    });

    it('should refuse an unknown structure-field key and a size tier off the list, as validate does', () => {
      const content = [
        'domain = "x"',
        '[concept.B]',
        'description = "b"',
        '[concept.B.structure]',
        'n = { type = "number", description = "n", minimum = 0 }',
        '[pipe.q]',
        'type = "PipeImgGen"',
        'description = "q"',
        'output = "Image"',
        'prompt = "a cat"',
        'size = "8k"',
      ].join('\n');
      expect(lintMthds(content).map((diagnostic) => [diagnostic.location, covered(content, diagnostic)])).to.deep.equal(
        [
          ['concept.B.structure.n.minimum', 'minimum'],
          ['pipe.q.size', '"8k"'],
        ],
      );
    });

    it('should accept expanded input slots as validate does, and refuse a slot key other than concept and hints', () => {
      const content = [
        'domain = "x"',
        '[pipe.q]',
        'type = "PipeLLM"',
        'description = "q"',
        'output = "Text"',
        'prompt = "Answer $letter{% if tone %} in a {{ tone.text }} tone{% endif %}"',
        '[pipe.q.inputs]',
        'letter = { concept = "Text", hints = { intent = "prose" } }',
        'tone = { concept = "Text?" }',
        '[pipe.r]',
        'type = "PipeCompose"',
        'description = "r"',
        'inputs = { note = { concept = "Text", description = "a note" } }',
        'output = "Text"',
        'template = "{{ note.text }}"',
      ].join('\n');
      expect(lintMthds(content).map((diagnostic) => [diagnostic.location, covered(content, diagnostic)])).to.deep.equal(
        [['pipe.r.inputs.note.description', 'description']],
      );
    });

    it('should place errors inside arrays of inline tables and in [[array tables]]', () => {
      const content = `${PIPE.replace('PipeLLM', 'PipeSequence')}steps = [{ pipe = 1, result = "r" }, "oops"]\n`;
      const diagnostics = lintMthds(content);
      expect(diagnostics.map((diagnostic) => [diagnostic.location, covered(content, diagnostic)])).to.deep.equal([
        ['pipe.p.steps[0].pipe', '1'],
        ['pipe.p.steps[1]', '"oops"'],
      ]);
      const tables = `${PIPE.replace('PipeLLM', 'PipeSequence')}\n[[pipe.p.steps]]\npipe = "a"\n\n[[pipe.p.steps]]\npipe = 2\n`;
      const [inTable] = lintMthds(tables);
      expect(inTable).to.deep.include({ location: 'pipe.p.steps[1].pipe' });
      expect(covered(tables, inTable!)).to.equal('2');
    });

    it('should accept a binding step in a PipeSequence, and report a malformed one as a binding step', () => {
      const sequence = `${PIPE.replace('PipeLLM', 'PipeSequence')}steps = [{ from = "a.b", result = "c" }, { pipe = "q" }]\n`;
      expect(lintMthds(sequence)).to.deep.equal([]);
      const content = sequence.replace('result = "c"', 'reslt = "c"');
      expect(
        lintMthds(content).map((diagnostic) => [diagnostic.message, diagnostic.location, covered(content, diagnostic)]),
      ).to.deep.equal([
        ["'pipe.p.steps[0]' is missing the required key 'result'", 'pipe.p.steps[0]', '{ from = "a.b", reslt = "c" }'],
        ["Unknown key 'reslt' in 'pipe.p.steps[0]'", 'pipe.p.steps[0].reslt', 'reslt'],
      ]);
    });

    it('should report a missing domain without a range', () => {
      expect(lintMthds('description = "d"\n')).to.deep.equal([
        {
          kind: 'schema',
          severity: 'error',
          message: "The bundle is missing the required key 'domain'",
          location: null,
          range: null,
        },
      ]);
    });

    it('should accept a PipeStructure, which the reference schema lacks, and check its fields', () => {
      const structure = PIPE.replace('PipeLLM', 'PipeStructure').replace('"Text"', '"Hours"');
      expect(lintMthds(`${structure}inputs = { notice = "Text" }\nmodel = "$engineering-structured"\n`)).to.deep.equal(
        [],
      );
      const content = `${structure}prompt = "p"\n`;
      expect(lintMthds(content).map((diagnostic) => [diagnostic.message, covered(content, diagnostic)])).to.deep.equal([
        ["Unknown key 'prompt' in 'pipe.p'", 'prompt'],
      ]);
    });

    it('should accept a PipeJudge, which the reference schema lacks, and check its closed question tables', () => {
      const judge = PIPE.replace('PipeLLM', 'PipeJudge').replace('"Text"', '"YesNo"');
      const valid = `${judge}prompt = "p"\n[pipe.p.questions.urgent]\nquestion = "Urgent?"\nthreshold = 0.7\n`;
      expect(lintMthds(valid)).to.deep.equal([]);
      const content = `${judge}prompt = "p"\n[pipe.p.questions.urgent]\nquestion = "Urgent?"\nweight = 2\n`;
      expect(lintMthds(content).map((diagnostic) => [diagnostic.message, covered(content, diagnostic)])).to.deep.equal([
        ["Unknown key 'weight' in 'pipe.p.questions.urgent'", 'weight'],
      ]);
    });

    it('should accept a PipeDocGen, which the reference schema lacks, and check its format', () => {
      const docGen = PIPE.replace('PipeLLM', 'PipeDocGen').replace('"Text"', '"Document"');
      expect(lintMthds(`${docGen}format = "pdf"\nfilename = "f"\n`)).to.deep.equal([]);
      const content = `${docGen}format = "odt"\n`;
      expect(lintMthds(content).map((diagnostic) => covered(content, diagnostic))).to.deep.equal(['"odt"']);
    });

    it('should accept a typeless signature, signature_for optional, and check its fields', () => {
      const signature = 'domain = "x"\n[pipe.s]\ndescription = "d"\noutput = "Text"\nsignature_for = "PipeLLM"\n';
      expect(lintMthds(signature)).to.deep.equal([]);
      expect(lintMthds(signature.replace('signature_for = "PipeLLM"\n', ''))).to.deep.equal([]);
      const wrong = signature.replace('"PipeLLM"', '"PipeMagic"');
      const [diagnostic] = lintMthds(wrong);
      expect(diagnostic!.location).to.equal('pipe.s.signature_for');
      expect(covered(wrong, diagnostic!)).to.equal('"PipeMagic"');
    });

    it('should refuse the retired type = "PipeSignature" on the value, and still check the table as a signature', () => {
      const content = 'domain = "x"\n[pipe.s]\ntype = "PipeSignature"\ndescription = "d"\noutput = 3\n';
      expect(lintMthds(content).map((diagnostic) => [diagnostic.message, covered(content, diagnostic)])).to.deep.equal([
        [
          "Pipe 's', field 'type': 'PipeSignature' is no longer a pipe type. Delete the `type` line: a pipe table without `type` holding only description, inputs, output and signature_for is a contract-only signature.",
          '"PipeSignature"',
        ],
        ["'pipe.s.output' must be string", '3'],
      ]);
    });
  });

  it('should embed a verbatim copy of the reference schema', () => {
    const embedded = readFileSync(new URL('../../../shared/tooling/mthds_schema.json', import.meta.url), 'utf8');
    const reference = readFileSync(new URL('../../../../shared/reference/mthds_schema.json', import.meta.url), 'utf8');
    expect(embedded).to.equal(reference);
  });
});
