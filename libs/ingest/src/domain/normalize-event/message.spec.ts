import { EVENT_LIMITS, formatParams } from '.';
import { normalize } from './normalize-event.fixtures';

describe('normalizeEvent', () => {
  describe('message', () => {
    it('reads a string message', () => {
      const event = normalize({ message: 'Something happened\nsecond line' });
      expect(event.message).toBe('Something happened\nsecond line');
      expect(event.title).toBe('Something happened');
      expect(event.messageTemplate).toBeUndefined();
    });

    it('reads message objects: formatted first, else message with params', () => {
      expect(normalize({ message: { formatted: 'User 7 left', message: 'User %s left', params: [7] } })).toMatchObject({
        message: 'User 7 left',
        messageTemplate: 'User %s left',
      });
      expect(normalize({ message: { message: 'plain' } }).message).toBe('plain');
      expect(normalize({ message: { message: 'User %s left', params: ['ada'] } })).toMatchObject({ message: 'User ada left', messageTemplate: 'User %s left' });
    });

    it('reads logentry, which wins over message', () => {
      expect(normalize({ logentry: { message: 'Order %s failed after %d tries', params: ['A-1', 3] }, message: 'legacy' })).toMatchObject({
        message: 'Order A-1 failed after 3 tries',
        messageTemplate: 'Order %s failed after %d tries',
        title: 'Order A-1 failed after 3 tries',
      });
      expect(normalize({ logentry: { formatted: 'done' } }).message).toBe('done');
      expect(normalize({ logentry: { message: '' }, message: 'fallback' }).message).toBe('fallback');
      expect(normalize({ 'sentry.interfaces.Message': { message: 'legacy interface' } }).message).toBe('legacy interface');
    });

    it('ignores unusable message shapes', () => {
      expect(normalize({ message: { formatted: 5 } }).message).toBeUndefined();
      expect(normalize({ message: '' }).message).toBeUndefined();
      expect(normalize({ logentry: 'text' }).message).toBe('text');
      expect(normalize({ message: null }).message).toBeUndefined();
    });

    it('truncates long messages', () => {
      const event = normalize({ message: 'm'.repeat(20_000) });
      expect(event.message).toHaveLength(EVENT_LIMITS.message);
      expect(event.title).toHaveLength(EVENT_LIMITS.title);
    });

    it('formatParams applies positional and named params', () => {
      expect(formatParams('%s and %s', ['a'])).toBe('a and %s');
      expect(formatParams('100%% of %s', ['users'])).toBe('100% of users');
      expect(formatParams('%s %s %s', [null, { a: 1 }, true])).toBe('null {"a":1} true');
      expect(formatParams('%(name)s is %(age)d', { name: 'Ada', age: 36 })).toBe('Ada is 36');
      expect(formatParams('%(missing)s', {})).toBe('%(missing)s');
      expect(formatParams('no params %s', 'x')).toBe('no params %s');
    });
  });
});
