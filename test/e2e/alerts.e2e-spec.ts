import { execFile } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { MetricAlertEvaluation } from '@faultline/alerts';
import { EventProcessing } from '@faultline/ingest';
import { FixedClock } from '@faultline/kernel';
import { Database } from '@faultline/platform';
import { startTestApp, type TestApp } from '../support/test-app';
import { WebhookReceiver } from '../support/webhook-receiver';

const run = promisify(execFile);

const FIRST_SEEN = 'sentry.rules.conditions.first_seen_event.FirstSeenEventCondition';
const EVENT_FREQUENCY = 'sentry.rules.conditions.event_frequency.EventFrequencyCondition';
const NOTIFY_EVENT = 'sentry.rules.actions.notify_event.NotifyEventAction';
const LEVEL_FILTER = 'sentry.rules.filters.level.LevelFilter';
const APP_ACTION = 'sentry.rules.actions.notify_event_sentry_app.NotifyEventSentryAppAction';

/** Alert rules end to end: the API, a real SDK, a real receiver, and a clock the test moves for metric alerts. */
describe('alert rules', () => {
  let api: TestApp;
  const receiver = new WebhookReceiver();
  // A minute boundary plus ten seconds, so moving it by seconds never crosses a minute by accident.
  const clock = new FixedClock(new Date(Math.floor(Date.now() / 60_000) * 60_000 + 10_000));
  let projectId: string;
  let publicKey: string;
  let dsn: string;
  /** A live installation of an internal app that takes alerts, whose webhooks go to /app. */
  let installation: string;
  const rulesPath = '/api/0/projects/acme/web/rules/';
  const APP_SIGNATURE = 'sentry-hook-signature';

  beforeAll(async () => {
    await receiver.start();
    api = await startTestApp(
      { WEBHOOK_ALLOW_PRIVATE: 'true', WEBHOOK_TIMEOUT_MS: '2000', WEBHOOK_RETRY_SCHEDULE: '0.2,0.2', METRIC_ALERT_EVALUATION_SECONDS: '1' },
      { clock },
    );
    const keys = await api.request('GET', '/api/0/projects/acme/web/keys/');
    projectId = String(keys.body[0].projectId);
    publicKey = keys.body[0].public;
    dsn = keys.body[0].dsn.public;

    const app = await api.request('POST', '/api/0/sentry-apps/', {
      body: {
        name: 'Pager',
        organization: 'acme',
        isInternal: true,
        isAlertable: true,
        webhookUrl: `${receiver.url}/app`,
        scopes: ['event:read'],
        schema: {
          elements: [
            {
              type: 'alert-rule-action',
              title: 'Page the on-call',
              settings: {
                type: 'alert-rule-settings',
                uri: '/alert-rule-action',
                required_fields: [{ type: 'text', name: 'channel', label: 'Channel' }],
                optional_fields: [
                  {
                    type: 'select',
                    name: 'priority',
                    label: 'Priority',
                    options: [
                      ['high', 'High'],
                      ['low', 'Low'],
                    ],
                  },
                ],
              },
            },
          ],
        },
      },
    });
    expect(app.status).toBe(201);
    receiver.setSecret('/app', app.body.clientSecret, APP_SIGNATURE);
    const installations = await api.request('GET', '/api/0/organizations/acme/sentry-app-installations/');
    installation = installations.body.find((i: { app: { slug: string } }) => i.app.slug === app.body.slug).uuid;
  });

  afterAll(async () => {
    await api?.close();
    await receiver.close();
  });

  async function createHook(path: string): Promise<void> {
    const response = await api.request('POST', '/api/0/projects/acme/web/hooks/', { body: { url: `${receiver.url}${path}`, events: ['event.alert'] } });
    expect(response.status).toBe(201);
    receiver.setSecret(path, response.body.secret);
  }

  async function sendError(message: string, level = 'error'): Promise<string> {
    const eventId = randomUUID().replace(/-/g, '');
    const response = await fetch(`${api.baseUrl}/api/${projectId}/store/?sentry_key=${publicKey}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ event_id: eventId, level, platform: 'node', message, tags: { region: 'eu' } }),
    });
    expect(response.status).toBe(200);
    await api.app.get(EventProcessing).drain();
    return eventId;
  }

  /** The app's webhooks of one resource (`Sentry-Hook-Resource`), once `count` have arrived. */
  async function appWebhooks(resource: string, count: number): Promise<Array<{ headers: Record<string, unknown>; body: any }>> {
    const of = () => receiver.to('/app').filter((r) => r.headers['sentry-hook-resource'] === resource);
    for (const deadline = Date.now() + 10_000; of().length < count; await new Promise((resolve) => setTimeout(resolve, 20))) {
      if (Date.now() > deadline) throw new Error(`${of().length} of ${count} ${resource} webhooks arrived`);
    }
    return of().map((r) => ({ headers: r.headers, body: JSON.parse(r.rawBody) }));
  }

  /** event.alert notices queued (one per event, whatever the number of hooks). */
  async function alertDeliveries(): Promise<number> {
    const [{ n }] = await api.app
      .get(Database)
      .query<{ n: number }>(`SELECT count(DISTINCT cause)::int AS n FROM webhooks.webhook_deliveries WHERE event_type = 'event.alert'`);
    return n;
  }

  describe('the combined rules list', () => {
    it("lists the organization's issue and metric rules together, newest first, typed, paginated", async () => {
      const combined = '/api/0/organizations/acme/combined-rules/';
      const first = await api.request('POST', rulesPath, {
        body: { name: 'Combined issue rule', actionMatch: 'all', conditions: [{ id: FIRST_SEEN }], actions: [{ id: NOTIFY_EVENT }] },
      });
      clock.advance(1_000);
      const metric = await api.request('POST', '/api/0/organizations/acme/alert-rules/', {
        body: { name: 'Combined metric rule', aggregate: 'count()', timeWindow: 5, projects: ['web'], triggers: [{ label: 'critical', alertThreshold: 1000 }] },
      });
      clock.advance(1_000);
      const second = await api.request('POST', rulesPath, {
        body: { name: 'Second issue rule', actionMatch: 'all', conditions: [{ id: FIRST_SEEN }], actions: [{ id: NOTIFY_EVENT }] },
      });
      expect([first.status, metric.status, second.status]).toEqual([201, 201, 201]);

      const listed = await api.request('GET', combined);
      expect(listed.status).toBe(200);
      expect(listed.body.map((rule: { type: string; id: string }) => [rule.type, rule.id])).toEqual([
        ['rule', second.body.id],
        ['alert_rule', metric.body.id],
        ['rule', first.body.id],
      ]);
      // Each in its own list's shape.
      expect(listed.body[0]).toEqual({ ...(await api.request('GET', `${rulesPath}${second.body.id}/`)).body, type: 'rule' });
      expect(listed.body[1]).toEqual({ ...(await api.request('GET', `/api/0/organizations/acme/alert-rules/${metric.body.id}/`)).body, type: 'alert_rule' });

      const page = await api.request('GET', `${combined}?per_page=2`);
      expect(page.body).toHaveLength(2);
      expect(page.headers.get('link')).toContain('rel="next"; results="true"');
      expect((await api.request('GET', `${combined}?per_page=2&cursor=0:2:0`)).body.map((rule: { id: string }) => rule.id)).toEqual([first.body.id]);

      const reader = await api.request('POST', '/api/0/api-tokens/', { body: { scopes: ['alerts:read'] } });
      expect((await api.request('GET', combined, { token: reader.body.token })).body).toHaveLength(3);
      await api.request('POST', '/api/0/organizations/', { body: { name: 'Combined Corp', slug: 'combined-corp' } });
      expect((await api.request('GET', '/api/0/organizations/combined-corp/combined-rules/')).body).toEqual([]);

      await api.request('DELETE', `${rulesPath}${first.body.id}/`);
      await api.request('DELETE', `${rulesPath}${second.body.id}/`);
      await api.request('DELETE', `/api/0/organizations/acme/alert-rules/${metric.body.id}/`);
    });
  });

  describe('the issue alert rules API', () => {
    it("creates, reads, lists, updates and deletes a rule in Sentry's shape", async () => {
      const created = await api.request('POST', rulesPath, {
        body: {
          name: 'Errors and worse',
          actionMatch: 'any',
          filterMatch: 'all',
          frequency: 60,
          conditions: [{ id: FIRST_SEEN }, { id: EVENT_FREQUENCY, value: 100, interval: '1h', comparisonType: 'count' }],
          filters: [{ id: LEVEL_FILTER, match: 'gte', level: '40' }],
          actions: [{ id: NOTIFY_EVENT }, { id: APP_ACTION, sentryAppInstallationUuid: installation, settings: [{ name: 'channel', value: '#ops' }] }],
        },
      });
      expect(created.status).toBe(201);
      const { createdBy, ...shown } = created.body;
      expect(createdBy === null || typeof createdBy.id === 'number').toBe(true);
      expect(shown).toEqual({
        id: expect.stringMatching(/^\d+$/),
        name: 'Errors and worse',
        actionMatch: 'any',
        filterMatch: 'all',
        frequency: 60,
        conditions: [
          { id: FIRST_SEEN, name: 'A new issue is created' },
          { id: EVENT_FREQUENCY, value: 100, interval: '1h', comparisonType: 'count', name: 'The issue is seen more than 100 times in 1h' },
        ],
        filters: [{ id: LEVEL_FILTER, match: 'gte', level: '40', name: "The event's level is greater than or equal to error" }],
        actions: [
          { id: NOTIFY_EVENT, uuid: expect.any(String), name: 'Send a notification to all legacy integrations' },
          {
            id: APP_ACTION,
            uuid: expect.any(String),
            sentryAppInstallationUuid: installation,
            settings: [{ name: 'channel', value: '#ops' }],
            name: expect.any(String),
          },
        ],
        dateCreated: expect.stringMatching(/Z$/),
        owner: null,
        environment: null,
        projects: ['web'],
        status: 'active',
        snooze: false,
      });
      const id = created.body.id as string;
      expect((await api.request('GET', `${rulesPath}${id}/`)).body).toEqual(created.body);
      expect((await api.request('GET', rulesPath)).body).toEqual([created.body]);

      const updated = await api.request('PUT', `${rulesPath}${id}/`, { body: { name: 'Renamed', frequency: 5 } });
      expect(updated.status).toBe(200);
      expect(updated.body).toMatchObject({ id, name: 'Renamed', frequency: 5, actionMatch: 'any' });
      expect(updated.body.actions.map((a: { uuid: string }) => a.uuid)).toEqual(created.body.actions.map((a: { uuid: string }) => a.uuid));

      expect((await api.request('DELETE', `${rulesPath}${id}/`)).status).toBe(202);
      expect((await api.request('GET', `${rulesPath}${id}/`)).status).toBe(404);
      expect((await api.request('DELETE', `${rulesPath}${id}/`)).status).toBe(404);
      const facts = await api.app
        .get(Database)
        .query<{ event_type: string }>(`SELECT event_type FROM event_store.events WHERE stream_id = $1 ORDER BY version`, [`alert-rule-${id}`]);
      expect(facts.map((f) => f.event_type)).toEqual(['alerts.IssueAlertRuleCreated', 'alerts.IssueAlertRuleUpdated', 'alerts.IssueAlertRuleDeleted']);
    });

    it('refuses bad rules with 400 naming what is wrong, and stores nothing', async () => {
      const valid = { name: 'x', actionMatch: 'all', conditions: [{ id: FIRST_SEEN }], actions: [{ id: NOTIFY_EVENT }] };
      const cases: Array<[Record<string, unknown>, RegExp]> = [
        [{ ...valid, name: undefined }, /name/],
        [{ ...valid, actionMatch: 'some' }, /actionMatch/],
        [{ ...valid, frequency: 1 }, /frequency/],
        [{ ...valid, actions: [] }, /You must add an action/],
        [{ ...valid, conditions: [{ id: 'sentry.rules.conditions.nope.Nope' }] }, /unknown condition sentry.rules.conditions.nope.Nope/],
        [{ ...valid, conditions: [{ id: EVENT_FREQUENCY, value: 10, interval: '2h' }] }, /interval must be one of/],
        [{ ...valid, filters: [{ id: LEVEL_FILTER, match: 'gte', level: '41' }] }, /level must be one of/],
        [{ ...valid, actions: [{ id: APP_ACTION, sentryAppInstallationUuid: 'not-a-uuid' }] }, /sentryAppInstallationUuid must be a UUID/],
        [{ ...valid, actions: [{ id: APP_ACTION, sentryAppInstallationUuid: randomUUID(), settings: [] }] }, /actions\[0\]: no service app installation/],
        [{ ...valid, actions: [{ id: APP_ACTION, sentryAppInstallationUuid: installation, settings: [] }] }, /actions\[0\]: settings: channel is required/],
        [
          {
            ...valid,
            actions: [
              {
                id: APP_ACTION,
                sentryAppInstallationUuid: installation,
                settings: [
                  { name: 'channel', value: '#ops' },
                  { name: 'priority', value: 'urgent' },
                ],
              },
            ],
          },
          /priority must be one of high, low/,
        ],
        [{ ...valid, surprise: true }, /surprise/],
      ];
      for (const [body, detail] of cases) {
        const response = await api.request('POST', rulesPath, { body });
        expect(response.status).toBe(400);
        expect(response.body.detail).toMatch(detail);
      }
      expect((await api.request('GET', rulesPath)).body).toEqual([]);
      expect((await api.request('GET', '/api/0/projects/acme/nope/rules/')).status).toBe(404);
    });

    it('describes the conditions, filters and actions a rule editor offers, and each of them is accepted', async () => {
      const configuration = await api.request('GET', `${rulesPath}configuration/`);
      expect(configuration.status).toBe(200);
      expect(configuration.body.conditions.map((c: { id: string }) => c.id)).toEqual(expect.arrayContaining([FIRST_SEEN, EVENT_FREQUENCY]));
      expect(configuration.body.filters.find((f: { id: string }) => f.id === LEVEL_FILTER)).toMatchObject({
        label: "The event's level is {match} {level}",
        formFields: { level: { type: 'choice', choices: expect.arrayContaining([['40', 'error']]) } },
      });
      // Filling every form field with its first choice (or its placeholder) makes a valid rule.
      const fill = (item: { id: string; formFields?: Record<string, { choices?: Array<[string, string]>; placeholder?: unknown }> }) => ({
        id: item.id,
        ...Object.fromEntries(Object.entries(item.formFields ?? {}).map(([name, field]) => [name, field.choices ? field.choices[0][0] : field.placeholder])),
      });
      const rule = await api.request('POST', rulesPath, {
        body: {
          name: 'Everything',
          actionMatch: 'any',
          filterMatch: 'any',
          conditions: configuration.body.conditions.map(fill),
          filters: configuration.body.filters.map(fill),
          actions: configuration.body.actions.map(fill),
        },
      });
      expect(rule.status).toBe(201);
      expect((await api.request('DELETE', `${rulesPath}${rule.body.id}/`)).status).toBe(202);
    });
    it('checks scopes per route, and another organization sees none of the rules', async () => {
      const rule = await api.request('POST', rulesPath, {
        body: { name: 'Scoped', actionMatch: 'all', conditions: [{ id: FIRST_SEEN }], actions: [{ id: NOTIFY_EVENT }] },
      });
      const metric = await api.request('POST', '/api/0/organizations/acme/alert-rules/', {
        body: { name: 'Scoped metric', aggregate: 'count()', timeWindow: 5, projects: ['web'], triggers: [{ label: 'critical', alertThreshold: 1000 }] },
      });
      expect([rule.status, metric.status]).toEqual([201, 201]);
      const reader = await api.request('POST', '/api/0/api-tokens/', { body: { scopes: ['alerts:read'] } });
      expect((await api.request('GET', rulesPath, { token: reader.body.token })).status).toBe(200);
      expect((await api.request('GET', '/api/0/organizations/acme/alert-rules/', { token: reader.body.token })).status).toBe(200);
      expect(
        (
          await api.request('POST', rulesPath, {
            token: reader.body.token,
            body: { name: 'x', actionMatch: 'all', conditions: [], actions: [{ id: NOTIFY_EVENT }] },
          })
        ).status,
      ).toBe(403);
      expect((await api.request('DELETE', `/api/0/organizations/acme/alert-rules/${metric.body.id}/`, { token: reader.body.token })).status).toBe(403);

      expect((await api.request('POST', '/api/0/organizations/', { body: { name: 'Initech', slug: 'initech' } })).status).toBe(201);
      expect((await api.request('GET', `/api/0/organizations/initech/alert-rules/${metric.body.id}/`)).status).toBe(404);
      expect((await api.request('DELETE', `/api/0/organizations/initech/alert-rules/${metric.body.id}/`)).status).toBe(404);
      expect((await api.request('GET', '/api/0/organizations/initech/alert-rules/')).body).toEqual([]);
      expect((await api.request('GET', `/api/0/projects/initech/web/rules/${rule.body.id}/`)).status).toBe(404);
      expect((await api.request('DELETE', `${rulesPath}${rule.body.id}/`)).status).toBe(202);
      expect((await api.request('DELETE', `/api/0/organizations/acme/alert-rules/${metric.body.id}/`)).status).toBe(204);
    });
  });

  describe('issue alerts', () => {
    it('"a new issue is created" makes one SDK error deliver one event.alert with the spec\'s fields', async () => {
      await createHook('/new-issue');
      const rule = await api.request('POST', rulesPath, {
        body: { name: 'New issue', actionMatch: 'all', conditions: [{ id: FIRST_SEEN }], actions: [{ id: NOTIFY_EVENT }] },
      });
      expect(rule.status).toBe(201);

      await run(process.execPath, [join(__dirname, '..', 'support', 'sentry-client.cjs'), dsn, 'error-only'], { timeout: 30_000 });
      await api.app.get(EventProcessing).drain();
      const [delivery] = await receiver.waitFor('/new-issue', 1);
      const body = JSON.parse(delivery.rawBody);
      const [issue] = (await api.request('GET', '/api/0/projects/acme/web/issues/')).body;
      expect(Object.keys(body).sort()).toEqual(['culprit', 'event', 'id', 'message', 'project', 'project_name', 'triggering_rules', 'url'].sort());
      expect(body).toEqual({
        id: expect.stringMatching(/^[0-9a-f]{32}$/),
        project: 'web',
        project_name: expect.any(String),
        culprit: issue.culprit,
        url: `${api.baseUrl}/organizations/acme/issues/${issue.id}/`,
        message: expect.stringContaining('Card declined for amount 300'),
        triggering_rules: ['New issue'],
        event: {
          event_id: expect.stringMatching(/^[0-9a-f]{32}$/),
          level: 'error',
          tags: expect.arrayContaining([['feature', 'checkout']]),
          platform: 'node',
          datetime: expect.stringMatching(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{6}Z$/),
        },
      });
      expect(delivery.headers['x-sentry-hook-signature']).toMatch(/^[0-9a-f]{64}$/);

      // The same error again is not a new issue: nothing more fires.
      await run(process.execPath, [join(__dirname, '..', 'support', 'sentry-client.cjs'), dsn, 'error-only'], { timeout: 30_000 });
      await api.app.get(EventProcessing).drain();
      expect(await alertDeliveries()).toBe(1);

      const history = await api.request('GET', `${rulesPath}${rule.body.id}/history/`);
      expect(history.status).toBe(200);
      expect(history.body).toEqual([
        {
          id: expect.any(String),
          ruleId: rule.body.id,
          issueId: issue.id,
          eventId: body.event.event_id,
          dateFired: clock.now().toISOString(),
          deliveries: [expect.objectContaining({ id: body.id, eventType: 'event.alert', target: { kind: 'service_hook', id: expect.any(String) } })],
        },
      ]);
      const groups = await api.request('GET', `${rulesPath}${rule.body.id}/group-history/`);
      expect(groups.body).toEqual([expect.objectContaining({ group: expect.objectContaining({ id: issue.id }), count: 1, eventId: body.event.event_id })]);
      expect((await api.request('DELETE', `${rulesPath}${rule.body.id}/`)).status).toBe(202);
    });

    it('a frequency rule fires once when its threshold is crossed, respects its action interval, and remembers it across a restart', async () => {
      await createHook('/busy');
      const rule = await api.request('POST', rulesPath, {
        body: {
          name: 'Busy issue',
          actionMatch: 'all',
          frequency: 30,
          conditions: [{ id: EVENT_FREQUENCY, value: 2, interval: '1h', comparisonType: 'count' }],
          actions: [{ id: NOTIFY_EVENT }],
        },
      });
      expect(rule.status).toBe(201);
      const before = await alertDeliveries();

      await sendError('Checkout timed out');
      await sendError('Checkout timed out');
      expect(await alertDeliveries()).toBe(before);
      const third = await sendError('Checkout timed out');
      expect(await alertDeliveries()).toBe(before + 1);
      const [alert] = await receiver.waitFor('/busy', 1);
      expect(JSON.parse(alert.rawBody)).toMatchObject({ triggering_rules: ['Busy issue'], event: { event_id: third } });

      // Within the action interval: more events, and a restart, fire nothing.
      await sendError('Checkout timed out');
      await api.restart();
      await sendError('Checkout timed out');
      expect(await alertDeliveries()).toBe(before + 1);

      // Past it, the next event over the threshold fires again.
      clock.advance(31 * 60_000);
      const later = await sendError('Checkout timed out');
      expect(await alertDeliveries()).toBe(before + 2);
      const alerts = await receiver.waitFor('/busy', 2);
      expect(JSON.parse(alerts[1].rawBody)).toMatchObject({ triggering_rules: ['Busy issue'], event: { event_id: later } });

      const history = (await api.request('GET', `${rulesPath}${rule.body.id}/history/`)).body;
      expect(history.map((fire: { eventId: string }) => fire.eventId)).toEqual([later, third]);
      expect((await api.request('DELETE', `${rulesPath}${rule.body.id}/`)).status).toBe(202);
    });
    it('a resolved issue that comes back fires the regression rule; a level filter keeps warnings out; more than N users fires the user rule', async () => {
      await createHook('/regression');
      const regression = await api.request('POST', rulesPath, {
        body: {
          name: 'Regressed errors',
          actionMatch: 'all',
          filterMatch: 'all',
          conditions: [{ id: 'sentry.rules.conditions.regression_event.RegressionEventCondition' }],
          filters: [{ id: LEVEL_FILTER, match: 'gte', level: '40' }],
          actions: [{ id: NOTIFY_EVENT }],
        },
      });
      const users = await api.request('POST', rulesPath, {
        body: {
          name: 'Many users',
          actionMatch: 'all',
          conditions: [{ id: 'sentry.rules.conditions.event_frequency.EventUniqueUserFrequencyCondition', value: 1, interval: '1h' }],
          filters: [{ id: 'sentry.rules.filters.tagged_event.TaggedEventFilter', key: 'region', match: 'eq', value: 'eu' }],
          actions: [{ id: NOTIFY_EVENT }],
        },
      });
      expect([regression.status, users.status]).toEqual([201, 201]);

      await sendError('Inventory sync failed');
      const {
        body: [issue],
      } = await api.request('GET', `/api/0/organizations/acme/issues/?query=${encodeURIComponent('is:unresolved Inventory sync failed')}`);
      expect(issue.title).toContain('Inventory sync failed');
      expect((await api.request('PUT', `/api/0/organizations/acme/issues/${issue.id}/`, { body: { status: 'resolved' } })).status).toBe(200);
      const before = await alertDeliveries();
      const back = await sendError('Inventory sync failed');
      expect(await alertDeliveries()).toBe(before + 1);
      const regressed = (await receiver.waitFor('/regression', 1)).map((r) => JSON.parse(r.rawBody)).find((b) => b.event.event_id === back);
      expect(regressed).toMatchObject({ triggering_rules: ['Regressed errors'] });
      expect((await api.request('GET', `${rulesPath}${regression.body.id}/history/`)).body.map((f: { eventId: string }) => f.eventId)).toEqual([back]);

      // A warning that regresses is filtered out.
      await sendError('Cache nearly full', 'warning');
      const {
        body: [warned],
      } = await api.request('GET', `/api/0/organizations/acme/issues/?query=${encodeURIComponent('Cache nearly full')}`);
      await api.request('PUT', `/api/0/organizations/acme/issues/${warned.id}/`, { body: { status: 'resolved' } });
      await sendError('Cache nearly full', 'warning');
      expect((await api.request('GET', `${rulesPath}${regression.body.id}/history/`)).body).toHaveLength(1);

      // Two distinct users of one issue within the hour: more than one, so the user rule fires, once.
      const withUser = async (id: string) => {
        const response = await fetch(`${api.baseUrl}/api/${projectId}/store/?sentry_key=${publicKey}`, {
          method: 'POST',
          headers: { 'content-type': 'application/json' },
          body: JSON.stringify({ level: 'error', platform: 'node', message: 'Login loop', tags: { region: 'eu' }, user: { id } }),
        });
        expect(response.status).toBe(200);
        await api.app.get(EventProcessing).drain();
      };
      await withUser('u-1');
      await withUser('u-1');
      expect((await api.request('GET', `${rulesPath}${users.body.id}/history/`)).body).toHaveLength(0);
      await withUser('u-2');
      await withUser('u-3');
      expect((await api.request('GET', `${rulesPath}${users.body.id}/history/`)).body).toHaveLength(1);
      await api.request('DELETE', `${rulesPath}${regression.body.id}/`);
      await api.request('DELETE', `${rulesPath}${users.body.id}/`);
    });
    it("a rule with a service-app action sends event_alert.triggered to the installed app, with the action's settings", async () => {
      const rule = await api.request('POST', rulesPath, {
        body: {
          name: 'To the app',
          actionMatch: 'all',
          conditions: [{ id: FIRST_SEEN }],
          actions: [
            {
              id: APP_ACTION,
              sentryAppInstallationUuid: installation,
              settings: [
                { name: 'channel', value: '#ops' },
                { name: 'priority', value: 'high' },
              ],
            },
          ],
        },
      });
      expect(rule.status).toBe(201);
      const before = await alertDeliveries();
      const eventId = await sendError('Report export crashed');
      const [{ headers, body }] = await appWebhooks('event_alert', 1);
      expect(headers['sentry-hook-signature']).toMatch(/^[0-9a-f]{64}$/);
      const {
        body: [issue],
      } = await api.request('GET', `/api/0/organizations/acme/issues/?query=${encodeURIComponent('Report export crashed')}`);
      expect(body).toEqual({
        action: 'triggered',
        installation: { uuid: installation },
        data: {
          event: expect.objectContaining({
            event_id: eventId,
            issue_id: issue.id,
            level: 'error',
            web_url: `${api.baseUrl}/organizations/acme/issues/${issue.id}/events/${eventId}/`,
            issue_url: `${api.baseUrl}/api/0/organizations/acme/issues/${issue.id}/`,
          }),
          triggered_rule: 'To the app',
          issue_alert: {
            id: Number(rule.body.id),
            title: 'To the app',
            sentry_app_id: null,
            settings: [
              { name: 'channel', value: '#ops' },
              { name: 'priority', value: 'high' },
            ],
          },
        },
        actor: { type: 'application', id: 'sentry', name: 'Sentry' },
      });
      const history = (await api.request('GET', `${rulesPath}${rule.body.id}/history/`)).body;
      expect(history).toEqual([
        expect.objectContaining({
          eventId,
          deliveries: [
            expect.objectContaining({ id: headers['request-id'], eventType: 'event_alert.triggered', target: { kind: 'sentry_app', id: expect.any(String) } }),
          ],
        }),
      ]);
      // Service hooks hear only from rules with the service-hook action.
      expect(await alertDeliveries()).toBe(before);
      await api.request('DELETE', `${rulesPath}${rule.body.id}/`);
    });
  });

  describe('metric alerts', () => {
    const alertRulesPath = '/api/0/organizations/acme/alert-rules/';

    it('refuses bad metric rules with 400', async () => {
      const valid = { name: 'm', aggregate: 'count()', timeWindow: 1, projects: ['web'], triggers: [{ label: 'critical', alertThreshold: 5, actions: [] }] };
      const cases: Array<[Record<string, unknown>, RegExp]> = [
        [{ ...valid, aggregate: 'p95(transaction.duration)' }, /aggregate/],
        [{ ...valid, timeWindow: 7 }, /timeWindow/],
        [{ ...valid, projects: ['nope'] }, /Invalid project nope/],
        [{ ...valid, triggers: [{ label: 'warning', alertThreshold: 5 }] }, /critical/],
        [
          {
            ...valid,
            triggers: [
              { label: 'critical', alertThreshold: 5 },
              { label: 'warning', alertThreshold: 10 },
            ],
          },
          /warning/,
        ],
        [{ ...valid, resolveThreshold: 9 }, /resolveThreshold/],
        [
          { ...valid, triggers: [{ label: 'critical', alertThreshold: 5, actions: [{ type: 'email', targetType: 'user', targetIdentifier: '1' }] }] },
          /sentry_app/,
        ],
        [
          { ...valid, triggers: [{ label: 'critical', alertThreshold: 5, actions: [{ type: 'sentry_app', sentryAppInstallationUuid: randomUUID() }] }] },
          /no service app installation/,
        ],
      ];
      for (const [body, detail] of cases) {
        const response = await api.request('POST', alertRulesPath, { body });
        expect(response.status).toBe(400);
        expect(response.body.detail).toMatch(detail);
      }
      expect((await api.request('GET', alertRulesPath)).body).toEqual([]);
    });

    it('moves an incident open, critical, resolved as the error rate rises and falls, each move an event, a metric_alert webhook to the app and a line of history', async () => {
      const created = await api.request('POST', alertRulesPath, {
        body: {
          name: 'Error spike',
          aggregate: 'count()',
          timeWindow: 1,
          thresholdType: 0,
          resolveThreshold: 2,
          projects: ['web'],
          triggers: [
            {
              label: 'critical',
              alertThreshold: 5,
              actions: [
                { type: 'sentry_app', targetType: 'sentry_app', sentryAppInstallationUuid: installation, settings: [{ name: 'channel', value: '#incidents' }] },
              ],
            },
          ],
        },
      });
      expect(created.status).toBe(201);
      expect(created.body).toMatchObject({
        id: expect.stringMatching(/^\d+$/),
        name: 'Error spike',
        aggregate: 'count()',
        timeWindow: 1,
        thresholdType: 0,
        resolveThreshold: 2,
        dataset: 'events',
        projects: ['web'],
        status: 0,
        triggers: [
          {
            id: expect.stringMatching(/^\d+$/),
            label: 'critical',
            alertThreshold: 5,
            actions: [expect.objectContaining({ type: 'sentry_app', sentryAppInstallationUuid: installation })],
          },
        ],
      });
      const ruleId = created.body.id as string;
      expect((await api.request('GET', `${alertRulesPath}${ruleId}/`)).body).toEqual(created.body);
      const worker = api.app.get(MetricAlertEvaluation);

      // Quiet: nothing in the last minute.
      clock.advance(2 * 60_000);
      await worker.evaluateDue();
      expect((await api.request('GET', `/api/0/organizations/acme/incidents/?alertRule=${ruleId}`)).body).toEqual([]);

      // Six errors in the window: over the critical threshold of five.
      for (let i = 0; i < 6; i++) await sendError(`Payment service unavailable ${i}`);
      clock.advance(2_000);
      await worker.evaluateDue();
      const [incident] = (await api.request('GET', `/api/0/organizations/acme/incidents/?alertRule=${ruleId}`)).body;
      expect(incident).toMatchObject({
        identifier: '1',
        status: 20,
        statusName: 'critical',
        title: 'Error spike',
        projects: ['web'],
        dateClosed: null,
        alertRule: { id: ruleId },
      });

      // Still critical: evaluating again moves nothing.
      clock.advance(2_000);
      await worker.evaluateDue();

      // The minute passes with no errors: below the resolve threshold, the incident resolves.
      clock.advance(60_000);
      await worker.evaluateDue();
      const resolved = await api.request('GET', `/api/0/organizations/acme/incidents/${incident.identifier}/`);
      expect(resolved.body).toMatchObject({ identifier: '1', status: 2, statusName: 'resolved', dateClosed: clock.now().toISOString() });
      expect((await api.request('GET', '/api/0/organizations/acme/incidents/?status=open')).body).toEqual([]);

      const activity = (await api.request('GET', `/api/0/organizations/acme/incidents/${incident.identifier}/activity/`)).body;
      expect(
        activity.map((a: { type: string; previousStatus: string | null; status: string; value: number }) => [a.type, a.previousStatus, a.status, a.value]),
      ).toEqual([
        ['detected', null, 'open', 6],
        ['status_change', 'open', 'critical', 6],
        ['resolved', 'critical', 'resolved', 0],
      ]);
      const facts = await api.app
        .get(Database)
        .query<{ event_type: string; event_id: string }>(`SELECT event_type, event_id FROM event_store.events WHERE stream_id = $1 ORDER BY version`, [
          `incident-${incident.id}`,
        ]);
      expect(facts.map((f) => f.event_type)).toEqual(['alerts.IncidentOpened', 'alerts.IncidentStatusChanged', 'alerts.IncidentResolved']);
      expect(activity.map((a: { eventId: string }) => a.eventId)).toEqual(facts.map((f) => f.event_id));

      // Each move went to the installed app as metric_alert.<status>, signed with its secret.
      const webhooks = (await appWebhooks('metric_alert', 3)).map((w) => w.body);
      expect(webhooks.map((w) => w.action)).toEqual(['open', 'critical', 'resolved']);
      expect(webhooks[1]).toEqual({
        action: 'critical',
        installation: { uuid: installation },
        data: {
          metric_alert: expect.objectContaining({
            id: incident.id,
            identifier: '1',
            status: 20,
            title: 'Error spike',
            projects: ['web'],
            alert_rule: expect.objectContaining({
              id: ruleId,
              name: 'Error spike',
              aggregate: 'count()',
              time_window: 1,
              triggers: [expect.objectContaining({ label: 'critical', alert_threshold: 5 })],
            }),
          }),
          description_text: '6 events in the last 1 minute',
          description_title: 'Critical: Error spike',
          web_url: `${api.baseUrl}/organizations/acme/alerts/rules/details/${ruleId}/?alert=1`,
        },
        actor: { type: 'application', id: 'sentry', name: 'Sentry' },
      });
      expect(webhooks[2].data).toMatchObject({
        metric_alert: { status: 2, date_closed: clock.now().toISOString() },
        description_title: 'Resolved: Error spike',
        description_text: '0 events in the last 1 minute',
      });
      expect(activity.map((a: { deliveries: Array<{ eventType: string }> }) => a.deliveries.map((d) => d.eventType))).toEqual([
        ['metric_alert.open'],
        ['metric_alert.critical'],
        ['metric_alert.resolved'],
      ]);

      expect((await api.request('DELETE', `${alertRulesPath}${ruleId}/`)).status).toBe(204);
      expect((await api.request('GET', `${alertRulesPath}${ruleId}/`)).status).toBe(404);
    });
  });
});
