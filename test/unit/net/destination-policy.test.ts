import { expect } from 'chai';
import { addressProblem, type OutboundPolicy, outboundUrlProblem, resolvedProblem } from '../../../shared/net/index.js';
import {
  ALWAYS_REFUSED_SPELLINGS,
  LOOPBACK_SPELLINGS,
  PRIVATE_SPELLINGS,
  REFUSED_WHEN_OFF,
} from '../../helpers/ssrf-cases.js';

const OFF: OutboundPolicy = { allowPrivateHosts: false, setting: 'DOCUMENT_ALLOW_PRIVATE_HOSTS' };
const ON: OutboundPolicy = { allowPrivateHosts: true, setting: 'DOCUMENT_ALLOW_PRIVATE_HOSTS' };

describe('outboundUrlProblem', () => {
  describe('when the allow switch is off', () => {
    for (const host of REFUSED_WHEN_OFF) {
      it(`should refuse http://${host}:8080/x before connecting`, () =>
        expect(outboundUrlProblem(`http://${host}:8080/x`, OFF)).to.be.a('string'));
    }

    it('should accept public hosts, literal or named', () => {
      for (const url of [
        'https://example.com/doc.pdf',
        'http://8.8.8.8/x',
        'https://[2606:4700:4700::1111]/x',
        'http://[::ffff:8.8.8.8]/',
        'http://rebind.test/',
      ]) {
        expect(outboundUrlProblem(url, OFF), url).to.equal(undefined);
      }
    });

    it('should name the address class and the setting that governs it', () => {
      expect(outboundUrlProblem('http://2130706433/metrics', OFF)).to.equal(
        'targets 127.0.0.1, a non-public address (loopback): only public destinations are accepted while DOCUMENT_ALLOW_PRIVATE_HOSTS is off (it is for development and tests only)',
      );
      expect(outboundUrlProblem('http://[64:ff9b::a00:1]/', OFF)).to.match(
        /^targets \[64:ff9b::a00:1\], a non-public address \(private, RFC 1918\)/,
      );
      expect(outboundUrlProblem('http://100.64.0.1/', OFF)).to.equal(
        'targets 100.64.0.1, a non-public address (carrier-grade NAT, 100.64.0.0/10), refused in every mode (DOCUMENT_ALLOW_PRIVATE_HOSTS allows only loopback and private destinations)',
      );
    });

    it('should refuse other schemes, credentials and unparsable URLs', () => {
      expect(outboundUrlProblem('file:///etc/passwd', OFF)).to.equal('uses file; only http and https are accepted');
      expect(outboundUrlProblem('gopher://example.com/', OFF)).to.equal(
        'uses gopher; only http and https are accepted',
      );
      expect(outboundUrlProblem('http://user:pw@example.com/', OFF)).to.equal('must not carry credentials');
      expect(outboundUrlProblem('http://', OFF)).to.equal('is not a valid URL');
    });
  });

  describe('when the allow switch is on', () => {
    for (const host of [...LOOPBACK_SPELLINGS, ...PRIVATE_SPELLINGS]) {
      it(`should accept http://${host}:8080/x`, () =>
        expect(outboundUrlProblem(`http://${host}:8080/x`, ON)).to.equal(undefined));
    }
    for (const host of ALWAYS_REFUSED_SPELLINGS) {
      it(`should still refuse http://${host}:8080/x`, () =>
        expect(outboundUrlProblem(`http://${host}:8080/x`, ON)).to.be.a('string'));
    }

    it('should say that cloud metadata is refused whatever the switch says', () => {
      expect(outboundUrlProblem('http://169.254.169.254/latest/meta-data/', ON)).to.equal(
        'targets 169.254.169.254, a cloud-metadata address: cloud-metadata destinations are refused in every mode, whatever DOCUMENT_ALLOW_PRIVATE_HOSTS says',
      );
      expect(outboundUrlProblem('http://sub.metadata.google.internal./', ON)).to.equal(
        "targets 'sub.metadata.google.internal', a cloud-metadata host name: cloud-metadata destinations are refused in every mode, whatever DOCUMENT_ALLOW_PRIVATE_HOSTS says",
      );
    });
  });
});

describe('addressProblem and resolvedProblem', () => {
  it('should refuse a DNS answer when any of its addresses is refused', () => {
    expect(resolvedProblem('mixed.test', [{ address: '93.184.216.34' }, { address: '10.0.0.7' }], OFF)).to.match(
      /^'mixed.test' resolves to 10.0.0.7, a non-public address \(private, RFC 1918\)/,
    );
    expect(resolvedProblem('ok.test', [{ address: '93.184.216.34' }, { address: '2606:4700::1' }], OFF)).to.equal(
      undefined,
    );
  });

  it('should refuse a resolved metadata address even with the switch on', () => {
    expect(resolvedProblem('rebind.test', [{ address: '::ffff:169.254.169.254' }], ON)).to.match(
      /cloud-metadata address: cloud-metadata destinations are refused in every mode/,
    );
    expect(addressProblem('fd00:ec2::254', ON)).to.match(/cloud-metadata/);
    expect(addressProblem('127.0.0.1', ON)).to.equal(undefined);
  });
});
