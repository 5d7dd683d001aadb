import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { domainEvent } from '@faultline/kernel';
import { EventStore, renumberRestoredTransactionIds } from '@faultline/event-store';
import { createDataSource, Database, runMigrations } from '@faultline/platform';
import { MIGRATIONS } from '../../../migrations';
import { createTestDatabaseUrl, dropTestDatabase, openTestDatabase, type TestDatabase } from '../../../test/support/test-database';
import { checkRestorable, restoreBackup, RestoreRefusedError, takeBackup, verifyBackup } from '.';

/** Applies the named migrations of this code base to the database at `url`. */
const migrator = (url: string) => async (names: readonly string[]) => {
  const dataSource = await createDataSource({ databaseUrl: url, migrations: MIGRATIONS.filter((migration) => names.includes(migration.name)) });
  await dataSource.initialize();
  try {
    await runMigrations(dataSource);
  } finally {
    await dataSource.destroy();
  }
};

/** PostgreSQL mode: a backup through the server, restored into another, empty database. */
describe('backup and restore of a database', () => {
  let source: TestDatabase;
  let targetUrl: string;
  let target: Database | undefined;
  let closeTarget: () => Promise<void> = async () => undefined;
  let dir: string;
  let file: string;

  beforeAll(async () => {
    source = await openTestDatabase();
    targetUrl = await createTestDatabaseUrl();
    dir = mkdtempSync(join(tmpdir(), 'faultline-backup-'));
    file = join(dir, 'faultline.backup');
  }, 60_000);

  afterAll(async () => {
    await closeTarget();
    await source?.close();
    await dropTestDatabase(targetUrl);
    rmSync(dir, { recursive: true, force: true });
  });

  const events = (database: Database) =>
    database.query<Record<string, unknown>>(
      `SELECT global_position, stream_id, version, event_id, event_type, data, metadata, recorded_at FROM event_store.events ORDER BY global_position`,
    );

  it('restores every row, keeps the event readers order and checkpoints, and sequences go on past the backup', async () => {
    // Events as another cluster wrote them: transaction ids far past this server's, and two
    // transactions whose writes interleaved (the older holds the higher position).
    const insert = (stream: string, version: number, transactionId: string) =>
      source.database.query<{ global_position: string }>(
        `INSERT INTO event_store.events (stream_id, stream_type, version, event_id, event_type, data, transaction_id)
         VALUES ($1, 'test.Order', $2, gen_random_uuid(), 'test.Happened', $3, $4::xid8) RETURNING global_position`,
        [stream, version, JSON.stringify({ stream, version, text: 'ünïcode \\ "quoted"' }), transactionId],
      );
    await insert('order-a', 1, '90000000010');
    const [{ global_position: handled }] = await insert('order-b', 1, '90000000005');
    await insert('order-a', 2, '90000000020');
    await source.database.execute(`INSERT INTO event_store.event_checkpoints (subscriber, position) VALUES ('test.reader', $1)`, [handled]);
    const [{ last }] = await source.database.query<{ last: string }>(`SELECT nextval('alerts.metric_alert_trigger_ids')::text AS last`);
    // Rows of days before the target's first partitions: the restore gives them their days.
    const [{ id: projectId }] = await source.database.query<{ id: string }>(
      `WITH org AS (INSERT INTO identity.organizations (slug, name) VALUES ('acme', 'Acme') RETURNING id)
       INSERT INTO projects.projects (organization_id, slug, name) SELECT id, 'web', 'Web' FROM org RETURNING id`,
    );
    await source.database.execute(
      `INSERT INTO ingest.project_stats (project_id, stat, resolution, bucket, count) VALUES ($1, 'received', '1d', '2020-01-05', 7)`,
      [projectId],
    );
    await source.database.execute(
      `WITH issue AS (
         INSERT INTO issues.issues (project_id, fingerprint_hash, short_id, title, level, platform, first_seen, last_seen)
         VALUES ($1, 'f', 'WEB-1', 't', 'error', 'node', '2020-01-06T23:59:59Z', '2020-01-06T23:59:59Z') RETURNING id
       ), stored AS (
         INSERT INTO issues.error_events (project_id, issue_id, event_id, occurred_at, received_at, data)
         SELECT $1, id, 'e1', '2020-01-06T23:59:59Z', '2020-01-06T23:59:59Z', '{}' FROM issue RETURNING id
       )
       INSERT INTO issues.event_ids (project_id, event_id, claimed_on, received_at, id) SELECT $1, 'e1', '2020-01-06', '2020-01-06T23:59:59Z', id FROM stored`,
      [projectId],
    );
    const store = new EventStore(source.database);
    const order = async (database: Database) => (await new EventStore(database).readAll(database, '0', 100)).map((event) => event.eventId);
    // The readers' order (their visibility guard hides these ids from readers on this server).
    const sourceOrder = (
      await source.database.query<{ event_id: string }>(`SELECT event_id FROM event_store.events ORDER BY transaction_id, global_position`)
    ).map((row) => row.event_id);

    const summary = await takeBackup({ databaseUrl: source.url, file, faultlineVersion: '0.1.0', now: new Date('2026-01-02T03:04:05Z') });
    let rows = 0;
    for (const { schema, name } of (await verifyBackup(file)).header.tables) {
      rows += Number((await source.database.query<{ count: string }>(`SELECT count(*) AS count FROM "${schema}"."${name}"`))[0].count);
    }
    expect(summary).toMatchObject({ rows, migrations: MIGRATIONS.length });
    // Written after the backup began: not in it.
    await store.append(source.database, 'order-c', 'test.Order', 'no_stream', [domainEvent('test.Happened', { late: true })]);

    const manifest = await verifyBackup(file);
    // A partitioned table is copied through its root alone, a partition that is itself partitioned too.
    const tables = manifest.header.tables.map(({ schema, name }) => `${schema}.${name}`);
    expect(tables).toEqual(expect.arrayContaining(['ingest.project_stats', 'issues.error_events']));
    expect(tables.filter((table) => table.startsWith('ingest.project_stats_') || table.startsWith('issues.error_events_'))).toEqual([]);
    expect(manifest.header).toMatchObject({ faultlineVersion: '0.1.0', createdAt: '2026-01-02T03:04:05.000Z', migrations: MIGRATIONS.map((m) => m.name) });
    expect(
      checkRestorable(
        manifest,
        MIGRATIONS.map((m) => m.name),
      ),
    ).toBe(0);
    await restoreBackup(manifest, { databaseUrl: targetUrl, file, migrate: migrator(targetUrl), afterLoad: [renumberRestoredTransactionIds] });

    const dataSource = await createDataSource({ databaseUrl: targetUrl, migrations: MIGRATIONS });
    await dataSource.initialize();
    closeTarget = () => dataSource.destroy();
    target = new Database(dataSource);
    const sourceEvents = (await events(source.database)).slice(0, 3);
    expect(await events(target)).toEqual(sourceEvents);
    expect(await order(target)).toEqual(sourceOrder);
    expect(await target.query(`SELECT subscriber, position FROM event_store.event_checkpoints`)).toEqual([{ subscriber: 'test.reader', position: handled }]);
    expect(await target.query(`SELECT name FROM public.migrations ORDER BY id`)).toEqual(MIGRATIONS.map((m) => ({ name: m.name })));
    expect(
      await target.query(
        `SELECT tableoid::regclass::text AS partition, count::text AS value FROM ingest.project_stats
         UNION ALL SELECT tableoid::regclass::text, event_id FROM issues.error_events
         UNION ALL SELECT tableoid::regclass::text, event_id FROM issues.event_ids ORDER BY 1`,
      ),
    ).toEqual([
      { partition: 'ingest.project_stats_1d_p20200105', value: '7' },
      { partition: 'issues.error_events_p20200106', value: 'e1' },
      { partition: 'issues.event_ids_p20200106', value: 'e1' },
    ]);
    const [{ defaults }] = await target.query<{ defaults: number }>(
      `SELECT count(*)::int AS defaults FROM pg_catalog.pg_inherits WHERE inhrelid IN ('issues.event_ids_default'::regclass, 'ingest.project_stats_1d_default'::regclass)`,
    );
    expect(defaults).toBe(2);

    // The restored stream takes appends, and the reader past its checkpoint sees the rest in order, then the new event.
    const restoredStore = new EventStore(target);
    const [appended] = await restoredStore.append(target, 'order-a', 'test.Order', 2, [domainEvent('test.Happened', { after: 'restore' })]);
    expect(BigInt(appended.globalPosition)).toBeGreaterThan(BigInt(sourceEvents[2].global_position as string));
    const expected = [...sourceOrder.slice(1), appended.eventId];
    let read: string[] = [];
    // Readers see a transaction once every older one on the server has ended (other tests' included).
    while (read.length < expected.length) {
      read = (await restoredStore.readAll(target, handled, 100)).map((event) => event.eventId);
      if (read.length < expected.length) await new Promise((resolve) => setTimeout(resolve, 50));
    }
    expect(read).toEqual(expected);
    const [{ next }] = await target.query<{ next: string }>(`SELECT nextval('alerts.metric_alert_trigger_ids')::text AS next`);
    expect(BigInt(next)).toBeGreaterThan(BigInt(last));
  });

  it('refuses a database that is not empty, and a backup whose migrations this code does not have', async () => {
    const manifest = await verifyBackup(file);
    await expect(restoreBackup(manifest, { databaseUrl: targetUrl, file, migrate: migrator(targetUrl) })).rejects.toThrow(
      new RestoreRefusedError('The database to restore into is not empty: restore into a new, empty database.'),
    );
    expect(() =>
      checkRestorable(
        manifest,
        MIGRATIONS.slice(0, -1).map((m) => m.name),
      ),
    ).toThrow(`whose database had run migrations this Faultline does not have (${MIGRATIONS[MIGRATIONS.length - 1].name})`);
  });
});
