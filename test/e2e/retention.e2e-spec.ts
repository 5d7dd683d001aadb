import { FixedClock } from '@faultline/kernel';
import { Database, RetentionSchedule } from '@faultline/platform';
import { startTestApp, type TestApp } from '../support/test-app';

const DAY = 86_400_000;
const NOW = new Date('2026-06-15T12:00:00Z');
const ago = (ms: number) => new Date(NOW.getTime() - ms).toISOString();

/**
 * Every table that grows with events is pruned past EVENT_RETENTION_DAYS by the one retention
 * schedule (10-second stats buckets after a day); what is younger stays, and so do the monitors.
 */
describe('retention of what grows with events', () => {
  let api: TestApp;
  let database: Database;
  let projectId: string;
  let organizationId: string;

  beforeAll(async () => {
    api = await startTestApp({ EVENT_RETENTION_DAYS: '30' }, { clock: new FixedClock(NOW) });
    database = api.app.get(Database);
    const project = await api.request('GET', '/api/0/projects/acme/web/');
    projectId = project.body.id;
    organizationId = project.body.organization.id;
  });

  afterAll(async () => {
    await api?.close();
  });

  it('prunes stats, outcomes, sessions and check-ins past retention and keeps the rest', async () => {
    const buckets: Array<[string, string]> = [
      ['10s', ago(2 * DAY)],
      ['10s', ago(3_600_000)],
      ['1h', ago(31 * DAY)],
      ['1h', ago(10 * DAY)],
      ['1d', ago(31 * DAY)],
      ['1d', ago(29 * DAY)],
    ];
    for (const [resolution, bucket] of buckets) {
      await database.execute(`INSERT INTO ingest.project_stats (project_id, stat, resolution, bucket, count) VALUES ($1, 'received', $2, $3, 1)`, [
        projectId,
        resolution,
        bucket,
      ]);
    }
    for (const bucket of [ago(31 * DAY), ago(DAY)]) {
      await database.execute(
        `INSERT INTO ingest.outcome_stats (organization_id, resolution, bucket, project_id, category, outcome, reason, quantity, times_seen)
         VALUES ($1, '1d', $2, $3, 'error', 'accepted', '', 1, 1)`,
        [organizationId, bucket, projectId],
      );
      await database.execute(
        `INSERT INTO releases.session_counts (project_id, bucket, release, environment, organization_id, started, errored, abnormal, crashed)
         VALUES ($1, $2, 'shop@1.0', 'production', $3, 1, 0, 0, 0)`,
        [projectId, bucket, organizationId],
      );
      await database.execute(
        `INSERT INTO releases.session_members (project_id, bucket, kind, release, environment, member) VALUES ($1, $2, 0, 'shop@1.0', 'production', 42)`,
        [projectId, bucket],
      );
    }
    const monitor = await api.request('POST', '/api/0/organizations/acme/monitors/', {
      body: { name: 'Nightly', project: 'web', config: { schedule_type: 'crontab', schedule: '0 3 * * *' } },
    });
    expect(monitor.status).toBe(201);
    for (const created of [ago(31 * DAY), ago(DAY)]) {
      await database.execute(
        `WITH environment AS (
           INSERT INTO monitors.monitor_environments (monitor_id, environment, date_created)
           SELECT id, 'production', $2 FROM monitors.monitors WHERE slug = $1
           ON CONFLICT (monitor_id, environment) DO UPDATE SET status = monitor_environments.status RETURNING id, monitor_id)
         INSERT INTO monitors.check_ins (guid, monitor_id, monitor_environment_id, status, date_created, date_updated, monitor_config)
         SELECT gen_random_uuid(), monitor_id, id, 'ok', $2, $2, '{}' FROM environment`,
        [monitor.body.slug, created],
      );
    }

    const deleted = await api.app.get(RetentionSchedule).pruneAll();
    expect(deleted).toMatchObject({ 'ingest.stats': 4, 'releases.sessions': 2, 'monitors.check-ins': 1, 'issues.events': 0 });

    const left = await database.query<{ resolution: string; bucket: Date }>(
      `SELECT resolution, bucket FROM ingest.project_stats WHERE project_id = $1 ORDER BY resolution, bucket`,
      [projectId],
    );
    expect(left.map(({ resolution, bucket }) => [resolution, bucket.toISOString()])).toEqual([
      ['10s', ago(3_600_000)],
      ['1d', ago(29 * DAY)],
      ['1h', ago(10 * DAY)],
    ]);
    for (const table of ['ingest.outcome_stats', 'releases.session_counts', 'releases.session_members']) {
      const rows = await database.query<{ bucket: Date }>(`SELECT bucket FROM ${table} WHERE project_id = $1`, [projectId]);
      expect(rows.map(({ bucket }) => bucket.toISOString())).toEqual([ago(DAY)]);
    }
    const checkIns = await api.request('GET', `/api/0/organizations/acme/monitors/${monitor.body.slug}/checkins/`);
    expect(checkIns.body).toHaveLength(1);
    expect((await api.request('GET', `/api/0/organizations/acme/monitors/${monitor.body.slug}/`)).status).toBe(200);

    expect(Object.values(await api.app.get(RetentionSchedule).pruneAll()).every((rows) => rows === 0)).toBe(true);
  });
});
