import { randomUUID } from 'node:crypto';
import { MetricAlertEvaluation } from '@faultline/alerts';
import { EventProcessing } from '@faultline/ingest';
import { FixedClock } from '@faultline/kernel';
import { startTestApp, type TestApp } from '../support/test-app';

const EVERY_EVENT = 'sentry.rules.conditions.every_event.EveryEventCondition';
const EVENT_FREQUENCY = 'sentry.rules.conditions.event_frequency.EventFrequencyCondition';
const PERCENT = 'sentry.rules.conditions.event_frequency.EventFrequencyPercentCondition';
const REAPPEARED = 'sentry.rules.conditions.reappeared_event.ReappearedEventCondition';
const OCCURRENCES = 'sentry.rules.filters.issue_occurrences.IssueOccurrencesFilter';
const ASSIGNED_TO = 'sentry.rules.filters.assigned_to.AssignedToFilter';
const LATEST_RELEASE = 'sentry.rules.filters.latest_release.LatestReleaseFilter';
const NOTIFY_EVENT = 'sentry.rules.actions.notify_event.NotifyEventAction';

/**
 * The conditions and filters that read more than the event (issue state, other environments'
 * counts, sessions, releases), through real ingestion, and the rule stats Sentry's rule page draws.
 */
describe('issue alert conditions and filters, and rule stats', () => {
  let api: TestApp;
  // Ten minutes into an hour, so the hourly buckets the test reads are known.
  const clock = new FixedClock(new Date(Math.floor(Date.now() / 3_600_000) * 3_600_000 + 10 * 60_000));
  let projectId: string;
  let publicKey: string;
  const rulesPath = '/api/0/projects/acme/web/rules/';

  beforeAll(async () => {
    api = await startTestApp({ METRIC_ALERT_EVALUATION_SECONDS: '1' }, { clock });
    const keys = await api.request('GET', '/api/0/projects/acme/web/keys/');
    projectId = String(keys.body[0].projectId);
    publicKey = keys.body[0].public;
  });

  afterAll(async () => {
    await api?.close();
  });

  async function sendError(message: string, extra: Record<string, unknown> = {}): Promise<string> {
    const eventId = randomUUID().replace(/-/g, '');
    const response = await fetch(`${api.baseUrl}/api/${projectId}/store/?sentry_key=${publicKey}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ event_id: eventId, level: 'error', platform: 'node', message, ...extra }),
    });
    expect(response.status).toBe(200);
    await api.app.get(EventProcessing).drain();
    return eventId;
  }

  async function createRule(body: Record<string, unknown>): Promise<string> {
    const response = await api.request('POST', rulesPath, { body: { actionMatch: 'all', filterMatch: 'all', actions: [{ id: NOTIFY_EVENT }], ...body } });
    expect(response.status).toBe(201);
    return response.body.id;
  }

  /** The events a rule fired for, oldest first. */
  async function firedFor(ruleId: string): Promise<string[]> {
    const history = await api.request('GET', `${rulesPath}${ruleId}/history/`);
    expect(history.status).toBe(200);
    return history.body.map((fire: { eventId: string }) => fire.eventId).reverse();
  }

  async function issueOf(message: string): Promise<string> {
    const { body } = await api.request('GET', `/api/0/organizations/acme/issues/?query=${encodeURIComponent(message)}`);
    return body[0].id;
  }

  it("a frequency rule with an environment counts only that environment's events", async () => {
    const ruleId = await createRule({
      name: 'Busy in production',
      environment: 'production',
      conditions: [{ id: EVENT_FREQUENCY, value: 1, interval: '1h' }],
    });
    // Three staging events of the issue: none is production's, so nothing fires.
    for (let i = 0; i < 3; i += 1) await sendError('Queue stalled', { environment: 'staging' });
    const first = await sendError('Queue stalled', { environment: 'production' });
    expect(await firedFor(ruleId)).toEqual([]);
    // The second production event is more than one in the hour.
    const second = await sendError('Queue stalled', { environment: 'production' });
    expect(await firedFor(ruleId)).toEqual([second]);
    expect(first).not.toBe(second);
    await api.request('DELETE', `${rulesPath}${ruleId}/`);
  });

  it('issue occurrences: the rule fires from the issue’s third event on', async () => {
    const ruleId = await createRule({ name: 'Seen thrice', frequency: 5, conditions: [{ id: EVERY_EVENT }], filters: [{ id: OCCURRENCES, value: 3 }] });
    await sendError('Thrice seen');
    await sendError('Thrice seen');
    expect(await firedFor(ruleId)).toEqual([]);
    const third = await sendError('Thrice seen');
    expect(await firedFor(ruleId)).toEqual([third]);
    await api.request('DELETE', `${rulesPath}${ruleId}/`);
  });

  it('assigned to: unassigned issues, then only those of the team', async () => {
    const teams = await api.request('GET', '/api/0/organizations/acme/teams/');
    const teamId = String(teams.body[0].id);
    const unassigned = await createRule({
      name: 'Nobody on it',
      frequency: 5,
      conditions: [{ id: EVERY_EVENT }],
      filters: [{ id: ASSIGNED_TO, targetType: 'Unassigned' }],
    });
    const team = await createRule({
      name: "The team's",
      frequency: 5,
      conditions: [{ id: EVERY_EVENT }],
      filters: [{ id: ASSIGNED_TO, targetType: 'Team', targetIdentifier: teamId }],
    });
    const first = await sendError('Owned later');
    expect([await firedFor(unassigned), await firedFor(team)]).toEqual([[first], []]);
    const issueId = await issueOf('Owned later');
    expect((await api.request('PUT', `/api/0/organizations/acme/issues/${issueId}/`, { body: { assignedTo: `team:${teamId}` } })).status).toBe(200);
    const second = await sendError('Owned later');
    expect([await firedFor(unassigned), await firedFor(team)]).toEqual([[first], [second]]);
    await api.request('DELETE', `${rulesPath}${unassigned}/`);
    await api.request('DELETE', `${rulesPath}${team}/`);
  });

  it("latest release: only events of the project's latest release pass", async () => {
    const ruleId = await createRule({ name: 'Latest only', frequency: 5, conditions: [{ id: EVERY_EVENT }], filters: [{ id: LATEST_RELEASE }] });
    await sendError('Release one', { release: 'shop@1.0.0' });
    const one = (await firedFor(ruleId))[0];
    expect(one).toBeDefined();
    clock.advance(1000);
    const two = await sendError('Release two', { release: 'shop@1.1.0' });
    // 1.1.0 is now the latest: an event of 1.0.0 no longer passes.
    clock.advance(1000);
    await sendError('Release one again', { release: 'shop@1.0.0' });
    expect(await firedFor(ruleId)).toEqual([one, two]);
    await api.request('DELETE', `${rulesPath}${ruleId}/`);
  });

  it('reappeared: an ignored issue coming back past its ignore count fires; a regression does not', async () => {
    const ruleId = await createRule({ name: 'Back again', frequency: 5, conditions: [{ id: REAPPEARED }] });
    await sendError('Flaky job');
    const issueId = await issueOf('Flaky job');
    const ignored = await api.request('PUT', `/api/0/organizations/acme/issues/${issueId}/`, {
      body: { status: 'ignored', statusDetails: { ignoreCount: 2 } },
    });
    expect(ignored.status).toBe(200);
    await sendError('Flaky job');
    expect(await firedFor(ruleId)).toEqual([]);
    const back = await sendError('Flaky job');
    expect((await api.request('GET', `/api/0/organizations/acme/issues/${issueId}/`)).body).toMatchObject({ status: 'unresolved', substatus: 'escalating' });
    expect(await firedFor(ruleId)).toEqual([back]);

    await api.request('PUT', `/api/0/organizations/acme/issues/${issueId}/`, { body: { status: 'resolved' } });
    clock.advance(6 * 60_000);
    await sendError('Flaky job');
    expect(await firedFor(ruleId)).toEqual([back]);
    await api.request('DELETE', `${rulesPath}${ruleId}/`);
  });

  it('percent of sessions: events of the issue against the sessions the project started in the last hour', async () => {
    const ruleId = await createRule({
      name: 'Hurting sessions',
      frequency: 5,
      conditions: [{ id: PERCENT, value: 5, interval: '1h' }],
    });
    // Fewer than 50 sessions: the condition stays quiet, whatever the share.
    await sendError('Payment widget crashed', { environment: 'production' });
    expect(await firedFor(ruleId)).toEqual([]);
    const envelope = [
      JSON.stringify({ sent_at: clock.now().toISOString() }),
      JSON.stringify({ type: 'sessions' }),
      JSON.stringify({ aggregates: [{ started: clock.now().toISOString(), exited: 100 }], attrs: { release: 'shop@1.1.0', environment: 'production' } }),
    ].join('\n');
    const response = await fetch(`${api.baseUrl}/api/${projectId}/envelope/?sentry_key=${publicKey}`, { method: 'POST', body: envelope });
    expect(response.status).toBe(200);
    // 100 sessions in the hour: 5 events are 5 %, not more; the sixth is.
    for (let i = 0; i < 4; i += 1) await sendError('Payment widget crashed', { environment: 'production' });
    expect(await firedFor(ruleId)).toEqual([]);
    const sixth = await sendError('Payment widget crashed', { environment: 'production' });
    expect(await firedFor(ruleId)).toEqual([sixth]);
    await api.request('DELETE', `${rulesPath}${ruleId}/`);
  });

  it('rule stats: the fires per hour, zero-filled, over statsPeriod or start and end', async () => {
    const ruleId = await createRule({ name: 'Every time', frequency: 5, conditions: [{ id: EVERY_EVENT }] });
    const hour = Math.floor(clock.now().getTime() / 3_600_000) * 3_600_000;
    await sendError('Counted once');
    clock.advance(6 * 60_000);
    await sendError('Counted once');
    await sendError('Counted elsewhere');

    const day = await api.request('GET', `${rulesPath}${ruleId}/stats/?statsPeriod=24h`);
    expect(day.status).toBe(200);
    expect(day.body).toHaveLength(25);
    expect(day.body.every((bucket: { date: string; count: number }) => Date.parse(bucket.date) % 3_600_000 === 0)).toBe(true);
    expect(day.body.at(-1)).toEqual({ date: new Date(hour).toISOString(), count: 3 });
    expect(day.body.reduce((sum: number, bucket: { count: number }) => sum + bucket.count, 0)).toBe(3);

    const start = new Date(hour - 2 * 3_600_000).toISOString();
    const end = new Date(hour + 3_600_000).toISOString();
    const range = await api.request('GET', `${rulesPath}${ruleId}/stats/?start=${start}&end=${end}`);
    expect(range.body.map((bucket: { count: number }) => bucket.count)).toEqual([0, 0, 3, 0]);

    const history = await api.request('GET', `${rulesPath}${ruleId}/group-history/`);
    expect(history.body.map((row: { group: { title: string }; count: number }) => [row.group.title, row.count])).toEqual([
      ['Counted once', 2],
      ['Counted elsewhere', 1],
    ]);

    for (const query of ['statsPeriod=91d', 'statsPeriod=soon', `start=${start}`, `start=${end}&end=${start}`]) {
      const refused = await api.request('GET', `${rulesPath}${ruleId}/stats/?${query}`);
      expect([query, refused.status, typeof refused.body.detail]).toEqual([query, 400, 'string']);
    }
    expect((await api.request('GET', `${rulesPath}999999/stats/`)).status).toBe(404);
    expect((await api.request('GET', `/api/0/projects/acme/nope/rules/${ruleId}/stats/`)).status).toBe(404);
    await api.request('DELETE', `${rulesPath}${ruleId}/`);
  });

  it("a metric alert counts only its environment's errors of the levels its query names", async () => {
    const alertRules = '/api/0/organizations/acme/alert-rules/';
    const valid = {
      name: 'Prod errors',
      aggregate: 'count()',
      timeWindow: 1,
      projects: ['web'],
      triggers: [{ label: 'critical', alertThreshold: 2, actions: [] }],
    };
    for (const [query, detail] of [
      ['release:1.0', /release is not supported/],
      ['level:loud', /level loud is not one of/],
      ['checkout failed', /free text is not supported/],
      ['level:error level:fatal', /give level: once/],
      ['environment:', /Empty string after 'environment:'/],
    ] as const) {
      const refused = await api.request('POST', alertRules, { body: { ...valid, query } });
      expect([query, refused.status]).toEqual([query, 400]);
      expect(refused.body.detail).toMatch(detail);
    }
    const created = await api.request('POST', alertRules, { body: { ...valid, environment: 'production', query: 'level:[error,fatal]' } });
    expect(created.status).toBe(201);
    expect(created.body).toMatchObject({ environment: 'production', query: 'level:[error,fatal]' });
    const worker = api.app.get(MetricAlertEvaluation);
    const incidents = async () => (await api.request('GET', `/api/0/organizations/acme/incidents/?alertRule=${created.body.id}`)).body;

    clock.advance(2 * 60_000);
    for (let i = 0; i < 3; i += 1) {
      await sendError('Disk almost full', { environment: 'production', level: 'warning' });
      await sendError('Staging is down', { environment: 'staging' });
    }
    clock.advance(2000);
    await worker.evaluateDue();
    expect(await incidents()).toEqual([]);
    for (let i = 0; i < 3; i += 1) await sendError('Orders failing', { environment: 'production', level: i === 0 ? 'fatal' : 'error' });
    clock.advance(2000);
    await worker.evaluateDue();
    expect(await incidents()).toMatchObject([{ statusName: 'critical' }]);
    const [activity] = (await api.request('GET', `/api/0/organizations/acme/incidents/${(await incidents())[0].identifier}/activity/`)).body;
    expect(activity).toMatchObject({ type: 'detected', value: 3 });
    await api.request('DELETE', `${alertRules}${created.body.id}/`);
  });
});
