import { expect } from 'chai';
import { buildLibrary } from '../../../../../shared/mthds/library/build-library.js';
import {
  multiplicityFits,
  sequenceFlow,
  withMultiplicity,
} from '../../../../../shared/mthds/rules/data-flow/sequence-flow.js';
import { bundle, loadedBundles } from '../harness.js';

describe('sequenceFlow', () => {
  describe('when steps read sequence inputs, earlier results and batch items', () => {
    it('should bind each step input to what the name holds at that point', () => {
      const text = bundle(
        'flow',
        [
          '[pipe.run]\ntype = "PipeSequence"\ndescription = "d"\ninputs = { doc = "Document", topics = "Text[]" }\noutput = "Text"',
          'steps = [{ pipe = "read", result = "pages" }, { pipe = "sum", result = "pages" }, { pipe = "each", batch_over = "topics", batch_as = "topic" }, { pipe = "ghost", result = "x" }, { pipe = "use" }]',
          '[pipe.read]\ntype = "PipeFunc"\ndescription = "d"\ninputs = { doc = "Document" }\noutput = "Page[]"\nfunction_name = "f"',
          '[pipe.sum]\ntype = "PipeFunc"\ndescription = "d"\ninputs = { pages = "Page[]" }\noutput = "Text"\nfunction_name = "f"',
          '[pipe.each]\ntype = "PipeFunc"\ndescription = "d"\ninputs = { topic = "Text" }\noutput = "Text"\nfunction_name = "f"',
          '[pipe.use]\ntype = "PipeFunc"\ndescription = "d"\ninputs = { pages = "Text", x = "Text" }\noutput = "Text"\nfunction_name = "f"',
        ].join('\n'),
      );
      const bundles = loadedBundles(text);
      const library = buildLibrary(bundles);
      const flow = sequenceFlow(library, library.resolvePipe('flow.run'));
      expect(
        flow.map(({ at, input, expected, value }) => [at, input.name, expected, value.raw, value.origin]),
      ).to.deep.equal([
        ['steps[0]', 'doc', 'single', 'Document', "input 'doc'"],
        ['steps[1]', 'pages', 'variable', 'Page[]', "'pages' (from step 'read')"],
        ['steps[2]', 'topic', 'single', 'Text', "an item of input 'topics'"],
        ['steps[4]', 'pages', 'single', 'Text', "'pages' (from step 'sum')"],
      ]);
    });
  });
});

describe('withMultiplicity', () => {
  describe('when writing a ref back with its suffix', () => {
    it('should drop the native domain and add [] or [N]', () => {
      expect([
        withMultiplicity('native.Text', 'single'),
        withMultiplicity('hr.Skill', 'variable'),
        withMultiplicity('native.Page', 3),
      ]).to.deep.equal(['Text', 'hr.Skill[]', 'Page[3]']);
    });
  });
});

describe('multiplicityFits', () => {
  describe('when comparing produced and expected multiplicities', () => {
    it('should follow the table', () => {
      const table: [Parameters<typeof multiplicityFits>, boolean][] = [
        [['single', 'single'], true],
        [['variable', 'single'], false],
        [['single', 'variable'], false],
        [['variable', 'variable'], true],
        [[3, 'variable'], true],
        [['variable', 3], true],
        [[3, 3], true],
        [[2, 3], false],
        [['single', 3], false],
      ];
      expect(table.map(([args]) => multiplicityFits(...args))).to.deep.equal(table.map(([, fits]) => fits));
    });
  });
});
