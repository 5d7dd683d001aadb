import { EventRecorder, EventStore } from '@faultline/event-store';
import { FixedClock } from '@faultline/kernel';
import type { IssueOccurrence, IssueOccurrences } from '@faultline/issues';
import { openTestDatabase, type TestDatabase } from '../../../../test/support/test-database';
import { MonitorRuns } from '../application/monitor-runs';
import { CheckInIntakeService } from './check-in-intake.service';
import { MonitorEnvironmentsRepository } from './monitor-environments.repository';
import { MonitorSweepWorker } from './monitor-sweep.worker';
import { monitorsConfig } from './monitors-config';
import { MonitorsRepository } from './monitors.repository';

const MISSING = 120;
const STALLED = 60;

/** The sweep on a real database: three workers at once, each missed or timed-out run handled exactly once. */
describe('MonitorSweepWorker', () => {
  let db: TestDatabase;
  const clock = new FixedClock(new Date('2026-11-22T12:00:30.000Z'));
  const opened: IssueOccurrence[] = [];
  let workers: MonitorSweepWorker[];
  let intake: CheckInIntakeService;
  let submission: (checkIn: Record<string, unknown>) => { projectId: string; organizationId: string; payload: Buffer; receivedAt: string };

  beforeAll(async () => {
    db = await openTestDatabase();
    const store = new EventStore(db.database);
    const recorder = new EventRecorder(store);
    // The issues context is a port here: what matters is that each failure reaches it once.
    const occurrences = {
      record: async (_tx: unknown, occurrence: IssueOccurrence) => {
        opened.push(occurrence);
        return { issueId: String(opened.length), isNewIssue: true };
      },
      resolve: async () => null,
    } as unknown as IssueOccurrences;
    const repository = new MonitorsRepository();
    const environments = new MonitorEnvironmentsRepository(store, recorder);
    const runs = new MonitorRuns(repository, environments, occurrences, recorder);
    const config = monitorsConfig({});
    workers = [0, 1, 2].map(() => new MonitorSweepWorker(db.database, repository, runs, clock, config));

    const [org] = await db.database.query<{ id: string }>(`INSERT INTO identity.organizations (slug, name) VALUES ('acme', 'Acme') RETURNING id`);
    const [project] = await db.database.query<{ id: string }>(
      `INSERT INTO projects.projects (organization_id, slug, name) VALUES ($1, 'web', 'Web') RETURNING id`,
      [org.id],
    );
    intake = new CheckInIntakeService(db.database, repository, environments, runs, config);
    submission = (checkIn: Record<string, unknown>) => ({
      projectId: String(project.id),
      organizationId: String(org.id),
      payload: Buffer.from(JSON.stringify(checkIn)),
      receivedAt: clock.now().toISOString(),
    });
    const id = (n: number) => n.toString(16).padStart(32, '0');
    // Every minute, checked in once: missed when the next minute's margin has passed.
    const heartbeats = Array.from({ length: MISSING }, (_, n) =>
      submission({
        check_in_id: id(n + 1),
        monitor_slug: `heartbeat-${n}`,
        status: 'ok',
        monitor_config: { schedule: { type: 'interval', value: 1, unit: 'minute' }, checkin_margin: 1 },
      }),
    );
    // Hourly, started and never finished: timed out after a minute.
    const stalled = Array.from({ length: STALLED }, (_, n) =>
      submission({
        check_in_id: id(10_000 + n),
        monitor_slug: `stalled-${n}`,
        status: 'in_progress',
        monitor_config: { schedule: { type: 'interval', value: 1, unit: 'hour' }, max_runtime: 1 },
      }),
    );
    expect(await intake.record([...heartbeats, ...stalled])).toEqual({ accepted: MISSING + STALLED, dropped: 0, invalid: [] });
  }, 60_000);

  afterAll(async () => {
    await db?.close();
  });

  it('finds nothing before anything is due', async () => {
    expect(await workers[0].sweepDue()).toBe(0);
  });

  it('several workers at once record each missed and timed-out run once, fail each environment once, and leave nothing due', async () => {
    clock.advance(90_000);
    const swept = await Promise.all(workers.map((worker) => worker.sweepDue()));
    expect(swept.reduce((a, b) => a + b, 0)).toBe(MISSING + STALLED);

    const statuses = await db.database.query<{ status: string; n: number }>(
      `SELECT status, count(*)::int AS n FROM monitors.check_ins GROUP BY status ORDER BY status`,
    );
    expect(statuses).toEqual([
      { status: 'missed', n: MISSING },
      { status: 'ok', n: MISSING },
      { status: 'timeout', n: STALLED },
    ]);
    // Backdated: each missed run at the minute it was expected.
    const [{ wrong }] = await db.database.query<{ wrong: number }>(
      `SELECT count(*)::int AS wrong FROM monitors.check_ins WHERE status = 'missed' AND (date_created <> '2026-11-22T12:01:00Z' OR expected_time <> date_created)`,
    );
    expect(wrong).toBe(0);
    const [{ failed }] = await db.database.query<{ failed: number }>(
      `SELECT count(*)::int AS failed FROM event_store.events WHERE event_type = 'monitors.MonitorEnvironmentFailed'`,
    );
    expect(failed).toBe(MISSING + STALLED);
    expect(opened).toHaveLength(MISSING + STALLED);
    expect(new Set(opened.map((occurrence) => occurrence.groupKey)).size).toBe(MISSING + STALLED);
    const [{ errors }] = await db.database.query<{ errors: number }>(
      `SELECT count(*)::int AS errors FROM monitors.monitor_environments WHERE status = 'error'`,
    );
    expect(errors).toBe(MISSING + STALLED);

    expect(await Promise.all(workers.map((worker) => worker.sweepDue()))).toEqual([0, 0, 0]);
  });

  it('the next missed minute is one more occurrence of the open failure, not a new failure', async () => {
    clock.advance(60_000);
    const swept = await Promise.all(workers.map((worker) => worker.sweepDue()));
    expect(swept.reduce((a, b) => a + b, 0)).toBe(MISSING);
    expect(opened).toHaveLength(2 * MISSING + STALLED);
    const [{ failed }] = await db.database.query<{ failed: number }>(
      `SELECT count(*)::int AS failed FROM event_store.events WHERE event_type = 'monitors.MonitorEnvironmentFailed'`,
    );
    expect(failed).toBe(MISSING + STALLED);
  });

  it('a closing check-in that comes before the check-in creating its monitor closes that run when it comes', async () => {
    const checkInId = 'ab'.repeat(16);
    const closing = submission({ check_in_id: checkInId, monitor_slug: 'early-close', status: 'ok', duration: 2 });
    const opening = submission({
      check_in_id: checkInId,
      monitor_slug: 'early-close',
      status: 'in_progress',
      monitor_config: { schedule: { type: 'crontab', value: '0 * * * *' } },
    });
    expect(await intake.record([closing])).toEqual({ accepted: 1, dropped: 0, invalid: [] });
    expect(await intake.record([opening])).toEqual({ accepted: 1, dropped: 0, invalid: [] });
    const runs = await db.database.query<{ status: string; duration: number }>(
      `SELECT c.status, c.duration FROM monitors.check_ins c JOIN monitors.monitors m ON m.id = c.monitor_id WHERE m.slug = 'early-close'`,
    );
    expect(runs).toEqual([{ status: 'ok', duration: 2000 }]);
    const [environment] = await db.database.query<{ status: string }>(
      `SELECT e.status FROM monitors.monitor_environments e JOIN monitors.monitors m ON m.id = e.monitor_id WHERE m.slug = 'early-close'`,
    );
    expect(environment.status).toBe('ok');
    expect(await db.database.query(`SELECT 1 FROM monitors.unpaired_check_ins`)).toEqual([]);
  });
});
