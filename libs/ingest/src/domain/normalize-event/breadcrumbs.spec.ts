import { EVENT_LIMITS } from '.';
import { normalize } from './normalize-event.fixtures';

describe('normalizeEvent', () => {
  describe('breadcrumbs', () => {
    const crumb = (index: number) => ({ timestamp: 1714564700 + index, category: 'console', message: `line ${index}`, level: 'log', type: 'default' });

    it('keeps them as sent, oldest first, with Sentry levels', () => {
      const event = normalize({
        breadcrumbs: {
          values: [
            {
              timestamp: 1714564700.5,
              category: 'http',
              type: 'http',
              level: 'warn',
              data: { url: '/api', status_code: 500 },
              event_id: '9ec79c33ec9942ab8353589fcb2e04dc',
            },
            { timestamp: '2024-05-01T11:58:21Z', message: { not: 'a string' } },
            { timestamp: { bad: true }, message: 'no usable time' },
            'not a crumb',
            {},
          ],
        },
      });
      expect(event.breadcrumbs).toEqual([
        {
          timestamp: 1714564700.5,
          type: 'http',
          category: 'http',
          level: 'warning',
          data: { url: '/api', status_code: 500 },
          eventId: '9ec79c33ec9942ab8353589fcb2e04dc',
        },
        { timestamp: '2024-05-01T11:58:21Z', message: '{"not":"a string"}' },
        { message: 'no usable time' },
      ]);
    });

    it('does not copy data that is already within bounds', () => {
      const data = { url: '/api', nested: { list: [1, 2, 3] } };
      const [kept] = normalize({ breadcrumbs: [{ data }] }).breadcrumbs ?? [];
      expect(kept.data).toBe(data);
      const trimmed = normalize({ breadcrumbs: [{ data: { ...data, long: 'x'.repeat(5000) } }] }).breadcrumbs?.[0].data;
      expect(trimmed).toEqual({ ...data, long: 'x'.repeat(EVENT_LIMITS.smallData.string) });
    });

    it('accepts a bare list and keeps only the newest 100', () => {
      const event = normalize({ breadcrumbs: Array.from({ length: 150 }, (_, index) => crumb(index)) });
      expect(event.breadcrumbs).toHaveLength(EVENT_LIMITS.maxBreadcrumbs);
      expect(event.breadcrumbs?.[0].message).toBe('line 50');
      expect(event.breadcrumbs?.at(-1)).toMatchObject({ message: 'line 149', level: 'info', category: 'console' });
    });

    it('bounds each crumb: message length, and the depth, width and strings of its data', () => {
      let deep: Record<string, unknown> = { leaf: 'x' };
      for (let level = 0; level < 10; level++) deep = { deep };
      const [kept] =
        normalize({
          breadcrumbs: [
            {
              message: 'm'.repeat(20_000),
              category: 'c'.repeat(500),
              data: {
                deep,
                long: 'd'.repeat(5000),
                list: Array.from({ length: 80 }, (_, index) => index),
                ...Object.fromEntries(Array.from({ length: 80 }, (_, index) => [`k${index}`, index])),
              },
            },
          ],
        }).breadcrumbs ?? [];
      expect(kept.message).toHaveLength(EVENT_LIMITS.message);
      expect(kept.category).toHaveLength(EVENT_LIMITS.shortField * 2);
      expect(Object.keys(kept.data ?? {})).toHaveLength(EVENT_LIMITS.smallData.keys);
      expect(kept.data?.long).toHaveLength(EVENT_LIMITS.smallData.string);
      expect(kept.data?.list).toHaveLength(EVENT_LIMITS.smallData.array);
      expect(JSON.stringify(kept.data)).toContain('[Object]');
      expect(JSON.stringify(kept.data)).not.toContain('leaf');
    });

    it('is undefined when none is usable', () => {
      expect(normalize({ breadcrumbs: { values: [null, 1, {}] } }).breadcrumbs).toBeUndefined();
      expect(normalize({ breadcrumbs: 'x' }).breadcrumbs).toBeUndefined();
    });
  });
});
