import { expect } from 'chai';
import { parse } from 'smol-toml';
import { MAX_TOML_DEPTH, scanToml } from '../../../../shared/mthds/parse/toml-scan.js';
import { corpusMethodBundles, corpusSampleFiles, corpusText, sample } from '../../../helpers/corpus.js';

/** The JSON nesting depth of parsed data (the root table is 1), measured iteratively. */
function dataDepth(value: unknown): number {
  let deepest = 0;
  const pending: [unknown, number][] = [[value, 1]];
  while (pending.length > 0) {
    const [item, depth] = pending.pop()!;
    if (item === null || typeof item !== 'object') continue;
    deepest = Math.max(deepest, depth);
    for (const child of Object.values(item)) pending.push([child, depth + 1]);
  }
  return deepest;
}

/** The smallest limit the scan accepts for a text. */
function scannedDepth(text: string): number {
  let limit = 1;
  while (scanToml(text, { maxDepth: limit }).tooDeep) limit += 1;
  return limit;
}

describe('scanToml', () => {
  describe('when measuring depth', () => {
    const cases: [string, string][] = [
      ['a plain key', 'a = 1'],
      ['a dotted key', 'a.b.c = 1'],
      ['a quoted dotted key with a dot inside quotes', '"a.b".\'c.d\' . e = 1'],
      ['a table header', '[a.b]\nx = 1'],
      ['an array of tables', '[[a.b]]\nx = 1'],
      ['an array of tables with a dotted key', '[[a]]\nb.c = [1]'],
      ['inline tables in arrays', 'k = [{ x = { y = [[1], 2] } }, { z = 1 }]'],
      ['an empty inline table and array', 'k = {}\nl = []'],
      ['a dotted key inside an inline table', 'k = { a.b.c = { d = 1 } }'],
      [
        'brackets inside every kind of string',
        `a = "[{\\"[["\nb = '[[{'\nc = """\n[[{"\\"""\n"""\nd = '''[[ '' ]]'''\ne = """x"""""`,
      ],
      ['brackets in comments', '# [[[[{{{{\na = 1 # [[[['],
      ['a multi-line array with comments', 'a = [\n  [1], # ]]]\n  [[2]],\n]'],
      ['a float and a date in values', 'a = 1.5\nb = 1979-05-27T07:32:00.999Z\nc.d = 0.1'],
      ['a header after nested values', 'a = [[[1]]]\n[b]\nc = 1'],
    ];
    for (const [name, text] of cases) {
      it(`should agree with the parsed data for ${name}`, () => {
        expect(scannedDepth(text)).to.equal(dataDepth(parse(text)));
      });
    }

    it('should agree with the parsed data for every corpus bundle, all within MAX_TOML_DEPTH', () => {
      const texts = [
        ...corpusSampleFiles().map((file) => sample(file.replace(/\.mthds$/, ''))),
        ...corpusMethodBundles().map((path) => corpusText(`methods/${path}`)),
      ];
      for (const text of texts) {
        expect(scannedDepth(text)).to.equal(dataDepth(parse(text)));
        expect(scanToml(text).tooDeep).to.equal(undefined);
      }
    });
  });

  describe('when a text nests past the limit', () => {
    it('should stop at the key of a dotted key of 10,000 segments', () => {
      const text = `domain = "x"\n${'a.'.repeat(10_000)}b = 1\n`;
      expect(scanToml(text).tooDeep).to.deep.equal({ index: 13, depth: 10_001 });
    });

    it('should stop at the header of a deep table', () => {
      expect(scanToml(`x = 1\n[${'t.'.repeat(40)}t]`).tooDeep).to.deep.equal({ index: 6, depth: 42 });
    });

    it('should stop at the bracket opening the level past the limit', () => {
      const text = `k = ${'{a='.repeat(100)}1${'}'.repeat(100)}`;
      expect(scanToml(text).tooDeep).to.deep.equal({ index: 4 + 3 * (MAX_TOML_DEPTH - 1), depth: MAX_TOML_DEPTH + 1 });
    });

    it('should scan a million nested brackets without recursion', () => {
      const text = `k = ${'['.repeat(1_000_000)}`;
      expect(scanToml(text).tooDeep?.depth).to.equal(MAX_TOML_DEPTH + 1);
    });
  });

  describe('when reporting long tokens', () => {
    it('should report long strings, quoted keys and value runs, not short ones', () => {
      const long = 'x'.repeat(20);
      const text = `"${long}" = "${long}"\nb = ${'1'.repeat(20)}\nc = "short"\nbare${long} = '''${long}'''`;
      const tokens = scanToml(text, { longToken: 10 }).longTokens.map((token) => [
        token.kind,
        text.slice(token.start, token.end),
      ]);
      expect(tokens).to.deep.equal([
        ['key', `"${long}"`],
        ['string', `"${long}"`],
        ['bare', '1'.repeat(20)],
        ['string', `'''${long}'''`],
      ]);
    });
  });
});
