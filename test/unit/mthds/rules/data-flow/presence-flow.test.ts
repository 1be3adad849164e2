import { expect } from 'chai';
import { buildLibrary } from '../../../../../shared/mthds/library/build-library.js';
import { liftablePipes } from '../../../../../shared/mthds/rules/data-flow/presence-flow.js';
import { loadedBundles } from '../harness.js';
import { briefFlow } from './optional-flow-fixtures.js';

describe('presence flow: liftable pipes', () => {
  describe('when a step takes plainly an optional input of its sequence', () => {
    it('should list it with the input whose absence skips it and where that absence comes from', () => {
      const library = buildLibrary(
        loadedBundles(
          briefFlow('Text', [
            '{ pipe = "enrich_hint", result = "enriched" }',
            '{ pipe = "write_brief", result = "brief" }',
          ]),
        ),
      );
      expect(liftablePipes(library)).to.deep.equal([
        {
          pipe_ref: 'brief.enrich_hint',
          within_pipe_ref: 'brief.brief_flow',
          skipped_when_absent: ['hint'],
          absence_source: "optional input 'hint' of 'brief.brief_flow'",
        },
      ]);
    });
  });

  describe('when a step takes plainly the output of a step that may be skipped', () => {
    it('should list it too, chained to that step', () => {
      const extra =
        '[pipe.polish]\ntype = "PipeLLM"\ndescription = "d"\ninputs = { enriched = "Text" }\noutput = "Text"\nprompt = "Polish $enriched"';
      const library = buildLibrary(
        loadedBundles(
          briefFlow(
            'Text?',
            ['{ pipe = "enrich_hint", result = "enriched" }', '{ pipe = "polish", result = "polished" }'],
            extra,
          ),
        ),
      );
      expect(liftablePipes(library).map((entry) => [entry.pipe_ref, entry.absence_source])).to.deep.equal([
        ['brief.enrich_hint', "optional input 'hint' of 'brief.brief_flow'"],
        ['brief.polish', "'enrich_hint' is skipped when 'hint' is absent"],
      ]);
    });
  });
});
