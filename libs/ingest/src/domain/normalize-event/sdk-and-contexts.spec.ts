import { EVENT_LIMITS } from '.';
import { normalize } from './normalize-event.fixtures';

describe('normalizeEvent', () => {
  describe('sdk, fingerprint, contexts, extra', () => {
    it('keeps sdk name, version, integrations and packages', () => {
      expect(normalize({ sdk: { name: 'sentry.python', version: '2.0.0', packages: [] } }).sdk).toEqual({ name: 'sentry.python', version: '2.0.0' });
      expect(
        normalize({
          sdk: { name: 'sentry.javascript.node', integrations: ['Http', 3, ''], packages: [{ name: 'npm:@sentry/node', version: '8.0.0' }, { name: 'x' }] },
        }).sdk,
      ).toEqual({ name: 'sentry.javascript.node', integrations: ['Http'], packages: [{ name: 'npm:@sentry/node', version: '8.0.0' }] });
      expect(normalize({ sdk: { name: 1 } }).sdk).toBeUndefined();
    });

    it('keeps string and scalar fingerprint entries', () => {
      expect(normalize({ fingerprint: ['{{ default }}', 'db', 42, null, {}, ''] }).fingerprint).toEqual(['{{ default }}', 'db', '42']);
      expect(normalize({ fingerprint: [] }).fingerprint).toBeUndefined();
      expect(normalize({ fingerprint: [null] }).fingerprint).toBeUndefined();
      expect(normalize({ fingerprint: Array.from({ length: 100 }, (_, index) => `f${index}`) }).fingerprint).toHaveLength(EVENT_LIMITS.fingerprintEntries);
    });

    it('passes contexts and extra through, bounded', () => {
      let deep: Record<string, unknown> = { leaf: 'x' };
      for (let level = 0; level < 20; level++) deep = { deep };
      const event = normalize({
        contexts: { os: { name: 'Linux' }, app: { big: 's'.repeat(10_000), list: Array.from({ length: 500 }, (_, index) => index) }, bad: 'not an object' },
        extra: { deep, fn: undefined },
      });
      expect(event.contexts?.os).toEqual({ name: 'Linux' });
      const app = event.contexts?.app as Record<string, unknown[]>;
      expect(app.big).toHaveLength(EVENT_LIMITS.dataString);
      expect(app.list).toHaveLength(EVENT_LIMITS.dataArray);
      expect(event.contexts).not.toHaveProperty('bad');
      expect(JSON.stringify(event.extra)).toContain('[Object]');
      expect(JSON.stringify(event.extra)).not.toContain('leaf');
    });

    it('keeps a __proto__ key as data without touching prototypes', () => {
      const raw = JSON.parse('{"extra":{"__proto__":{"polluted":true},"ok":1}}');
      const event = normalize(raw);
      expect(Object.getPrototypeOf(event.extra)).toBe(Object.prototype);
      expect(({} as Record<string, unknown>).polluted).toBeUndefined();
      expect(Object.hasOwn(event.extra!, '__proto__')).toBe(true);
      expect((event.extra as Record<string, unknown>).polluted).toBeUndefined();
    });
  });
});
