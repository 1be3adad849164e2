import { expect } from 'chai';
import { buildCrate } from '../../../../shared/mthds/index.js';
import { validLibrary } from '../../../helpers/library.js';

const SUMMARY = `domain = "notes"
main_pipe = "summarize"

[concept.Summary]
description = "A summary"

[concept.Summary.structure]
headline = { type = "text", description = "Headline", required = true }
score = { type = "integer", description = "Score" }

[pipe.summarize]
type = "PipeLLM"
description = "Summarize the notes"
inputs = { notes = "Text" }
output = "Summary"
prompt = "Summarize @notes"
`;

const REPORT = `domain = "report"

[concept.Report]
description = "A report"
refines = "notes.Summary"

[pipe.write]
type = "PipeSequence"
description = "Write a report"
inputs = { notes = "Text" }
output = "Report"
steps = [{ pipe = "notes.summarize", result = "summary" }, { pipe = "shape", result = "report" }]

[pipe.shape]
type = "PipeLLM"
description = "Shape the report"
inputs = { summary = "notes.Summary" }
output = "Report"
prompt = "Shape @summary"
`;

function fingerprintOf(files: { content: string; source: string | null }[]): string {
  return buildCrate(validLibrary(files)).fingerprint;
}

const base = fingerprintOf([
  { content: SUMMARY, source: 'summary.mthds' },
  { content: REPORT, source: 'report.mthds' },
]);

describe('crate fingerprint (docs/crate.md#crate-shape)', () => {
  describe('when the same library is sent differently', () => {
    it('should be identical with the files in reverse order', () => {
      expect(
        fingerprintOf([
          { content: REPORT, source: 'report.mthds' },
          { content: SUMMARY, source: 'summary.mthds' },
        ]),
      ).to.equal(base);
    });

    it('should be identical with other source labels, or none', () => {
      expect(
        fingerprintOf([
          { content: SUMMARY, source: 'a/b.mthds' },
          { content: REPORT, source: 'c.mthds' },
        ]),
      ).to.equal(base);
      expect(
        fingerprintOf([
          { content: SUMMARY, source: null },
          { content: REPORT, source: null },
        ]),
      ).to.equal(base);
    });

    it('should be identical when the pipes of a bundle are declared in another order', () => {
      const reordered =
        REPORT.replace(/\[pipe\.write\][\s\S]*?(?=\[pipe\.shape\])/, '') +
        REPORT.match(/\[pipe\.write\][\s\S]*?(?=\[pipe\.shape\])/)![0];
      expect(reordered).to.not.equal(REPORT);
      expect(
        fingerprintOf([
          { content: SUMMARY, source: 's' },
          { content: reordered, source: 'r' },
        ]),
      ).to.equal(base);
    });
  });

  describe('when a semantic field changes', () => {
    const variants: [string, string, string][] = [
      ['a pipe description', 'description = "Summarize the notes"', 'description = "Summarize all the notes"'],
      ['a concept description', 'description = "A summary"', 'description = "A short summary"'],
      ['a field type', 'score = { type = "integer"', 'score = { type = "number"'],
      ['a field requirement', 'required = true', 'required = false'],
      ['an output multiplicity', 'output = "Summary"', 'output = "Summary[]"'],
      ['a prompt', 'prompt = "Summarize @notes"', 'prompt = "Summarize @notes briefly"'],
    ];
    for (const [what, from, to] of variants) {
      it(`should change with ${what}`, () => {
        const changed = SUMMARY.replace(from, to);
        expect(changed).to.not.equal(SUMMARY);
        const library = validLibrary([
          { content: changed, source: 'summary.mthds' },
          { content: REPORT, source: 'report.mthds' },
        ]);
        expect(buildCrate(library).fingerprint).to.not.equal(base);
      });
    }
  });
});
