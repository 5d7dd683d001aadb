import fc from 'fast-check';
import { newHexId } from '@faultline/kernel';
import { anyText } from '../../../../../test/support/arbitrary-text';
import { openTestDatabase, type TestDatabase } from '../../../../../test/support/test-database';
import { groupingHash } from '../grouping';
import { normalizeEvent } from '.';
import { parseStorableJson } from '../storable-text';

/** The normaliser's output as the event processor stores it: jsonb (event store), json and text columns. */
describe('normalised events are storable in PostgreSQL', () => {
  let db: TestDatabase;

  beforeAll(async () => {
    db = await openTestDatabase();
    await db.database.execute(`CREATE TABLE storable_events (data jsonb NOT NULL, raw json NOT NULL, texts text[] NOT NULL)`);
  }, 60_000);

  afterAll(async () => {
    await db?.close();
  });

  /** An SDK event with the text in every place the normaliser keeps strings or keys. */
  const sdkEvent = fc
    .record({ a: anyText, b: anyText, c: anyText, query: fc.array(fc.constantFrom('%00', '%ED%A0%80', '%F0%9F%98%80', '=', '&', 'q')) })
    .map(({ a, b, c, query }) => ({
      message: { message: `${a} %s`, params: [b] },
      logger: a,
      tags: { [a]: b, plain: c },
      extra: { [a]: { [b]: [c, { [c]: a }] } },
      contexts: { [b]: { name: c } },
      breadcrumbs: [{ message: a, data: { [b]: c } }],
      user: { id: a, email: b, username: c, name: a },
      request: { url: a, headers: { [b]: c }, query_string: query.join(''), data: { [a]: b } },
      exception: {
        values: [
          {
            type: a,
            value: b,
            module: c,
            stacktrace: { frames: [{ filename: a, function: b, module: c, context_line: a, pre_context: [b], post_context: [c] }] },
          },
        ],
      },
      fingerprint: [a, '{{ default }}', b],
      release: a,
      environment: b,
      server_name: c,
      transaction: a,
      culprit: b,
      sdk: { name: c, version: a },
    }));

  it('accepts every string and key of the normalised event, whatever unicode the SDK sent', async () => {
    await fc.assert(
      fc.asyncProperty(sdkEvent, async (raw) => {
        const event = normalizeEvent(parseStorableJson(JSON.stringify(raw)), { receivedAt: new Date('2024-05-01T12:00:00Z'), newEventId: newHexId() });
        const texts = [event.title, event.culprit, event.message ?? '', groupingHash(event).hash, ...event.tags.flat(), ...(event.request?.query ?? []).flat()];
        await db.database.execute(`INSERT INTO storable_events (data, raw, texts) VALUES ($1::jsonb, $1::json, $2::text[])`, [JSON.stringify(event), texts]);
      }),
      { numRuns: 200 },
    );
  });
});
