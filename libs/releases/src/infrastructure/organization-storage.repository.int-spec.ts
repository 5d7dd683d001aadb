import { openTestDatabase, type TestDatabase } from '../../../../test/support/test-database';
import { StorageQuotaExceeded } from '../contracts/organization-storage-quota';
import { OrganizationStorage } from './organization-storage.repository';
import { releasesConfig } from './releases-config';

const MIB = 1024 * 1024;

/** The budget holds when uploads of one organization charge it at the same moment, each in its own transaction. */
describe('OrganizationStorage', () => {
  let db: TestDatabase;
  const storage = new OrganizationStorage(releasesConfig({ ORGANIZATION_STORAGE_MAX_BYTES: String(MIB) }));
  const stored = async (organizationId: string) =>
    Number(
      (
        await db.database.query<{ bytes: string }>(`SELECT stored_bytes::text AS bytes FROM releases.organization_storage WHERE organization_id = $1`, [
          organizationId,
        ])
      )[0]?.bytes ?? 0,
    );

  beforeAll(async () => {
    db = await openTestDatabase();
  }, 60_000);

  afterAll(async () => {
    await db?.close();
  });

  it('lets exactly as many concurrent charges through as fit, and a refused one changes nothing', async () => {
    const outcomes = await Promise.allSettled(Array.from({ length: 10 }, () => db.database.transaction((tx) => storage.charge(tx, '7', 200 * 1024))));
    expect(outcomes.filter((outcome) => outcome.status === 'fulfilled')).toHaveLength(5);
    for (const outcome of outcomes) if (outcome.status === 'rejected') expect(outcome.reason).toBeInstanceOf(StorageQuotaExceeded);
    expect(await stored('7')).toBe(1000 * 1024);
    // Outside a transaction too, a refused charge leaves the total as it was.
    await expect(storage.charge(db.database, '7', 100 * 1024)).rejects.toBeInstanceOf(StorageQuotaExceeded);
    expect(await stored('7')).toBe(1000 * 1024);
    await storage.free(db.database, '7', 300 * 1024);
    await storage.charge(db.database, '7', 100 * 1024);
    expect(await stored('7')).toBe(800 * 1024);
    // Another organization has a budget of its own; a first charge past it stores no row.
    await expect(storage.charge(db.database, '8', MIB + 1)).rejects.toBeInstanceOf(StorageQuotaExceeded);
    expect(await stored('8')).toBe(0);
  });
});
