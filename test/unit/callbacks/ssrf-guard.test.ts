import { expect } from 'chai';
import { callbackUrlProblem, deliverCallback } from '../../../shared/callbacks/index.js';
import { CallbackDeliveryError } from '../../../shared/errors/index.js';
import { isBlockedAddress } from '../../../shared/net/index.js';
import { startCallbackReceiver } from '../../helpers/callback-receiver.js';

describe('isBlockedAddress', () => {
  const blocked = ['127.0.0.1', '10.1.2.3', '172.16.0.1', '192.168.1.1', '169.254.169.254', '100.64.0.1', '0.0.0.0', '::1', 'fd00::1', 'fe80::1', '::ffff:127.0.0.1', '224.0.0.1', 'not-an-ip'];
  for (const address of blocked) it(`should block ${address}`, () => expect(isBlockedAddress(address)).to.equal(true));
  for (const address of ['8.8.8.8', '2606:4700:4700::1111', '::ffff:8.8.8.8', '[2606:4700:4700::1111]']) {
    it(`should allow ${address}`, () => expect(isBlockedAddress(address)).to.equal(false));
  }
});

describe('callbackUrlProblem', () => {
  it('should accept a public https URL', () => {
    expect(callbackUrlProblem('https://hooks.example.com/run-done', false)).to.equal(undefined);
  });

  it('should name the reason of each refusal', () => {
    expect(callbackUrlProblem('ftp://example.com/x', false)).to.equal('uses ftp; only http and https are accepted');
    expect(callbackUrlProblem('http://user:pw@example.com/', false)).to.equal('must not carry credentials');
    expect(callbackUrlProblem('http://[::ffff:7f00:1]/', false)).to.match(/loopback/);
    expect(callbackUrlProblem('http://0177.0.0.1/', false)).to.match(/loopback/);
    expect(callbackUrlProblem('http://api.localhost/', false)).to.match(/local or cloud-metadata host/);
    expect(callbackUrlProblem('not a url', false)).to.equal('is not a valid URL');
    expect(callbackUrlProblem(`https://example.com/${'x'.repeat(2100)}`, false)).to.match(/1 to 2048/);
  });

  it('should allow private hosts only when told to', () => {
    expect(callbackUrlProblem('http://127.0.0.1:9/x', true)).to.equal(undefined);
  });
});

describe('deliverCallback at connect time', () => {
  it('should refuse a host name that resolves to a loopback address, without sending anything', async () => {
    const receiver = await startCallbackReceiver([200]);
    try {
      const port = new URL(receiver.url).port;
      let failure: unknown;
      try {
        await deliverCallback({ url: `http://localhost:${port}/hook`, runId: 'r', body: '{}', secret: 's', nowSeconds: 0, timeoutMs: 2000, allowPrivateHosts: false });
      } catch (error) {
        failure = error;
      }
      expect(failure).to.be.instanceOf(CallbackDeliveryError);
      expect((failure as Error).message).to.match(/non-public address/);
      expect(receiver.received).to.have.length(0);
    } finally {
      await receiver.close();
    }
  });
});
