import type { Transaction } from '@faultline/platform';
import { openTestDatabase, type TestDatabase } from '../../../../test/support/test-database';
import { type ReleaseSighting, ReleasesRepository } from './releases.repository';

/** Releases seen by concurrent ingest batches: only a PostgreSQL server runs transactions side by side. */
describe('ReleasesRepository on a PostgreSQL server', () => {
  let db: TestDatabase;
  const releases = new ReleasesRepository();

  beforeAll(async () => {
    db = await openTestDatabase();
  }, 60_000);

  afterAll(async () => {
    await db?.close();
  });

  it('creates each release once and counts every event when eight batches see the same new releases at once, in any order', async () => {
    const seen = (version: string, projectId: string): ReleaseSighting => ({
      organizationId: '1',
      projectId,
      version,
      events: 2,
      newGroups: 1,
      firstEvent: '2026-11-20T10:00:00.000Z',
      lastEvent: '2026-11-20T11:00:00.000Z',
    });
    const sightings = ['web@1', 'web@2', 'web@3'].flatMap((version) => [seen(version, '10'), seen(version, '11')]);
    let arrived = 0;
    let go!: () => void;
    const together = new Promise<void>((resolve) => (go = resolve));
    await Promise.all(
      Array.from({ length: 8 }, (_, n) =>
        db.database.transaction(async (tx: Transaction) => {
          await tx.query('SELECT 1');
          if (++arrived === 8) go();
          await together;
          await releases.recordSightings(tx, n % 2 === 0 ? sightings : [...sightings].reverse(), new Date('2026-11-20T12:00:00.000Z'));
        }),
      ),
    );
    const rows = await db.database.query<{ version: string; project_id: string; events: string; new_groups: number }>(
      `SELECT r.version, p.project_id::text, p.events::text, p.new_groups FROM releases.releases r JOIN releases.release_projects p ON p.release_id = r.id ORDER BY 1, 2`,
    );
    expect(rows).toEqual(
      ['web@1', 'web@2', 'web@3'].flatMap((version) => ['10', '11'].map((project_id) => ({ version, project_id, events: '16', new_groups: 8 }))),
    );
  });
});
