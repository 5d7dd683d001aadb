import { isAllowedAddress } from './address-policy';

const strict = { allowPrivate: false, allowedCidrs: [] };

describe('webhook address policy', () => {
  it.each([
    '127.0.0.1',
    '10.1.2.3',
    '172.16.0.1',
    '192.168.1.1',
    '169.254.169.254',
    '100.64.0.1',
    '0.0.0.0',
    '224.0.0.1',
    '255.255.255.255',
    '240.0.0.1',
    '::1',
    '::',
    'fe80::1',
    'fc00::1',
    'ff02::1',
    '::ffff:127.0.0.1',
    '::ffff:10.0.0.1',
    'not-an-ip',
  ])('refuses %s', (address) => {
    expect(isAllowedAddress(address, strict)).toBe(false);
  });

  it.each(['8.8.8.8', '1.1.1.1', '2606:4700:4700::1111', '::ffff:8.8.8.8'])('allows the public address %s', (address) => {
    expect(isAllowedAddress(address, strict)).toBe(true);
  });

  it('allows private addresses when told to, or those in an allowed range', () => {
    expect(isAllowedAddress('127.0.0.1', { allowPrivate: true, allowedCidrs: [] })).toBe(true);
    expect(isAllowedAddress('10.1.2.3', { allowPrivate: false, allowedCidrs: ['10.0.0.0/8'] })).toBe(true);
    expect(isAllowedAddress('::ffff:10.1.2.3', { allowPrivate: false, allowedCidrs: ['10.0.0.0/8'] })).toBe(true);
    expect(isAllowedAddress('192.168.0.1', { allowPrivate: false, allowedCidrs: ['10.0.0.0/8', 'fc00::/7'] })).toBe(false);
  });
});
