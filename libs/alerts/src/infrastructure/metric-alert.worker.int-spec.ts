import { EventRecorder, EventStore } from '@faultline/event-store';
import { FixedClock } from '@faultline/kernel';
import { loadConfig } from '@faultline/platform';
import type { IssueAlertNotifier } from '@faultline/notifications';
import type { AppWebhookOutbox } from '@faultline/integrations';
import type { ServiceHookOutbox } from '@faultline/webhooks';
import { openTestDatabase, type TestDatabase } from '../../../../test/support/test-database';
import { validateMetricRule } from '../domain';
import { AlertCountsRepository } from './alert-counts.repository';
import { AlertDispatcher } from './alert-dispatcher';
import { IncidentsRepository } from './incidents.repository';
import { minuteOf } from './issue-alert-evaluator';
import { MetricAlertWorker } from './metric-alert.worker';
import { MetricRulesRepository } from './metric-rules.repository';

const RULES = 120;

/** Metric alert evaluation on a real database: several workers at once, each rule evaluated once per turn. */
describe('MetricAlertWorker', () => {
  let db: TestDatabase;
  const clock = new FixedClock(new Date('2026-11-22T12:00:30.000Z'));
  const config = loadConfig({ METRIC_ALERT_EVALUATION_SECONDS: '60' });
  let workers: MetricAlertWorker[];
  let organizationId: string;
  let issueId: string;
  let projectId: string;

  beforeAll(async () => {
    db = await openTestDatabase();
    const store = new EventStore(db.database);
    const recorder = new EventRecorder(store);
    // These rules name no actions: no outbox is asked.
    const dispatcher = new AlertDispatcher({} as ServiceHookOutbox, {} as AppWebhookOutbox, {} as IssueAlertNotifier, config);
    const make = () =>
      new MetricAlertWorker(
        db.database,
        new MetricRulesRepository(),
        new AlertCountsRepository(),
        new IncidentsRepository(store, recorder),
        dispatcher,
        clock,
        config,
      );
    workers = [make(), make(), make()];

    const [org] = await db.database.query<{ id: string }>(`INSERT INTO identity.organizations (slug, name) VALUES ('acme', 'Acme') RETURNING id`);
    organizationId = String(org.id);
    const [project] = await db.database.query<{ id: string }>(
      `INSERT INTO projects.projects (organization_id, slug, name) VALUES ($1, 'web', 'Web') RETURNING id`,
      [organizationId],
    );
    const [issue] = await db.database.query<{ id: string }>(
      `INSERT INTO issues.issues (project_id, fingerprint_hash, short_id, title, level, platform, first_seen, last_seen) VALUES ($1, 'f', 'WEB-1', 't', 'error', 'node', now(), now()) RETURNING id`,
      [project.id],
    );
    const rules = new MetricRulesRepository();
    let next = 0;
    for (let i = 0; i < RULES; i++) {
      const checked = validateMetricRule(
        { name: `rule ${i}`, aggregate: 'count()', timeWindow: 5, projects: ['web'], triggers: [{ label: 'critical', alertThreshold: 3 }] },
        () => String(++next),
      );
      if ('error' in checked) throw new Error(checked.error);
      await rules.insert(db.database, organizationId, [String(project.id)], checked.ok, null, clock.now());
    }
    await new AlertCountsRepository().recordAndRead(db.database, {
      events: [
        { issueId: String(issue.id), projectId: String(project.id), bucket: minuteOf(clock.now()), environment: 'production', level: 'error', events: 4 },
      ],
      users: [],
      countIssues: [],
      countEnvironments: [],
      eventWindows: [],
      userWindows: [],
      stateIssues: [],
      ruleIssues: [],
      now: clock.now(),
    });
    issueId = String(issue.id);
    projectId = String(project.id);
  }, 60_000);

  afterAll(async () => {
    await db?.close();
  });

  it('several workers at once open exactly one incident per rule, with one identifier each', async () => {
    const evaluated = await Promise.all(workers.map((worker) => worker.evaluateDue()));
    expect(evaluated.reduce((a, b) => a + b, 0)).toBe(RULES);

    const incidents = await db.database.query<{ rule_id: string; status: string; identifier: number }>(
      `SELECT rule_id, status, identifier FROM alerts.metric_alert_incidents`,
    );
    expect(incidents).toHaveLength(RULES);
    expect(new Set(incidents.map((i) => i.rule_id)).size).toBe(RULES);
    expect(new Set(incidents.map((i) => i.identifier)).size).toBe(RULES);
    expect(incidents.every((i) => i.status === 'critical')).toBe(true);
    const [{ n }] = await db.database.query<{ n: number }>(`SELECT count(*)::int AS n FROM event_store.events WHERE stream_type = 'incident'`);
    expect(n).toBe(RULES * 2);
    const [{ due }] = await db.database.query<{ due: number }>(`SELECT count(*)::int AS due FROM alerts.metric_alert_rules WHERE next_evaluation_at <= $1`, [
      clock.now(),
    ]);
    expect(due).toBe(0);
  });

  it('evaluates again only when the rules are due, and resolves once the window is quiet', async () => {
    expect(await workers[0].evaluateDue()).toBe(0);
    clock.advance(6 * 60_000);
    const evaluated = await Promise.all(workers.map((worker) => worker.evaluateDue()));
    expect(evaluated.reduce((a, b) => a + b, 0)).toBe(RULES);
    const [{ resolved }] = await db.database.query<{ resolved: number }>(
      `SELECT count(*)::int AS resolved FROM alerts.metric_alert_incidents WHERE status = 'resolved' AND date_closed = $1`,
      [clock.now()],
    );
    expect(resolved).toBe(RULES);
    const [{ n }] = await db.database.query<{ n: number }>(`SELECT count(*)::int AS n FROM event_store.events WHERE event_type = 'alerts.IncidentResolved'`);
    expect(n).toBe(RULES);
  });

  it('counts distinct users for count_unique(user), across minutes, only within the window', async () => {
    const counts = new AlertCountsRepository();
    const rules = new MetricRulesRepository();
    let next = 10_000;
    const checked = validateMetricRule(
      { name: 'users', aggregate: 'count_unique(user)', timeWindow: 5, projects: ['web'], triggers: [{ label: 'critical', alertThreshold: 2 }] },
      () => String(++next),
    );
    if ('error' in checked) throw new Error(checked.error);
    const rule = await rules.insert(db.database, organizationId, [projectId], checked.ok, null, clock.now());
    const users = (tags: string[], at: Date) =>
      counts.recordAndRead(db.database, {
        events: [],
        users: tags.map((user, index) => ({
          issueId,
          projectId,
          bucket: minuteOf(at),
          environment: index % 2 ? 'staging' : 'production',
          level: index % 2 ? 'warning' : 'error',
          user,
        })),
        countIssues: [],
        countEnvironments: [],
        eventWindows: [],
        userWindows: [],
        stateIssues: [],
        ruleIssues: [],
        now: at,
      });
    // Long before the window: not counted.
    await users(['id:old-1', 'id:old-2', 'id:old-3'], new Date(clock.now().getTime() - 30 * 60_000));
    // Two minutes in the window, one user in both: three distinct users.
    await users(['id:a', 'id:b'], new Date(clock.now().getTime() - 2 * 60_000));
    await users(['id:b', 'id:c'], clock.now());
    const values = await counts.metricValues(
      db.database,
      [
        { id: String(rule.id), projectIds: [projectId], aggregate: 'count_unique(user)', timeWindow: 5, environment: null, filter: {} },
        { id: '0', projectIds: [projectId], aggregate: 'count_unique(user)', timeWindow: 5, environment: 'production', filter: {} },
        {
          id: '1',
          projectIds: [projectId],
          aggregate: 'count_unique(user)',
          timeWindow: 5,
          environment: null,
          filter: { levels: { negated: false, values: ['warning'] } },
        },
        {
          id: '2',
          projectIds: [projectId],
          aggregate: 'count_unique(user)',
          timeWindow: 5,
          environment: null,
          filter: { levels: { negated: false, values: ['warning'] }, environments: { negated: true, values: ['staging'] } },
        },
      ],
      clock.now(),
    );
    expect(values.get(String(rule.id))).toBe(3);
    // With an environment, only its users: id:a and id:b (first of their minutes) were seen in production.
    expect(values.get('0')).toBe(2);
    // The query's levels and environments: id:b and id:c sent warnings (from staging), nobody a warning elsewhere.
    expect(values.get('1')).toBe(2);
    expect(values.get('2')).toBe(0);
  });
});
