import fc from 'fast-check';
import { readUnsubscribeToken, unsubscribeToken } from './unsubscribe-token';

describe('unsubscribe tokens', () => {
  const key = 'k'.repeat(64);

  it('name the user and type they were signed for', () => {
    fc.assert(
      fc.property(fc.bigInt({ min: 1n, max: 2n ** 62n }), fc.constantFrom('alerts' as const, 'workflow' as const), (id, type) => {
        expect(readUnsubscribeToken(key, unsubscribeToken(key, String(id), type))).toEqual({ userId: String(id), type });
      }),
    );
  });

  it('are refused when changed, signed with another key, or not tokens at all', () => {
    const token = unsubscribeToken(key, '7', 'alerts');
    expect(readUnsubscribeToken(key, token.replace('7.alerts', '8.alerts'))).toBeNull();
    expect(readUnsubscribeToken(key, token.replace('.alerts.', '.workflow.'))).toBeNull();
    expect(readUnsubscribeToken('other', token)).toBeNull();
    fc.assert(
      fc.property(fc.string(), (text) => {
        expect(readUnsubscribeToken(key, text)).toBeNull();
      }),
    );
  });
});
