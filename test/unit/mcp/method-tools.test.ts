import { expect } from 'chai';
import { cursorOf, positionOf } from '../../../api/mcp/method-tools.js';

describe('MCP method tools: page cursors (docs/mcp.md#method-tools)', () => {
  it('should read back the position a cursor was made of', () => {
    const position = { methodId: 'mt_Q2hsb2UgYW5kIFpv', version: 4 };
    expect(positionOf(cursorOf(position))).to.deep.equal(position);
  });

  it('should read no position from a cursor it never gave', () => {
    const foreign = Buffer.from(JSON.stringify({ m: '', v: -1 })).toString('base64url');
    for (const cursor of ['', 'not base64 json', foreign, Buffer.from('[1]').toString('base64url')])
      expect(positionOf(cursor), cursor).to.equal(undefined);
  });
});
