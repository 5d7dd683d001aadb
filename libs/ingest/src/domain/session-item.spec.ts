import fc from 'fast-check';
import { anyText } from '../../../../test/support/arbitrary-text';
import { SESSION_ITEM_LIMITS, sessionAggregatesOf, sessionsOfItem, sessionUpdateOf } from './session-item';

const NOW = new Date('2026-03-10T12:30:00.000Z');
const SID = '2c94e530731148e38edb92544437e046';
const STARTED = '2026-03-10T12:00:05.000Z';
const update = (fields: Record<string, unknown>) => ({ sid: SID, started: STARTED, attrs: { release: 'shop@2.0.0', environment: 'production' }, ...fields });

describe('session items (Sentry session protocol, counted as Relay counts them)', () => {
  it('counts a session at its init update, and a crash as errored and crashed', () => {
    expect(sessionUpdateOf(update({ init: true, did: 'u-1', status: 'ok' }), NOW)).toEqual({
      sessions: [
        {
          release: 'shop@2.0.0',
          environment: 'production',
          started: STARTED,
          distinctId: 'u-1',
          sessionId: SID,
          total: 1,
          errored: 0,
          abnormal: 0,
          crashed: 0,
        },
      ],
    });
    expect(sessionUpdateOf(update({ status: 'crashed', errors: 1 }), NOW)).toEqual({
      sessions: [expect.objectContaining({ total: 0, errored: 1, crashed: 1, abnormal: 0, distinctId: null })],
    });
  });

  it.each([
    ['errors without an error status', { errors: 2, status: 'ok' }, { errored: 1, crashed: 0, abnormal: 0 }],
    ['an errored status without errors', { status: 'errored' }, { errored: 1, crashed: 0, abnormal: 0 }],
    ['an abnormal end', { status: 'abnormal' }, { errored: 1, crashed: 0, abnormal: 1 }],
  ])('makes a session errored on %s', (_name, fields, counts) => {
    expect(sessionUpdateOf(update(fields), NOW)).toEqual({ sessions: [expect.objectContaining({ total: 0, ...counts })] });
  });

  it('adds nothing for a later update that is neither an init nor an error', () => {
    expect(sessionUpdateOf(update({ init: false, status: 'exited' }), NOW)).toEqual({ sessions: [] });
  });

  it('treats an empty or nil distinct id as none, and an empty environment as none', () => {
    const [session] = (
      sessionUpdateOf(update({ init: true, did: '00000000-0000-0000-0000-000000000000', attrs: { release: 'r', environment: '' } }), NOW) as {
        sessions: Array<{ distinctId: unknown; environment: unknown }>;
      }
    ).sessions;
    expect(session).toMatchObject({ distinctId: null, environment: null });
  });

  it('reads aggregates: every errored, abnormal and crashed session is an errored one', () => {
    expect(
      sessionAggregatesOf(
        {
          aggregates: [
            { started: STARTED, did: 'u-9', exited: 3, errored: 1, crashed: 2 },
            { started: '2026-03-10T12:01:00Z', exited: 0 },
          ],
          attrs: { release: 'shop@2.0.0' },
        },
        NOW,
      ),
    ).toEqual({
      sessions: [
        { release: 'shop@2.0.0', environment: null, started: STARTED, distinctId: 'u-9', sessionId: null, total: 6, errored: 3, abnormal: 0, crashed: 2 },
      ],
    });
  });

  it('drops an aggregate bucket out of the accepted time range alone', () => {
    const old = new Date(NOW.getTime() - (SESSION_ITEM_LIMITS.maxAgeSeconds + 1) * 1000).toISOString();
    const result = sessionAggregatesOf(
      {
        aggregates: [
          { started: old, exited: 1 },
          { started: STARTED, exited: 2 },
        ],
        attrs: { release: 'r' },
      },
      NOW,
    );
    expect(result).toEqual({ sessions: [expect.objectContaining({ total: 2 })] });
  });

  it.each([
    [{ ...update({}), sid: 'nope' }, 'sid must be a UUID'],
    [{ ...update({}), attrs: {} }, 'attrs.release is required'],
    [{ ...update({}), attrs: { release: 'latest' } }, 'not a valid release name'],
    [{ ...update({}), attrs: { release: 'a/b' } }, 'not a valid release name'],
    [{ ...update({}), attrs: { release: 'r'.repeat(201) } }, 'longer than 200'],
    [{ ...update({}), attrs: { release: 'r', environment: 'e'.repeat(65) } }, 'attrs.environment'],
    [update({ status: 'unknown' }), 'status must be'],
    [update({ errors: -1 }), 'errors must be'],
    [update({ init: 'yes' }), 'init must be a boolean'],
    [update({ started: 'yesterday' }), 'started must be a time'],
    [update({ started: '2026-03-10T12:32:00Z' }), 'in the future'],
    [update({ started: '2026-03-01T00:00:00Z' }), 'too long ago'],
  ])('refuses the update %j', (value, problem) => {
    expect(sessionUpdateOf(value, NOW)).toEqual({ problem: expect.stringContaining(problem) });
  });

  it('refuses aggregates over the item budget and bad counts', () => {
    const many = Array.from({ length: SESSION_ITEM_LIMITS.maxAggregates + 1 }, () => ({ started: STARTED, exited: 1 }));
    expect(sessionAggregatesOf({ aggregates: many, attrs: { release: 'r' } }, NOW)).toEqual({ problem: expect.stringContaining('more than 100') });
    expect(sessionAggregatesOf({ aggregates: [{ started: STARTED, crashed: 1.5 }], attrs: { release: 'r' } }, NOW)).toEqual({
      problem: 'crashed must be a non-negative integer',
    });
    expect(sessionsOfItem('sessions', Buffer.alloc(SESSION_ITEM_LIMITS.maxItemBytes + 1, 0x20), NOW)).toEqual({ problem: expect.stringContaining('over') });
  });

  it('names broken JSON and ignores other item types', () => {
    expect(sessionsOfItem('session', Buffer.from('{'), NOW)).toEqual({ problem: 'the session item is not valid JSON' });
    expect(sessionsOfItem('event', Buffer.from('{}'), NOW)).toBeUndefined();
  });

  it('answers any payload with sessions or a problem, never counting a session twice or less than nothing', () => {
    const field = fc.oneof(fc.jsonValue(), anyText, fc.integer(), fc.constantFrom(true, false, 'ok', 'crashed', 'abnormal', 'errored', 'exited', STARTED, SID));
    const payload = fc.oneof(
      fc.jsonValue(),
      fc.record(
        {
          sid: field,
          did: field,
          init: field,
          status: field,
          errors: field,
          started: field,
          attrs: fc.oneof(field, fc.record({ release: field, environment: field })),
        },
        { requiredKeys: [] },
      ),
      fc.record(
        {
          aggregates: fc.oneof(
            field,
            fc.array(fc.record({ started: field, did: field, exited: field, errored: field, abnormal: field, crashed: field }, { requiredKeys: [] }), {
              maxLength: 5,
            }),
          ),
          attrs: fc.oneof(field, fc.record({ release: field })),
        },
        { requiredKeys: [] },
      ),
    );
    fc.assert(
      fc.property(fc.constantFrom('session', 'sessions'), payload, (type, value) => {
        const result = sessionsOfItem(type, Buffer.from(JSON.stringify(value) ?? 'null'), NOW);
        expect(result).toBeDefined();
        if (result === undefined || 'problem' in result) return;
        for (const session of result) {
          expect(session.release.length).toBeGreaterThan(0);
          expect(session.errored).toBeGreaterThanOrEqual(session.crashed + session.abnormal > 0 ? 1 : 0);
          if (type === 'session') expect(session.total + session.errored).toBeLessThanOrEqual(2);
          for (const count of [session.total, session.errored, session.abnormal, session.crashed]) expect(Number.isSafeInteger(count) && count >= 0).toBe(true);
        }
      }),
    );
  });
});
