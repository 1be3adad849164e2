import { expect } from 'chai';
import { type AddressClass, classifyAddress, isAddressLiteral } from '../../../shared/net/index.js';

describe('classifyAddress', () => {
  const table: [string, AddressClass][] = [
    ['8.8.8.8', 'public'],
    ['2606:4700:4700::1111', 'public'],
    ['[2606:4700:4700::1111]', 'public'],
    ['::ffff:8.8.8.8', 'public'],
    ['64:ff9b::808:808', 'public'],
    ['2002:808:808::', 'public'],
    ['127.0.0.1', 'loopback'],
    ['127.255.0.9', 'loopback'],
    ['::1', 'loopback'],
    ['[::ffff:7f00:1]', 'loopback'],
    ['::ffff:127.0.0.1', 'loopback'],
    ['::ffff:0:7f00:1', 'loopback'],
    ['64:ff9b::7f00:1', 'loopback'],
    ['2002:7f00:1::', 'loopback'],
    ['10.1.2.3', 'private'],
    ['172.16.0.1', 'private'],
    ['192.168.1.1', 'private'],
    ['64:ff9b::a00:1', 'private'],
    ['fd12:3456::1', 'uniqueLocal'],
    ['169.254.169.254', 'metadata'],
    ['169.254.170.2', 'metadata'],
    ['fd00:ec2::254', 'metadata'],
    ['100.100.100.200', 'metadata'],
    ['::ffff:a9fe:a9fe', 'metadata'],
    ['64:ff9b::a9fe:a9fe', 'metadata'],
    ['2002:a9fe:a9fe::', 'metadata'],
    ['169.254.1.1', 'linkLocal'],
    ['fe80::1', 'linkLocal'],
    ['100.64.0.1', 'carrierGradeNat'],
    ['224.0.0.1', 'multicast'],
    ['ff02::1', 'multicast'],
    ['255.255.255.255', 'broadcast'],
    ['0.0.0.0', 'unspecified'],
    ['::', 'unspecified'],
    ['::7f00:1', 'reserved'],
    ['240.0.0.1', 'reserved'],
    ['192.0.2.1', 'reserved'],
    ['2001:db8::1', 'reserved'],
    ['2001::1', 'reserved'],
    ['64:ff9b:1::1', 'reserved'],
    ['not-an-ip', 'reserved'],
    ['2130706433', 'reserved'],
  ];
  for (const [address, expected] of table) {
    it(`should classify ${address} as ${expected}`, () => expect(classifyAddress(address)).to.equal(expected));
  }
});

describe('isAddressLiteral', () => {
  it('should tell literals (as the URL parser leaves them) from names', () => {
    expect(['127.0.0.1', '[::1]', '::ffff:7f00:1'].map(isAddressLiteral)).to.deep.equal([true, true, true]);
    expect(['localhost', 'metadata.google.internal', 'rebind.test'].map(isAddressLiteral)).to.deep.equal([
      false,
      false,
      false,
    ]);
  });
});
