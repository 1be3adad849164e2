import { expect } from 'chai';
import { CallbackDeliveryError } from '../../../shared/errors/index.js';
import { callbackUrlProblem } from '../../../shared/net/index.js';
import { deliverCallback } from '../../../shared/orchestration/index.js';
import { startCallbackReceiver } from '../../helpers/callback-receiver.js';

describe('callbackUrlProblem', () => {
  it('should accept a public https URL', () => {
    expect(callbackUrlProblem('https://hooks.example.com/run-done', false)).to.equal(undefined);
  });

  it('should name the reason of each refusal', () => {
    expect(callbackUrlProblem('ftp://example.com/x', false)).to.equal('uses ftp; only http and https are accepted');
    expect(callbackUrlProblem('http://user:pw@example.com/', false)).to.equal('must not carry credentials');
    expect(callbackUrlProblem('http://[::ffff:7f00:1]/', false)).to.match(/loopback/);
    expect(callbackUrlProblem('http://0177.0.0.1/', false)).to.match(/loopback/);
    expect(callbackUrlProblem('http://api.localhost/', false)).to.match(/loopback host name/);
    expect(callbackUrlProblem('not a url', false)).to.equal('is not a valid URL');
    expect(callbackUrlProblem(`https://example.com/${'x'.repeat(2100)}`, false)).to.match(/1 to 2048/);
  });

  it('should allow private hosts only when told to', () => {
    expect(callbackUrlProblem('http://127.0.0.1:9/x', true)).to.equal(undefined);
  });

  it('should give the same URL each policy’s verdict, however often it is checked', () => {
    for (let round = 0; round < 2; round += 1) {
      expect(callbackUrlProblem('http://10.0.0.7/hook', true), `allowed, round ${round}`).to.equal(undefined);
      expect(callbackUrlProblem('http://10.0.0.7/hook', false), `refused, round ${round}`).to.match(/private/);
    }
  });

  it('should refuse cloud-metadata hosts even when private hosts are allowed', () => {
    expect(callbackUrlProblem('http://169.254.169.254/latest', true)).to.equal(
      'targets 169.254.169.254, a cloud-metadata address: cloud-metadata destinations are refused in every mode, whatever CALLBACK_ALLOW_PRIVATE_HOSTS says',
    );
    expect(callbackUrlProblem('http://metadata.google.internal/computeMetadata/v1/', true)).to.match(
      /cloud-metadata host name/,
    );
  });
});

describe('deliverCallback at connect time', () => {
  it('should refuse a host name that resolves to a loopback address, without sending anything', async () => {
    const receiver = await startCallbackReceiver([200]);
    try {
      const port = new URL(receiver.url).port;
      let failure: unknown;
      try {
        await deliverCallback({
          url: `http://localhost:${port}/hook`,
          runId: 'r',
          body: '{}',
          secret: 's',
          nowSeconds: 0,
          timeoutMs: 2000,
          allowPrivateHosts: false,
        });
      } catch (error) {
        failure = error;
      }
      expect(failure).to.be.instanceOf(CallbackDeliveryError);
      expect((failure as Error).message).to.match(/loopback host name/);
      expect(failure).to.have.property('retryable', false);
      expect(receiver.received).to.have.length(0);
    } finally {
      await receiver.close();
    }
  });
});
