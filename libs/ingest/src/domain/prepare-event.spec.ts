import { newHexId, PROJECT_DATA_PRIVACY_DEFAULTS } from '@faultline/kernel';
import { groupingHash } from './grouping';
import { normalizeEvent, type NormalizedEvent } from './normalize-event';
import { prepareEvent as prepareWith } from './prepare-event';
import { dataScrubber } from './scrub-event';

/** As a new project's events are prepared: scrubbed with the default rules. */
const prepareEvent = (event: NormalizedEvent) => prepareWith(event, dataScrubber(PROJECT_DATA_PRIVACY_DEFAULTS));

const normalize = (raw: Record<string, unknown>) => normalizeEvent(raw, { receivedAt: new Date('2024-05-01T12:00:00.000Z'), newEventId: newHexId() });

/** As the processor's symbolication leaves an exception whose frames were mapped. */
function mapped(event: NormalizedEvent, frames: Array<{ filename: string; function: string; inApp?: boolean }>): NormalizedEvent {
  const exception = event.exceptions[0];
  return { ...event, exceptions: [{ ...exception, rawStacktrace: exception.stacktrace, stacktrace: { frames } }] };
}

const thrown = {
  exception: { values: [{ type: 'TypeError', value: 'x', stacktrace: { frames: [{ filename: 'app.min.js', function: 'a', in_app: true }] } }] },
};

describe('prepareEvent', () => {
  it('counts the SDK tags, then level, environment, release and user, under the issue; and user.email under the project too', () => {
    const prepared = prepareEvent(
      normalize({ tags: { level: 'custom', route: '/a' }, level: 'warning', release: 'r1', user: { id: '7', email: 'ada@example.com' } }),
    );
    expect(prepared.issueTags).toEqual([
      ['level', 'custom'],
      ['route', '/a'],
      ['level', 'warning'],
      ['environment', 'production'],
      ['release', 'r1'],
      ['user', 'id:7'],
    ]);
    expect(prepared.projectTags).toEqual([...prepared.issueTags, ['user.email', 'ada@example.com']]);
    expect(prepared.user).toEqual({ tagValue: 'id:7', hash: '8f14e45fceea167a5a36dedd4bea2543' });
  });

  it('shows the SDK tags and those Sentry derives from the event where the SDK set none, by key', () => {
    const prepared = prepareEvent(
      normalize({
        ...thrown,
        tags: { route: '/a' },
        dist: 'd1',
        server_name: 'web-1',
        transaction: 'GET /a',
        request: { url: 'https://x.example/a?q=1' },
        user: { username: 'ada' },
      }),
    );
    expect(prepared.shownTags).toEqual([
      ['dist', 'd1'],
      ['environment', 'production'],
      ['level', 'error'],
      ['route', '/a'],
      ['server_name', 'web-1'],
      ['transaction', 'GET /a'],
      ['url', 'https://x.example/a'],
      ['user', 'username:ada'],
    ]);
  });

  it('has no user identity for an event without a user id, name, e-mail or address', () => {
    expect(prepareEvent(normalize({ user: { name: 'Ada' } })).user).toBeUndefined();
    expect(prepareEvent(normalize({})).issueTags).toEqual([
      ['level', 'error'],
      ['environment', 'production'],
    ]);
  });

  it('groups the event as it is after mapping', () => {
    const event = mapped(normalize(thrown), [{ filename: 'src/app.ts', function: 'handle', inApp: true }]);
    expect(prepareEvent(event).fingerprintHash).toBe(groupingHash(event).hash);
  });

  it('moves a culprit the frames gave to the mapped frames, and keeps one the SDK set', () => {
    const derived = normalize(thrown);
    expect(derived.culprit).toBe('app.min.js in a');
    const prepared = prepareEvent(mapped(derived, [{ filename: 'src/app.ts', function: 'handle', inApp: true }]));
    expect(prepared.event.culprit).toBe('src/app.ts in handle');
    expect(prepared.event.exceptions[0].rawStacktrace?.frames[0].filename).toBe('app.min.js');

    const sent = normalize({ ...thrown, culprit: 'checkout' });
    expect(prepareEvent(mapped(sent, [{ filename: 'src/app.ts', function: 'handle', inApp: true }])).event.culprit).toBe('checkout');
    expect(prepareEvent(derived).event).toBe(derived);
  });
});
