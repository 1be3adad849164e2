import { expect } from 'chai';
import { formatMthds } from '../../../shared/tooling/index.js';

const TEXT = 'domain="notes"\n[concept.Note]\ndescription="A note"\n';

describe('formatMthds', function () {
  // the first call loads taplo's 35 MB script
  this.timeout(60000);
  describe('when the same text is formatted again', () => {
    it('should give each option set its own layout, whatever was formatted before', async () => {
      const plain = await formatMthds(TEXT);
      const crlf = await formatMthds(TEXT, { crlf: true });
      const again = await formatMthds(TEXT);
      expect(plain).to.deep.equal({
        formatted: 'domain = "notes"\n[concept.Note]\ndescription = "A note"\n',
        changed: true,
        diagnostics: [],
      });
      expect(crlf.formatted).to.equal('domain = "notes"\r\n[concept.Note]\r\ndescription = "A note"\r\n');
      expect(again).to.deep.equal(plain);
    });

    it('should report changed against the text given, and keep reporting invalid TOML', async () => {
      const { formatted } = await formatMthds(TEXT);
      expect(await formatMthds(formatted)).to.deep.equal({ formatted, changed: false, diagnostics: [] });
      const broken = await formatMthds('key = ');
      expect(broken.changed).to.equal(false);
      expect(broken.formatted).to.equal('key = ');
      expect(broken.diagnostics).to.have.length(1);
    });
  });
});
