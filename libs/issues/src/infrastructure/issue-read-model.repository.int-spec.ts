import { FixedClock } from '@faultline/kernel';
import { storeEvent } from '../../../../test/support/stored-events';
import { openTestDatabase, type TestDatabase } from '../../../../test/support/test-database';
import { IssueReadModel, type IssueRow } from './issue-read-model.repository';

const at = (day: number, hour: number) => new Date(Date.UTC(2026, 2, 10 + day, hour));

/**
 * An issue's latest, oldest, previous and next events on a real database, whichever days their
 * rows were received on: sparse, late and dropped by retention.
 */
describe('IssueReadModel: edge events and neighbours', () => {
  let db: TestDatabase;
  let readModel: IssueReadModel;
  let issue: IssueRow;
  // In the order they occurred; `stale` arrived 28 days after it occurred, `late` four days after `d` occurred.
  const events = {
    a: { occurred: at(0, 10), received: at(0, 10) },
    stale: { occurred: at(3, 10), received: at(31, 10) },
    b: { occurred: at(5, 12), received: at(5, 12) },
    c: { occurred: at(6, 8), received: at(6, 8) },
    late: { occurred: at(7, 20), received: at(12, 9) },
    d: { occurred: at(8, 9), received: at(8, 9) },
  };

  /** Each event's id: one hex digit, 32 times. */
  const digits: Record<string, string> = { a: 'a', b: 'b', c: 'c', d: 'd', stale: 'e', late: 'f' };
  const idOf = (name: string) => digits[name].repeat(32);
  const nameOf = (id: string | null | undefined) => (id ? Object.keys(digits).find((name) => digits[name] === id[0]) : id);
  const neighbours = async (name: string) => {
    const event = await readModel.event({ issueId: issue.id }, idOf(name));
    const { previous, next } = await readModel.neighbours(event!);
    return { previous: nameOf(previous), next: nameOf(next) };
  };
  const edge = async (which: 'latest' | 'oldest') => nameOf((await readModel.edgeEvent(issue, which))?.event_id);

  beforeAll(async () => {
    db = await openTestDatabase();
    readModel = new IssueReadModel(db.database, new FixedClock(at(32, 0)));
    const [org] = await db.database.query<{ id: string }>(`INSERT INTO identity.organizations (slug, name) VALUES ('acme', 'Acme') RETURNING id::text`);
    const [project] = await db.database.query<{ id: string }>(
      `INSERT INTO projects.projects (organization_id, slug, name) VALUES ($1, 'web', 'Web') RETURNING id::text`,
      [org.id],
    );
    const [{ id }] = await db.database.query<{ id: string }>(
      `INSERT INTO issues.issues (project_id, fingerprint_hash, short_id, title, level, platform, first_seen, last_seen, times_seen)
       VALUES ($1, 'f', 'WEB-1', 't', 'error', 'node', $2, $3, 5) RETURNING id::text`,
      [project.id, events.a.occurred, events.d.occurred],
    );
    for (const [name, { occurred, received }] of Object.entries(events)) {
      await storeEvent(db.database, { projectId: project.id, issueId: id, eventId: idOf(name), occurredAt: occurred, receivedAt: received });
    }
    issue = (await readModel.find(org.id, id))!;
  }, 60_000);

  afterAll(async () => {
    await db?.close();
  });

  it('walks the events in the order they occurred, across gaps of days and events that arrived days late', async () => {
    expect(await edge('latest')).toBe('d');
    expect(await edge('oldest')).toBe('a');
    expect(await neighbours('a')).toEqual({ previous: null, next: 'stale' });
    expect(await neighbours('stale')).toEqual({ previous: 'a', next: 'b' });
    // Two days before, and received weeks after: past the day first looked at.
    expect(await neighbours('b')).toEqual({ previous: 'stale', next: 'c' });
    expect(await neighbours('c')).toEqual({ previous: 'b', next: 'late' });
    // Received after `d`, occurred before it.
    expect(await neighbours('late')).toEqual({ previous: 'c', next: 'd' });
    expect(await neighbours('d')).toEqual({ previous: 'late', next: null });
  });

  it('answers the oldest event kept once retention has dropped the first, even one that arrived weeks after it occurred', async () => {
    await db.database.execute(`DELETE FROM issues.error_events WHERE event_id = $1`, [idOf('a')]);
    expect(await edge('oldest')).toBe('stale');
    expect(await neighbours('stale')).toEqual({ previous: null, next: 'b' });
  });
});
