import { openTestDatabase, type TestDatabase } from '../../../../test/support/test-database';
import { parseOutcomesQuery, type OutcomesQueryParams } from '../domain';
import { OutcomeStatsRepository } from './outcome-stats.repository';
import { type OutcomeCount, RollupsRepository } from './rollups.repository';

const AT = new Date('2026-03-10T12:15:00.000Z');
const NOW = Date.UTC(2026, 2, 10, 13, 30) / 1000;

describe('outcome rollup', () => {
  let db: TestDatabase;
  const rollups = new RollupsRepository();
  const reader = new OutcomeStatsRepository();
  let organizationId: string;
  let otherOrganizationId: string;
  let web: string;
  let api: string;
  let other: string;

  beforeAll(async () => {
    db = await openTestDatabase();
    const organizations = await db.database.query<{ id: string }>(
      `INSERT INTO identity.organizations (slug, name) VALUES ('acme', 'Acme'), ('other', 'Other') RETURNING id::text`,
    );
    [organizationId, otherOrganizationId] = organizations.map((row) => row.id);
    [{ id: web }, { id: api }, { id: other }] = await db.database.query<{ id: string }>(
      `INSERT INTO projects.projects (organization_id, slug, name) VALUES ($1, 'web', 'Web'), ($1, 'api', 'Api'), ($2, 'web', 'Web') RETURNING id::text`,
      [organizationId, otherOrganizationId],
    );
  }, 60_000);

  afterAll(async () => {
    await db?.close();
  });

  const count = (projectId: string, overrides: Partial<OutcomeCount> = {}): OutcomeCount => ({
    organizationId: projectId === other ? otherOrganizationId : organizationId,
    projectId,
    at: AT,
    outcome: 'accepted',
    category: 'error',
    reason: null,
    quantity: 1,
    timesSeen: 1,
    ...overrides,
  });
  const query = (overrides: Partial<OutcomesQueryParams>) =>
    parseOutcomesQuery(
      { field: ['sum(quantity)', 'sum(times_seen)'], groupBy: [], category: [], outcome: [], reason: [], project: [], statsPeriod: '1d', ...overrides },
      NOW,
    );

  it('adds outcomes from concurrent batches by incrementing their rows, and counts error events in the legacy stats', async () => {
    const batch = (n: number): OutcomeCount[] => [
      count(web),
      count(api, { outcome: 'filtered', reason: 'localhost' }),
      count(web, { outcome: 'client_discard', reason: 'queue_overflow', category: 'span', quantity: 10 + n }),
      count(web, { outcome: 'filtered', reason: 'unsupported_item', category: 'attachment', quantity: 300 }),
      count(other),
    ];
    // Both orders at once: the sorted upsert makes them wait for each other, never deadlock.
    await Promise.all(
      Array.from({ length: 6 }, (_, n) => db.database.transaction((tx) => rollups.addOutcomes(tx, n % 2 ? batch(n) : [...batch(n)].reverse()))),
    );
    const rows = await db.database.query<{ resolution: string; category: string; outcome: string; reason: string; quantity: string; times_seen: string }>(
      `SELECT resolution, category, outcome, reason, quantity::text, times_seen::text FROM ingest.outcome_stats
       WHERE organization_id = $1 AND project_id = $2 ORDER BY resolution, category, outcome`,
      [organizationId, web],
    );
    expect(rows.filter((row) => row.resolution === '1h')).toEqual([
      { resolution: '1h', category: 'attachment', outcome: 'filtered', reason: 'unsupported_item', quantity: '1800', times_seen: '6' },
      { resolution: '1h', category: 'error', outcome: 'accepted', reason: '', quantity: '6', times_seen: '6' },
      { resolution: '1h', category: 'span', outcome: 'client_discard', reason: 'queue_overflow', quantity: String(6 * 10 + 15), times_seen: '6' },
    ]);
    expect(rows.filter((row) => row.resolution === '1d')).toHaveLength(3);
    const stats = await db.database.query<{ project_id: string; stat: string; count: string }>(
      `SELECT project_id::text, stat, count::text FROM ingest.project_stats WHERE resolution = '1h' AND project_id IN ($1, $2) ORDER BY project_id, stat`,
      [web, api],
    );
    expect(stats.map((row) => [row.project_id === web ? 'web' : 'api', row.stat, row.count])).toEqual(
      expect.arrayContaining([
        ['web', 'generated', '6'],
        ['web', 'received', '6'],
        ['api', 'blacklisted', '6'],
        ['api', 'received', '6'],
      ]),
    );
    expect(stats).toHaveLength(4);
  });

  it('reads sums per interval and grouping, of the given projects of the organization only', async () => {
    const byCategory = query({ groupBy: ['category', 'outcome'] });
    const rows = await reader.totals(db.database, organizationId, [web, api], byCategory);
    // AT's hour, counted from the range's first interval.
    const interval = (Date.UTC(2026, 2, 10, 12) / 1000 - byCategory.start) / 3600;
    expect(rows.map(({ category, outcome, quantity, timesSeen, interval: at }) => ({ category, outcome, quantity, timesSeen, at }))).toEqual(
      expect.arrayContaining([
        { category: 'error', outcome: 'accepted', quantity: 6, timesSeen: 6, at: interval },
        { category: 'error', outcome: 'filtered', quantity: 6, timesSeen: 6, at: interval },
        { category: 'span', outcome: 'client_discard', quantity: 75, timesSeen: 6, at: interval },
      ]),
    );
    expect(rows).toHaveLength(4);

    const apiOnly = await reader.totals(db.database, organizationId, [api], query({ groupBy: ['project', 'reason'], category: ['error'] }));
    expect(apiOnly).toEqual([expect.objectContaining({ projectId: api, reason: 'localhost', quantity: 6 })]);

    const filteredOnly = await reader.totals(
      db.database,
      organizationId,
      [web, api],
      query({ groupBy: ['category'], outcome: ['filtered'], reason: ['unsupported_item'] }),
    );
    expect(filteredOnly).toEqual([expect.objectContaining({ category: 'attachment', quantity: 1800, timesSeen: 6 })]);

    // Another organization's rows are never read, even given its project.
    expect(await reader.totals(db.database, organizationId, [other], query({ groupBy: ['category'] }))).toEqual([]);
    // Outside the range: nothing.
    expect(
      await reader.totals(
        db.database,
        organizationId,
        [web, api],
        query({ groupBy: ['category'], start: '2026-03-01T00:00:00Z', end: '2026-03-02T00:00:00Z' }),
      ),
    ).toEqual([]);
  });
});
