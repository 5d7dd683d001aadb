import { createDataSource, Database, runMigrations } from '@faultline/platform';
import type { DataSource } from 'typeorm';
import { MIGRATIONS } from '../migrations';
import { faultlineModule as ticketTracker } from '../modules/ticket-tracker/src';
import { createTestDatabaseUrl, dropTestDatabase } from './support/test-database';

/** The schemas the contexts own, and the objects (tables, views, sequences, functions) each holds. */
async function objectsBySchema(database: Database): Promise<Record<string, string[]>> {
  const rows = await database.query<{ schema: string; name: string }>(
    `SELECT n.nspname AS schema, c.relname || ':' || c.relkind::text AS name
     FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace
     WHERE c.relkind IN ('r', 'v', 'm', 'S', 'p') AND n.nspname NOT IN ('pg_catalog', 'information_schema', 'pg_toast')
       AND NOT (c.relkind = 'S' AND EXISTS (SELECT 1 FROM pg_depend d WHERE d.objid = c.oid AND d.deptype IN ('a', 'i')))
     UNION ALL
     SELECT n.nspname, p.proname || ':f' FROM pg_proc p JOIN pg_namespace n ON n.oid = p.pronamespace
     WHERE n.nspname NOT IN ('pg_catalog', 'information_schema')
     ORDER BY 1, 2`,
  );
  const result: Record<string, string[]> = {};
  for (const row of rows) (result[row.schema] ??= []).push(row.name);
  return result;
}

/** Each context owns a PostgreSQL schema; `public` keeps only the migrations table. */
describe('context schemas', () => {
  let url: string | undefined;
  let dataSource: DataSource;
  let database: Database;

  beforeAll(async () => {
    url = await createTestDatabaseUrl();
    dataSource = await createDataSource({ databaseUrl: url, migrations: [...MIGRATIONS, ...(ticketTracker.migrations ?? [])], poolSize: 2 });
    await dataSource.initialize();
    await runMigrations(dataSource);
    database = new Database(dataSource);
  }, 60_000);

  afterAll(async () => {
    if (dataSource?.isInitialized) await dataSource.destroy();
    await dropTestDatabase(url);
  });

  it('puts every table, view, sequence and function of a fresh database in its owner schema', async () => {
    const objects = await objectsBySchema(database);
    expect(objects.public).toEqual(['migrations:r']);
    expect(Object.keys(objects).sort()).toEqual(
      [
        'alerts',
        'event_store',
        'identity',
        'ingest',
        'integrations',
        'issues',
        'monitors',
        'notifications',
        'projects',
        'public',
        'releases',
        'ticket_tracker',
        'webhooks',
      ].sort(),
    );
    expect(objects.identity).toEqual(
      expect.arrayContaining(['users:r', 'organizations:r', 'organization_members:r', 'count_organization_members:f', 'member_directory:v']),
    );
    expect(objects.ingest).toEqual(expect.arrayContaining(['tag_values:r', 'event_users:r', 'project_stats:p', 'project_tag_values:v']));
    // SCIM keeps no tables of its own: the provider and its token are identity's.
    expect(objects.scim).toBeUndefined();
    expect(objects.identity).toEqual(expect.arrayContaining(['auth_providers:r', 'sso_assertions:r', 'sso_relay_states:r']));
    expect(objects.monitors).toEqual(expect.arrayContaining(['monitors:r', 'monitor_environments:r', 'check_ins:r', 'unpaired_check_ins:r']));
    expect(objects.alerts).toEqual(expect.arrayContaining(['metric_alert_trigger_ids:S']));
    expect(objects.event_store).toEqual(['event_checkpoints:r', 'events:r', 'events_reject_change:f', 'stream_events:v']);
    expect(objects.ticket_tracker).toEqual(['ticket_tracker_installation:r', 'ticket_tracker_tickets:r']);
  });

  it('leaves an unqualified table name unresolved, as the search path stays the default', async () => {
    await expect(database.query('SELECT 1 FROM users')).rejects.toThrow(/relation "users" does not exist/);
  });

  it("keeps the member triggers and the invites' id default working from their new schema", async () => {
    const [{ id: organizationId }] = await database.query<{ id: string }>(
      `INSERT INTO identity.organizations (slug, name) VALUES ('acme', 'Acme') RETURNING id`,
    );
    const [{ id: userId }] = await database.query<{ id: string }>(`INSERT INTO identity.users (email) VALUES ('ada@example.com') RETURNING id`);
    await database.execute(`INSERT INTO identity.organization_members (organization_id, user_id, role) VALUES ($1, $2, 'member')`, [organizationId, userId]);
    const [member] = await database.query<{ user_name: string }>(`SELECT user_name FROM identity.organization_members WHERE user_id = $1`, [userId]);
    const [count] = await database.query<{ members: string }>(`SELECT members FROM identity.scim_member_counts WHERE organization_id = $1`, [organizationId]);
    expect(member.user_name).toBe('ada@example.com');
    expect(Number(count.members)).toBe(1);
    const [invite] = await database.query<{ id: string }>(
      `INSERT INTO identity.organization_invites (organization_id, email, role, token, expires_at) VALUES ($1, 'grace@example.com', 'member', 't', now()) RETURNING id`,
      [organizationId],
    );
    expect(Number(invite.id)).toBeGreaterThan(0);
  });
});
