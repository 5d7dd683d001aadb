import { normalize } from './normalize-event.fixtures';

describe('normalizeEvent', () => {
  describe('user', () => {
    it('reads the fields and replaces {{auto}} with the client address', () => {
      expect(
        normalize(
          {
            user: {
              id: 'u1',
              email: 'a@b.c',
              username: 'ada',
              name: 'Ada L',
              ip_address: '{{auto}}',
              geo: { country_code: 'GB', city: 'London', region: 'England' },
            },
          },
          { clientIp: '2001:db8::1' },
        ).user,
      ).toEqual({
        id: 'u1',
        email: 'a@b.c',
        username: 'ada',
        name: 'Ada L',
        ipAddress: '2001:db8::1',
        geo: { countryCode: 'GB', city: 'London', region: 'England' },
      });
    });

    it('drops {{auto}} without a client address, and invalid addresses', () => {
      expect(normalize({ user: { id: 1, ip_address: '{{auto}}' } }).user).toEqual({ id: '1' });
      expect(normalize({ user: { id: 1, ip_address: '{{auto}}' } }, { clientIp: 'not-an-ip' }).user).toEqual({ id: '1' });
      expect(normalize({ user: { id: 1, ip_address: '999.1.1.1' } }).user).toEqual({ id: '1' });
      expect(normalize({ user: { ip_address: '198.51.100.7' } }).user).toEqual({ ipAddress: '198.51.100.7' });
    });

    it('is undefined when nothing usable is left', () => {
      expect(normalize({ user: {} }).user).toBeUndefined();
      expect(normalize({ user: { id: null, email: 5, geo: 'x' } }).user).toBeUndefined();
      expect(normalize({ user: { geo: { city: 3 } } }).user).toBeUndefined();
      expect(normalize({ user: [] }).user).toBeUndefined();
    });
  });
});
