import { expect } from 'chai';
import type { SuggestedFix } from '../../../../shared/errors/index.js';
import { loadLibrary } from '../../../../shared/mthds/index.js';
import { applyFixOps } from '../../../helpers/apply-fix-ops.js';

/** The fix of the given code carried by the verdict of a bundle (which must be invalid). */
function fixOf(text: string, fixCode: string): SuggestedFix {
  const loaded = loadLibrary([{ content: text, source: 'bundle.mthds' }]);
  if (loaded.ok) throw new Error('expected an invalid verdict');
  const fix = loaded.errors.map((item) => item.suggested_fix).find((candidate) => candidate?.fix_code === fixCode);
  if (!fix) throw new Error(`no ${fixCode} fix in ${JSON.stringify(loaded.errors)}`);
  return fix;
}

function verdictOf(text: string): { ok: boolean; errors: unknown[] } {
  const loaded = loadLibrary([{ content: text, source: 'bundle.mthds' }]);
  return loaded.ok ? { ok: true, errors: [] } : { ok: false, errors: loaded.errors };
}

const SEQUENCE_OUTPUT = `# Notes, summarized
domain      = "notes"
main_pipe   = "digest"

[concept.Digest]
description = "A digest of notes"

[pipe.digest]
type        = "PipeSequence"
description = "Digest the notes"   # the entry point
inputs      = { notes = "Text" }
output      = "Digest"
steps       = [{ pipe = "summarize", result = "summary" }]

[pipe.summarize]
type        = "PipeLLM"
description = "Summarize"
inputs      = { notes = "Text" }
output      = "Text"
prompt      = "Summarize @notes"
`;

const SEQUENCE_INPUTS = `# Notes, summarized
domain      = "notes"
main_pipe   = "digest"

[pipe.digest]
type        = "PipeSequence"
description = "Digest the notes"   # the entry point
inputs      = { notes = "Text" }
output      = "Text"
steps       = [{ pipe = "summarize", result = "summary" }]

[pipe.summarize]
type        = "PipeLLM"
description = "Summarize"
inputs      = { notes = "Text", tone = "Text" }
output      = "Text"
prompt      = "Summarize @notes in a $tone tone"
`;

const NATIVE_REDECLARATION = `# Notes, summarized
domain      = "notes"
main_pipe   = "summarize"

[concept.Text]
description = "Some text"

# The only pipe
[pipe.summarize]
type        = "PipeLLM"
description = "Summarize"
inputs      = { notes = "Text" }
output      = "Text"
prompt      = "Summarize @notes"
`;

const NAMESPACED = `# Notes, summarized
domain      = "notes"
main_pipe   = "notes.summarize"   # the entry point

[concept.Summary]
description = "A summary"

# The only pipe
[pipe."notes.summarize"]
type        = "PipeLLM"
description = "Summarize"
inputs      = { notes = "Text" }
output      = "Summary"
prompt      = "Summarize @notes"
`;

describe('suggested fixes applied with a style-preserving TOML editor (spec §2.7)', () => {
  describe('when applying match-sequence-output', () => {
    it('should set the sequence output in place, and the bundle then validates', () => {
      const fix = fixOf(SEQUENCE_OUTPUT, 'match-sequence-output');
      expect(fix).to.deep.include({ safety: 'unsafe', source: 'bundle.mthds' });
      const patched = applyFixOps(SEQUENCE_OUTPUT, fix.ops);
      expect(patched).to.equal(SEQUENCE_OUTPUT.replace('output      = "Digest"', 'output      = "Text"'));
      expect(verdictOf(patched)).to.deep.equal({ ok: true, errors: [] });
    });
  });

  describe('when applying sync-controller-inputs', () => {
    it('should add the missing input to the inline inputs table, and the bundle then validates', () => {
      const fix = fixOf(SEQUENCE_INPUTS, 'sync-controller-inputs');
      expect(fix).to.deep.include({ safety: 'safe', source: 'bundle.mthds' });
      const patched = applyFixOps(SEQUENCE_INPUTS, fix.ops);
      expect(patched).to.equal(
        SEQUENCE_INPUTS.replace(
          'inputs      = { notes = "Text" }\noutput      = "Text"\nsteps',
          'inputs      = { notes = "Text", tone = "Text" }\noutput      = "Text"\nsteps',
        ),
      );
      expect(verdictOf(patched)).to.deep.equal({ ok: true, errors: [] });
    });
  });

  describe('when applying strip-native-concept-redecl', () => {
    it('should remove the concept table (the editor keeps an empty [concept] and drops the comment heading the next table), and the bundle then validates', () => {
      const fix = fixOf(NATIVE_REDECLARATION, 'strip-native-concept-redecl');
      const patched = applyFixOps(NATIVE_REDECLARATION, fix.ops);
      expect(patched).to.equal(
        '# Notes, summarized\ndomain      = "notes"\nmain_pipe   = "summarize"\n\n[concept]\n\n' +
          '[pipe.summarize]\ntype        = "PipeLLM"\ndescription = "Summarize"\ninputs      = { notes = "Text" }\noutput      = "Text"\nprompt      = "Summarize @notes"\n',
      );
      expect(verdictOf(patched)).to.deep.equal({ ok: true, errors: [] });
    });
  });

  describe('when applying strip-namespace', () => {
    it('should rename the pipe key in place and remap main_pipe, keeping comments, and the bundle then validates', () => {
      const fix = fixOf(NAMESPACED, 'strip-namespace');
      expect(fix).to.deep.equal({
        fix_code: 'strip-namespace',
        description:
          "Declare [pipe.summarize] without the 'notes.' qualifier: the bundle's domain already qualifies it.",
        safety: 'safe',
        source: 'bundle.mthds',
        ops: [
          { kind: 'rename_table_key', table_path: ['pipe'], key: 'notes.summarize', new_key: 'summarize' },
          { kind: 'remap_value', table_path: [], key: 'main_pipe', mapping: { 'notes.summarize': 'summarize' } },
        ],
      });
      const patched = applyFixOps(NAMESPACED, fix.ops);
      expect(patched).to.equal(
        NAMESPACED.replace('main_pipe   = "notes.summarize"', 'main_pipe   = "summarize"').replace(
          '[pipe."notes.summarize"]',
          '[pipe.summarize]',
        ),
      );
      expect(verdictOf(patched)).to.deep.equal({ ok: true, errors: [] });
    });

    it('should fix a qualified concept key the same way', () => {
      const text = NAMESPACED.replace('[concept.Summary]', '[concept."notes.Summary"]')
        .replace('[pipe."notes.summarize"]', '[pipe.summarize]')
        .replace('"notes.summarize"', '"summarize"');
      const fix = fixOf(text, 'strip-namespace');
      expect(fix.ops).to.deep.equal([
        { kind: 'rename_table_key', table_path: ['concept'], key: 'notes.Summary', new_key: 'Summary' },
      ]);
      const patched = applyFixOps(text, fix.ops);
      expect(patched).to.equal(text.replace('[concept."notes.Summary"]', '[concept.Summary]'));
      expect(verdictOf(patched)).to.deep.equal({ ok: true, errors: [] });
    });

    it('should fix a main_pipe qualified with the bundle domain', () => {
      const text = NAMESPACED.replace('[pipe."notes.summarize"]', '[pipe.summarize]');
      const fix = fixOf(text, 'strip-namespace');
      const patched = applyFixOps(text, fix.ops);
      expect(patched).to.equal(text.replace('main_pipe   = "notes.summarize"', 'main_pipe   = "summarize"'));
      expect(verdictOf(patched)).to.deep.equal({ ok: true, errors: [] });
    });
  });
});
