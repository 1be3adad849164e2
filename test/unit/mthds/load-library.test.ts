import { readFileSync } from 'node:fs';
import { expect } from 'chai';
import GithubSlugger from 'github-slugger';
import MarkdownIt from 'markdown-it';
import { type LibraryLoadResult, loadLibrary } from '../../../shared/mthds/index.js';
import { ALL_RULES, VALIDATION_ERROR_TYPES } from '../../../shared/mthds/rules/index.js';
import { sample } from '../../helpers/corpus.js';

const GREETING =
  'domain = "shop"\n[pipe.greet]\ntype = "PipeLLM"\ndescription = "d"\ninputs = { name = "Text" }\noutput = "Text"\nprompt = "Hi $name"';

/**
 * The rule headings of docs/rules.md (its level-3 headings), each with its anchor, slugged as GitHub does over all
 * the page's headings in order.
 */
function ruleHeadings(): Map<string, string> {
  const text = readFileSync(new URL('../../../docs/rules.md', import.meta.url), 'utf8');
  const tokens = new MarkdownIt().parse(text, {});
  const slugger = new GithubSlugger();
  const headings = new Map<string, string>();
  tokens.forEach((token, index) => {
    if (token.type !== 'heading_open') return;
    const title = (tokens[index + 1]?.children ?? [])
      .filter((child) => child.type === 'text' || child.type === 'code_inline')
      .map((child) => child.content)
      .join('');
    const anchor = slugger.slug(title);
    if (token.tag === 'h3') {
      expect(headings.has(title), `docs/rules.md: '${title}' is a heading twice`).to.equal(false);
      headings.set(title, anchor);
    }
  });
  return headings;
}

function errors(result: LibraryLoadResult): { category: string; error_type?: string; source?: string | null }[] {
  if (result.ok) throw new Error('expected an invalid verdict');
  return result.errors;
}

describe('loadLibrary', () => {
  describe('when no bundle is given', () => {
    it('should give one residual item', () => {
      expect(loadLibrary([])).to.deep.equal({
        ok: false,
        errors: [
          { category: 'blueprint_validation', message: 'No bundle was given: send at least one .mthds content.' },
        ],
        message: 'Validation error(s): No bundle was given: send at least one .mthds content.',
      });
    });
  });

  describe('when one of several bundles is not TOML', () => {
    it('should report it as a residual item and name its source in the message', () => {
      const result = loadLibrary([
        { content: sample('hello_greeting'), source: 'hello.mthds' },
        { content: 'domain = ', source: 'broken.mthds' },
      ]);
      expect(errors(result)).to.deep.equal([
        {
          category: 'blueprint_validation',
          message: 'TOML syntax error (broken.mthds, line 1, column 10): Invalid TOML document: invalid value',
        },
      ]);
    });
  });

  describe('when the source is null', () => {
    it('should carry source null on attributable items', () => {
      const result = loadLibrary([{ content: sample('invalid/missing_pipe_ref'), source: null }]);
      expect(errors(result).map((item) => item.source)).to.deep.equal([null]);
    });
  });

  describe('when two bundles of one domain declare the same pipe code', () => {
    it('should report a duplicate_code item on the second', () => {
      const result = loadLibrary([
        { content: GREETING, source: 'a.mthds' },
        { content: GREETING, source: 'b.mthds' },
      ]);
      expect(errors(result)).to.deep.equal([
        {
          category: 'blueprint_validation',
          message:
            "Pipe 'shop.greet' is declared twice (first in a.mthds): bundles of one domain share one namespace. Rename or remove one.",
          error_type: 'duplicate_code',
          source: 'b.mthds',
          domain_code: 'shop',
          field_path: 'pipe.greet',
          pipe_code: 'greet',
        },
      ]);
    });
  });

  describe('when the structure is broken', () => {
    it('should stop before the library rules', () => {
      const result = loadLibrary([
        {
          content:
            'domain = "native.x"\n[pipe.p]\ntype = "PipeLLM"\ndescription = "d"\noutput = "Nope"\nprompt = "$ghost"',
          source: 'x.mthds',
        },
      ]);
      expect(errors(result).map((item) => item.error_type)).to.deep.equal(['reserved_domain']);
    });
  });

  describe('when many rules fail', () => {
    it('should quote the first five messages and count the others', () => {
      const pipes = Array.from(
        { length: 7 },
        (_, index) => `[pipe.p${index}]\ntype = "PipeLLM"\ndescription = "d"\noutput = "Text"\nprompt = "$v${index}"`,
      ).join('\n');
      const result = loadLibrary([{ content: `domain = "d"\n${pipes}`, source: 'x.mthds' }]);
      if (result.ok) throw new Error('expected an invalid verdict');
      expect(result.errors).to.have.length(7);
      expect(result.message).to.match(
        /^Validation error\(s\): Pipe 'p0': the prompt uses 'v0'.* \| Pipe 'p4': .* \(and 2 more\)$/,
      );
    });
  });

  describe('when the mode changes', () => {
    const bundles = [
      {
        content:
          'domain = "d"\n[concept.Level]\ndescription = "l"\n[concept.Level.structure]\nvalue = { type = "text", choices = ["a", "b"], description = "v" }',
        source: 'x.mthds',
      },
    ];

    it('should default to compat, which tolerates type = "text" with choices', () => {
      expect(loadLibrary(bundles).ok).to.equal(true);
      expect(loadLibrary(bundles, { mode: 'compat' }).ok).to.equal(true);
    });

    it('should refuse it in strict mode', () => {
      expect(errors(loadLibrary(bundles, { mode: 'strict' })).map((item) => item.error_type)).to.deep.equal([
        'invalid_concept_field',
      ]);
    });
  });

  describe('when only warning rules fire', () => {
    it('should be valid and return the warnings', () => {
      const content =
        'domain = "a.b.c.d"\n[pipe.read]\ntype = "PipeExtract"\ndescription = "d"\ninputs = { note = "Text" }\noutput = "Page[]"';
      const result = loadLibrary([{ content, source: 'x.mthds' }]);
      if (!result.ok) throw new Error(result.message);
      expect(result.warnings.map((item) => [item.error_type, item.field_path])).to.deep.equal([
        ['invalid_domain_code', 'domain'],
        ['input_stuff_spec_mismatch', 'pipe.read.inputs.note'],
      ]);
    });
  });
});

describe('the rule list (CONTRIBUTING.md#5-one-rule-per-module)', () => {
  describe('when listing every rule', () => {
    it('should have unique ids and known error types', () => {
      const ids = ALL_RULES.map((rule) => rule.id);
      expect(new Set(ids).size).to.equal(ids.length);
      expect(
        ALL_RULES.filter(
          (rule) =>
            rule.error_type !== undefined && !(VALIDATION_ERROR_TYPES as readonly string[]).includes(rule.error_type),
        ),
      ).to.deep.equal([]);
    });

    it('should link each rule to its own heading of docs/rules.md, which has one heading per rule and no other', () => {
      const headings = ruleHeadings();
      expect([...headings.keys()].sort()).to.deep.equal(ALL_RULES.map((rule) => rule.id).sort());
      expect(
        ALL_RULES.filter((rule) => rule.see !== `docs/rules.md#${headings.get(rule.id)}`).map((rule) => [
          rule.id,
          rule.see,
        ]),
      ).to.deep.equal([]);
    });

    it('should order the stages S2, S3, S4, S5, S5b', () => {
      const stages = ALL_RULES.map((rule) => rule.stage).filter((stage, index, all) => all.indexOf(stage) === index);
      expect(stages).to.deep.equal(['S2', 'S3', 'S4', 'S5', 'S5b']);
    });
  });
});
