import { expect } from 'chai';
import { methodToolName, parseMethodToolName } from '../../../api/mcp/tool-names.js';

describe('MCP method tool names (docs/mcp.md#method-tools)', () => {
  it('should name a version <method id>_v<version>, within MCP’s name rules', () => {
    const name = methodToolName({ methodId: 'mt_Q2hsb2UgYW5kIFpv', version: 3 });
    expect(name).to.equal('mt_Q2hsb2UgYW5kIFpv_v3');
    expect(name).to.match(/^[a-zA-Z0-9_-]{1,64}$/);
  });

  it('should read a name back, even for a method id that itself ends like a version', () => {
    expect(parseMethodToolName('mt_Q2hsb2UgYW5kIFpv_v3')).to.deep.equal({
      methodId: 'mt_Q2hsb2UgYW5kIFpv',
      version: 3,
    });
    const tricky = { methodId: 'mt_abcdefgh_v12345', version: 7 };
    expect(parseMethodToolName(methodToolName(tricky))).to.deep.equal(tricky);
  });

  it('should read no method version from a generic tool’s name or a malformed one', () => {
    for (const name of ['mthds_run_bundle', 'mt_abc', 'mt_abc_v0', 'mt_abc_v', 'xx_abc_v1', 'mt_a b_v1', 'mt_abc_v01'])
      expect(parseMethodToolName(name), name).to.equal(undefined);
  });
});
