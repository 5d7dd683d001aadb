import { parseTimestamp } from '.';
import { RECEIVED, normalize } from './normalize-event.fixtures';

describe('normalizeEvent', () => {
  describe('timestamp', () => {
    it('accepts seconds with fractions, numeric strings and ISO strings', () => {
      expect(normalize({ timestamp: 1714564000 }).timestamp).toBe('2024-05-01T11:46:40.000Z');
      expect(normalize({ timestamp: 1714564000.5678 }).timestamp).toBe('2024-05-01T11:46:40.567Z');
      expect(normalize({ timestamp: '1714564000.25' }).timestamp).toBe('2024-05-01T11:46:40.250Z');
      expect(normalize({ timestamp: '2024-05-01T11:00:00Z' }).timestamp).toBe('2024-05-01T11:00:00.000Z');
      expect(normalize({ timestamp: '2024-05-01T11:00:00.123456Z' }).timestamp).toBe('2024-05-01T11:00:00.123Z');
      expect(normalize({ timestamp: '2024-05-01T13:00:00+02:00' }).timestamp).toBe('2024-05-01T11:00:00.000Z');
      expect(normalize({ timestamp: '2024-05-01T13:00:00+0200' }).timestamp).toBe('2024-05-01T11:00:00.000Z');
    });

    it('reads an ISO string without a zone as UTC, like Relay', () => {
      expect(normalize({ timestamp: '2024-05-01T11:00:00' }).timestamp).toBe('2024-05-01T11:00:00.000Z');
      expect(normalize({ timestamp: '2024-05-01 11:00:00.5' }).timestamp).toBe('2024-05-01T11:00:00.500Z');
    });

    it('falls back to the arrival time for missing or unreadable timestamps', () => {
      for (const timestamp of [undefined, null, '', 'yesterday', '2024-13-45T99:00:00Z', -5, 0, Number.NaN, Infinity, 1e20, true, {}]) {
        expect(normalize({ timestamp }).timestamp).toBe(RECEIVED.toISOString());
      }
    });

    it('moves far-future and very old timestamps to the arrival time', () => {
      expect(normalize({ timestamp: RECEIVED.getTime() / 1000 + 30 }).timestamp).toBe('2024-05-01T12:00:30.000Z');
      expect(normalize({ timestamp: RECEIVED.getTime() / 1000 + 3600 }).timestamp).toBe(RECEIVED.toISOString());
      expect(normalize({ timestamp: '2099-01-01T00:00:00Z' }).timestamp).toBe(RECEIVED.toISOString());
      expect(normalize({ timestamp: '2024-04-01T12:00:00Z' }).timestamp).toBe('2024-04-01T12:00:00.000Z');
      expect(normalize({ timestamp: '2023-01-01T00:00:00Z' }).timestamp).toBe(RECEIVED.toISOString());
    });

    it('parseTimestamp reads only sane values', () => {
      expect(parseTimestamp('2024-05-01')?.toISOString()).toBe('2024-05-01T00:00:00.000Z');
      expect(parseTimestamp('2024-05-01T10:00')?.toISOString()).toBe('2024-05-01T10:00:00.000Z');
      expect(parseTimestamp('  1714564000  ')?.toISOString()).toBe('2024-05-01T11:46:40.000Z');
      expect(parseTimestamp('1714564000abc')).toBeUndefined();
      expect(parseTimestamp('Wed, 01 May 2024 10:00:00 GMT')).toBeUndefined();
    });
  });

  describe('level', () => {
    it.each([
      ['fatal', 'fatal'],
      ['critical', 'fatal'],
      ['error', 'error'],
      ['warning', 'warning'],
      ['warn', 'warning'],
      ['WARNING', 'warning'],
      [' info ', 'info'],
      ['log', 'info'],
      ['debug', 'debug'],
      ['verbose', 'error'],
      ['', 'error'],
      [40, 'error'],
      [30, 'warning'],
      [10, 'debug'],
      [50, 'fatal'],
      [99, 'error'],
      [null, 'error'],
    ])('maps %p to %s', (level, expected) => {
      expect(normalize({ level }).level).toBe(expected);
    });
  });

  describe('platform', () => {
    it('keeps a valid platform, else uses the fallback, else other', () => {
      expect(normalize({ platform: 'Python' }).platform).toBe('python');
      expect(normalize({ platform: 'bad platform!' }, { platformFallback: 'node' }).platform).toBe('node');
      expect(normalize({}, { platformFallback: 'javascript' }).platform).toBe('javascript');
      expect(normalize({}, { platformFallback: '???' }).platform).toBe('other');
      expect(normalize({ platform: 'x'.repeat(100) }).platform).toBe('other');
    });
  });

  describe('release, environment, dist and names', () => {
    it('keeps valid values', () => {
      expect(normalize({ release: ' backend@2.0.0+abc ', environment: 'prod-eu', dist: '42', server_name: 'host', logger: 'django' })).toMatchObject({
        release: 'backend@2.0.0+abc',
        environment: 'prod-eu',
        dist: '42',
        serverName: 'host',
        logger: 'django',
      });
      expect(normalize({ release: 7 }).release).toBe('7');
    });

    it('drops releases Sentry refuses', () => {
      for (const release of ['', '.', '..', 'latest', 'a/b', 'a\\b', 'line\nbreak', 'x'.repeat(201)]) {
        expect(normalize({ release }).release).toBeUndefined();
      }
    });

    it('defaults invalid environments to production', () => {
      for (const environment of ['', 'a/b', 'None', 'x'.repeat(65), 'tab\there']) {
        expect(normalize({ environment }).environment).toBe('production');
      }
    });
  });
});
