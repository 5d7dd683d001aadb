import { openTestDatabase, type TestDatabase } from '../../../../test/support/test-database';
import { IngestQueueRepository } from './ingest-queue.repository';
import { RateLimitsRepository } from './rate-limits.repository';

const NOW = new Date('2026-03-10T12:00:30.000Z');

describe('rate limits repository', () => {
  let db: TestDatabase;
  const repository = new RateLimitsRepository();
  let organizationId: string;
  let projectId: string;
  let keyId: string;

  beforeAll(async () => {
    db = await openTestDatabase();
    [{ id: organizationId }] = await db.database.query<{ id: string }>(
      `INSERT INTO identity.organizations (slug, name) VALUES ('acme', 'Acme') RETURNING id::text`,
    );
    [{ id: projectId }] = await db.database.query<{ id: string }>(
      `INSERT INTO projects.projects (organization_id, slug, name) VALUES ($1, 'web', 'Web') RETURNING id::text`,
      [organizationId],
    );
    [{ id: keyId }] = await db.database.query<{ id: string }>(
      `INSERT INTO projects.project_keys (project_id, label, public_key, secret_key) VALUES ($1, 'rate', $2, $3) RETURNING id::text`,
      [projectId, 'a'.repeat(32), 'b'.repeat(32)],
    );
  }, 60_000);

  afterAll(async () => {
    await db?.close();
  });

  it('counts concurrent envelopes against the key and organization windows in one statement each, none lost', async () => {
    const envelope = () =>
      repository.count(
        db.database,
        {
          key: { id: keyId, windowSeconds: 60, quantities: [{ category: 'error', quantity: 2 }] },
          organization: {
            id: organizationId,
            windowSeconds: 3600,
            quantities: [
              { category: 'session', quantity: 1 },
              { category: 'error', quantity: 2 },
            ],
          },
        },
        NOW,
      );
    const answers = await Promise.all(Array.from({ length: 25 }, envelope));
    const totals = (scope: string, category: string) => answers.map((counts) => counts.find((c) => c.scope === scope && c.category === category)?.count);
    // Each envelope sees its own total: every one from 2 to 50 once.
    expect(totals('key', 'error').sort((a, b) => Number(a) - Number(b))).toEqual(Array.from({ length: 25 }, (_, n) => 2 * (n + 1)));
    expect(Math.max(...(totals('organization', 'session') as number[]))).toBe(25);
    expect(answers[0].find((c) => c.scope === 'organization')?.windowEnds).toEqual(new Date('2026-03-10T13:00:00.000Z'));
    expect(answers[0].find((c) => c.scope === 'key')?.windowEnds).toEqual(new Date('2026-03-10T12:01:00.000Z'));
  });

  it("keeps one window per organization and category: each count drops the organization's ended ones", async () => {
    const later = new Date(NOW.getTime() + 2 * 3_600_000);
    const counts = await repository.count(
      db.database,
      { key: null, organization: { id: organizationId, windowSeconds: 3600, quantities: [{ category: 'check_in', quantity: 3 }] } },
      later,
    );
    expect(counts).toEqual([{ scope: 'organization', category: 'check_in', count: 3, windowEnds: new Date('2026-03-10T15:00:00.000Z') }]);
    const rows = await db.database.query<{ category: string; count: number }>(
      `SELECT category, count FROM ingest.organization_quota_windows WHERE organization_id = $1 ORDER BY category`,
      [organizationId],
    );
    expect(rows).toEqual([{ category: 'check_in', count: 3 }]);
    expect(await repository.count(db.database, { key: null, organization: null }, later)).toEqual([]);
  });

  it("counts the accepted errors of each organization's hour with the admission that queues them", async () => {
    const queue = new IngestQueueRepository(db.database);
    const event = (n: number) => ({
      projectId,
      projectSlug: 'web',
      organizationId,
      eventId: n.toString(16).padStart(32, '0'),
      category: 'error' as const,
      payload: '{}',
    });
    await Promise.all([
      queue.admit({ receivedAt: NOW, events: [event(1), event(2)], outcomes: [] }),
      queue.admit({ receivedAt: NOW, events: [event(3)], outcomes: [] }),
      queue.admit({ receivedAt: new Date(NOW.getTime() + 3_600_000), events: [event(4)], outcomes: [] }),
    ]);
    const rows = await db.database.query<{ hour: Date; count: string }>(
      `SELECT hour, count FROM ingest.organization_error_volume WHERE organization_id = $1 ORDER BY hour`,
      [organizationId],
    );
    expect(rows.map((row) => [row.hour.toISOString(), Number(row.count)])).toEqual([
      ['2026-03-10T12:00:00.000Z', 3],
      ['2026-03-10T13:00:00.000Z', 1],
    ]);
    await db.database.execute(`DELETE FROM ingest.ingest_queue; DELETE FROM ingest.organization_error_volume`);
  });

  it("changes an organization's own settings: what is given, null removing a quota", async () => {
    expect(await repository.organization(db.database, organizationId)).toMatchObject({ spikeProtection: true, quotas: {} });
    await repository.change(db.database, organizationId, { quotas: { error: 10, session: 5 } }, NOW);
    const changed = await repository.change(db.database, organizationId, { spikeProtection: false, quotas: { session: null } }, NOW);
    expect(changed).toMatchObject({ spikeProtection: false, quotas: { error: 10 } });
    expect(await repository.organization(db.database, organizationId)).toEqual(changed);
  });
});
