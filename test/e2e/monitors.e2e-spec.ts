import { execFile } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { FixedClock } from '@faultline/kernel';
import { Database } from '@faultline/platform';
import { MonitorSweep } from '@faultline/monitors';
import { BOOTSTRAP, startTestApp, type TestApp } from '../support/test-app';

const run = promisify(execFile);
const SENTRY_CLI = join(__dirname, '..', '..', 'node_modules', '.bin', 'sentry-cli');

interface MonitorJson {
  slug: string;
  status: string;
  config: Record<string, unknown>;
  environments: Array<{ name: string; status: string; nextCheckIn: string | null; nextCheckInLatest: string | null }>;
}

/** Cron monitors end to end: the real @sentry/node SDK and sentry-cli, Sentry's HTTP check-ins, and a clock the test moves for the sweep. */
describe('cron monitors', () => {
  // A fixed instant, far from the nightly job's 02:00 in Vienna: no run is due by the wall clock's hour.
  const clock = new FixedClock(new Date('2026-11-22T12:00:10.000Z'));
  let api: TestApp;
  let dsn: string;
  let projectId: string;
  let publicKey: string;

  beforeAll(async () => {
    api = await startTestApp({}, { clock });
    const keys = await api.request('GET', '/api/0/projects/acme/web/keys/');
    dsn = keys.body[0].dsn.public;
    projectId = String(keys.body[0].projectId);
    publicKey = keys.body[0].public;
  });

  afterAll(async () => {
    await api?.close();
  });

  const monitor = async (slug: string): Promise<MonitorJson> => (await api.request('GET', `/api/0/organizations/acme/monitors/${slug}/`)).body;
  const checkIns = async (slug: string) =>
    (await api.request('GET', `/api/0/organizations/acme/monitors/${slug}/checkins/`)).body as Array<Record<string, unknown>>;
  const cronIssue = async (slug: string) => {
    const issues = (await api.request('GET', '/api/0/projects/acme/web/issues/?query=')).body as Array<Record<string, unknown>>;
    return issues.find((issue) => issue.title === `Cron failure: ${slug}`);
  };
  const moveTo = (at: number) => clock.advance(at - clock.now().getTime());
  const sweep = () => api.app.get(MonitorSweep).sweepDue();
  const httpCheckIn = (slug: string, query: string, init: RequestInit = {}) =>
    fetch(`${api.baseUrl}/api/${projectId}/cron/${slug}/${publicKey}/?${query}`, init);

  it("records the SDK's withMonitor and captureCheckIn, upserting monitors, and a failed run opens a cron issue that alert rules mail about", async () => {
    const rule = await api.request('POST', '/api/0/projects/acme/web/rules/', {
      body: {
        name: 'Mail on new issues',
        actionMatch: 'all',
        conditions: [{ id: 'sentry.rules.conditions.first_seen_event.FirstSeenEventCondition' }],
        actions: [{ id: 'sentry.mail.actions.NotifyEmailAction', targetType: 'IssueOwners', fallthroughType: 'ActiveMembers' }],
      },
    });
    expect(rule.status).toBe(201);
    await run(process.execPath, [join(__dirname, '..', 'support', 'sentry-cron-client.cjs'), dsn], { timeout: 30_000 });

    const list = (await api.request('GET', '/api/0/organizations/acme/monitors/')).body as MonitorJson[];
    expect(list.map((m) => m.slug).sort()).toEqual(['flaky-import', 'heartbeat', 'nightly-report']);
    const nightly = await monitor('nightly-report');
    expect(nightly).toMatchObject({
      status: 'active',
      config: { schedule_type: 'crontab', schedule: '0 2 * * *', checkin_margin: 5, max_runtime: 10, timezone: 'Europe/Vienna' },
      environments: [{ name: 'production', status: 'ok' }],
    });
    const [okRun] = await checkIns('nightly-report');
    expect(okRun).toMatchObject({ status: 'ok', environment: 'production' });
    expect(okRun.duration).toBeGreaterThanOrEqual(0);
    expect(await checkIns('nightly-report')).toHaveLength(1);

    expect((await monitor('flaky-import')).environments[0].status).toBe('error');
    expect(await cronIssue('flaky-import')).toMatchObject({
      status: 'unresolved',
      issueType: 'monitor_check_in_failure',
      issueCategory: 'cron',
      culprit: 'An error check-in was detected.',
    });
    expect(await cronIssue('nightly-report')).toBeUndefined();
    // The rule fired on the cron issue as on an error's, and queued its mail.
    const flaky = (await cronIssue('flaky-import')) as { id: string };
    const fires = await api.app
      .get(Database)
      .query<{ delivery_causes: string[] }>(`SELECT delivery_causes FROM alerts.issue_alert_fires WHERE issue_id = $1`, [flaky.id]);
    expect(fires).toHaveLength(1);
    expect(fires[0].delivery_causes.length).toBeGreaterThan(0);
  });

  it('finds a missed heartbeat once its margin has passed, backdated to when it was expected; an HTTP check-in recovers it', async () => {
    const before = (await monitor('heartbeat')).environments[0];
    const expected = before.nextCheckIn as string;
    expect(Date.parse(before.nextCheckInLatest as string) - Date.parse(expected)).toBe(60_000);

    moveTo(Date.parse(before.nextCheckInLatest as string) - 1_000);
    await sweep();
    expect((await checkIns('heartbeat')).map((c) => c.status)).toEqual(['ok']);

    moveTo(Date.parse(before.nextCheckInLatest as string));
    await sweep();
    const [missed] = await checkIns('heartbeat');
    expect(missed).toMatchObject({ status: 'missed', expectedTime: expected, dateCreated: expected });
    expect((await monitor('heartbeat')).environments[0].status).toBe('error');
    expect(await cronIssue('heartbeat')).toMatchObject({ status: 'unresolved', culprit: `No check-in reported on ${expected}.` });
    // A repeated sweep finds nothing more for the same expected run.
    await sweep();
    expect((await checkIns('heartbeat')).filter((c) => c.status === 'missed')).toHaveLength(1);

    const answer = await httpCheckIn('heartbeat', 'status=ok&environment=production');
    expect(answer.status).toBe(202);
    expect((await monitor('heartbeat')).environments[0].status).toBe('ok');
    expect(await cronIssue('heartbeat')).toMatchObject({ status: 'resolved' });
  });

  it('times out a run still in progress after its max_runtime; a closing check-in then changes nothing', async () => {
    const checkInId = randomUUID();
    const started = await httpCheckIn('nightly-report', '', {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ status: 'in_progress', check_in_id: checkInId, environment: 'production' }),
    });
    expect(started.status).toBe(202);
    expect((await checkIns('nightly-report')).find((c) => c.id === checkInId)).toMatchObject({ status: 'in_progress' });

    clock.advance(10 * 60_000 + 1_000);
    await sweep();
    expect((await checkIns('nightly-report')).find((c) => c.id === checkInId)).toMatchObject({ status: 'timeout' });
    expect((await monitor('nightly-report')).environments[0].status).toBe('error');
    expect(await cronIssue('nightly-report')).toMatchObject({ culprit: 'Check-in exceeded maximum duration of 10 minutes.' });

    expect((await httpCheckIn('nightly-report', `status=ok&check_in_id=${checkInId}&duration=3`)).status).toBe(202);
    expect((await checkIns('nightly-report')).find((c) => c.id === checkInId)).toMatchObject({ status: 'timeout' });
    // The stats count the runs per status in buckets.
    const until = Math.floor(clock.now().getTime() / 1000);
    const stats = await api.request('GET', `/api/0/organizations/acme/monitors/nightly-report/stats/?since=${until - 7200}&until=${until}&resolution=1h`);
    expect(stats.status).toBe(200);
    expect(stats.body).toHaveLength(3);
    const total = (status: string) => stats.body.reduce((sum: number, bucket: Record<string, number>) => sum + bucket[status], 0);
    expect([total('ok'), total('timeout'), total('error'), total('missed')]).toEqual([1, 1, 0, 0]);
    expect((await api.request('GET', '/api/0/organizations/acme/monitors/nightly-report/stats/?resolution=7m')).status).toBe(400);
    // A check-in that cannot be read is refused with the reason, and a wrong key too.
    const bogus = await httpCheckIn('nightly-report', 'status=finished');
    expect(bogus.status).toBe(400);
    expect(await bogus.json()).toEqual({ detail: 'status must be one of in_progress, ok, error' });
    expect((await httpCheckIn('nightly-report', 'status=ok&environment=%00')).status).toBe(400);
    const refused = await fetch(`${api.baseUrl}/api/${projectId}/cron/nightly-report/${'0'.repeat(32)}/?status=ok`);
    expect(refused.status).toBe(401);
  });

  it('works with sentry-cli: monitors run reports the command, monitors list shows the monitors', async () => {
    const env = {
      ...process.env,
      SENTRY_DSN: dsn,
      SENTRY_URL: api.baseUrl,
      SENTRY_AUTH_TOKEN: BOOTSTRAP.token,
      SENTRY_ORG: BOOTSTRAP.org,
      SENTRY_LOG_LEVEL: 'warn',
    };
    await run(SENTRY_CLI, ['monitors', 'run', 'cli-job', '--schedule', '*/5 * * * *', '--', 'true'], { env, timeout: 30_000 });
    expect(await monitor('cli-job')).toMatchObject({ config: { schedule_type: 'crontab', schedule: '*/5 * * * *' }, environments: [{ status: 'ok' }] });
    expect((await checkIns('cli-job')).map((c) => c.status)).toEqual(['ok']);

    const { stdout } = await run(SENTRY_CLI, ['monitors', 'list'], { env, timeout: 30_000 });
    for (const slug of ['cli-job', 'heartbeat', 'nightly-report']) expect(stdout).toContain(slug);
  });
});
