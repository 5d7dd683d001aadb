import { randomUUID } from 'node:crypto';
import type { Browser, Page } from 'playwright-core';
import { EventProcessing } from '@faultline/ingest';
import { launchBrowser, newPage, screenshot, signIn } from '../support/browser';
import { startTestApp, type TestApp } from '../support/test-app';
import { WebhookReceiver } from '../support/webhook-receiver';

const RULES = '/api/0/projects/acme/web/rules/';

/**
 * The alert pages in Chromium (no SMTP_URL): an issue rule with a frequency condition, filters and an
 * environment fires on real events and shows in its history; a rule made through the API with every
 * kind saves unchanged; a rule with the issue occurrences filter fires and its history draws its fires per
 * hour; a metric alert is created, opens an incident, is edited and deleted; a role that cannot change
 * alerts sees none of the controls that change them.
 */
describe('web interface: alerts (browser)', () => {
  let app: TestApp;
  let browser: Browser;
  let page: Page;
  let errors: string[];
  const receiver = new WebhookReceiver();

  beforeAll(async () => {
    browser = await launchBrowser();
    await receiver.start();
    app = await startTestApp({ WEBHOOK_ALLOW_PRIVATE: 'true', WEBHOOK_TIMEOUT_MS: '2000', METRIC_ALERT_EVALUATION_SECONDS: '1' });
    ({ page, errors } = await newPage(browser));
    await signIn(page, app);
  });

  afterAll(async () => {
    await browser?.close();
    await app?.close();
    await receiver.close();
  });

  afterEach(() => {
    expect(errors.splice(0)).toEqual([]);
  });

  async function sendError(message: string, environment: string): Promise<void> {
    const keys = await app.request('GET', '/api/0/projects/acme/web/keys/');
    const response = await fetch(`${app.baseUrl}/api/${keys.body[0].projectId}/store/?sentry_key=${keys.body[0].public}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ event_id: randomUUID().replace(/-/g, ''), level: 'error', message, environment }),
    });
    expect(response.status).toBe(200);
    await app.app.get(EventProcessing).drain();
  }

  it('creates a rule with a frequency condition, filters and an environment; it fires on real events and its history shows it', async () => {
    await sendError('Checkout failed', 'production');
    await page.goto(`${app.baseUrl}/organizations/acme/alerts/rules/`);
    await page.getByText('No rules yet.').waitFor();
    await page.getByLabel('Name', { exact: true }).fill('Checkout storm');
    await page.getByLabel('Environment').selectOption('production');
    await page
      .getByRole('group', { name: /^When 1:/ })
      .getByRole('button', { name: 'Remove' })
      .click();
    await page.getByLabel('Add a condition').selectOption({ label: 'The issue is seen more than … times in …' });
    const condition = page.getByRole('group', { name: /^When 1:/ });
    await condition.getByLabel('Value').fill('1');
    await condition.getByLabel('Interval').selectOption('1h');
    await page.getByLabel('Add a filter').selectOption({ label: "The event's level is … …" });
    const level = page.getByRole('group', { name: /^If 1:/ });
    await level.getByLabel('Match').selectOption('gte');
    await level.getByLabel('Level').selectOption({ label: 'error' });
    await page.getByLabel('Add a filter').selectOption({ label: "The event's tags match … … …" });
    const tag = page.getByRole('group', { name: /^If 2:/ });
    await tag.getByLabel('Tag').fill('environment');
    await tag.getByLabel('Match').selectOption('eq');
    await tag.getByLabel('Value').fill('production');
    await page
      .getByRole('group', { name: /^Then 1:/ })
      .getByRole('button', { name: 'Remove' })
      .click();
    await page.getByLabel('Add an action').selectOption({ label: 'Send a Slack message' });
    await page.getByLabel('Incoming webhook URL').fill(`${receiver.url}/storm`);
    await page.getByLabel('Action interval (minutes)').fill('5');
    await page.getByRole('button', { name: 'Create rule' }).click();
    await page.getByText('Rule Checkout storm created.').waitFor();
    await page.getByRole('cell', { name: 'The issue is seen more than 1 times in 1h' }).waitFor();
    await page.getByRole('cell', { name: 'Never' }).waitFor();

    const [rule] = (await app.request('GET', RULES)).body;
    expect(rule).toMatchObject({
      environment: 'production',
      frequency: 5,
      conditions: [{ id: 'sentry.rules.conditions.event_frequency.EventFrequencyCondition', value: 1, interval: '1h', comparisonType: 'count' }],
      filters: [
        { id: 'sentry.rules.filters.level.LevelFilter', match: 'gte', level: '40' },
        { id: 'sentry.rules.filters.tagged_event.TaggedEventFilter', key: 'environment', match: 'eq', value: 'production' },
      ],
    });

    // Seen once since the rule exists: not more than once yet, so no fire is recorded.
    await sendError('Checkout failed', 'production');
    expect((await app.request('GET', `${RULES}${rule.id}/group-history/`)).body).toEqual([]);
    await sendError('Checkout failed', 'production');
    const [posted] = await receiver.waitFor('/storm', 1);
    expect(JSON.parse(posted.rawBody).text).toContain('Checkout storm');

    await page.reload();
    await page.getByRole('cell', { name: 'Checkout storm', exact: true }).waitFor();
    expect(await page.getByRole('cell', { name: 'Never' }).count()).toBe(0);
    await page.getByRole('button', { name: 'History of Checkout storm' }).click();
    const history = page.getByRole('region', { name: 'History of Checkout storm' });
    await history.getByRole('cell', { name: /Checkout failed/ }).waitFor();
    expect(await history.locator('td.number').textContent()).toBe('1');
    await screenshot(page, 'alert-rule-history');
  });

  it("creates a rule with the issue occurrences filter; its history draws the rule's fires per hour at 1280 and 390 px", async () => {
    const failed: string[] = [];
    const onResponse = (response: { status(): number; url(): string }) => {
      if (response.status() >= 400) failed.push(`${response.status()} ${response.url()}`);
    };
    // The first event: the project then has an environment to offer (its environment values answer 404 before).
    await sendError('Cart emptied', 'production');
    page.on('response', onResponse);
    await page.goto(`${app.baseUrl}/organizations/acme/alerts/rules/`);
    await page.getByRole('heading', { name: 'New rule' }).waitFor();
    await page.getByLabel('Name', { exact: true }).fill('Seen thrice');
    await page
      .getByRole('group', { name: /^When 1:/ })
      .getByRole('button', { name: 'Remove' })
      .click();
    await page.getByLabel('Add a condition').selectOption({ label: 'The event occurs' });
    await page.getByLabel('Add a filter').selectOption({ label: 'The issue has happened at least … times' });
    await page
      .getByRole('group', { name: /^If 1:/ })
      .getByLabel('Value')
      .fill('3');
    await page
      .getByRole('group', { name: /^Then 1:/ })
      .getByRole('button', { name: 'Remove' })
      .click();
    await page.getByLabel('Add an action').selectOption({ label: 'Send a Slack message' });
    await page.getByLabel('Incoming webhook URL').fill(`${receiver.url}/thrice`);
    await page.getByRole('button', { name: 'Create rule' }).click();
    await page.getByText('Rule Seen thrice created.').waitFor();
    const rule = (await app.request('GET', RULES)).body.find((r: { name: string }) => r.name === 'Seen thrice');
    expect(rule.filters).toEqual([
      { id: 'sentry.rules.filters.issue_occurrences.IssueOccurrencesFilter', value: 3, name: 'The issue has happened at least 3 times' },
    ]);

    // The second event is filtered out; the third passes.
    await sendError('Cart emptied', 'production');
    expect((await app.request('GET', `${RULES}${rule.id}/group-history/`)).body).toEqual([]);
    await sendError('Cart emptied', 'production');
    await receiver.waitFor('/thrice', 1);

    await page.reload();
    await page.getByRole('button', { name: 'History of Seen thrice' }).click();
    const history = page.getByRole('region', { name: 'History of Seen thrice' });
    await history.getByRole('img', { name: '1 fire in the last 14 days' }).waitFor();
    await history.getByRole('cell', { name: /Cart emptied/ }).waitFor();
    await screenshot(page, 'alert-rule-fires', 'alert-rule-fires');
    page.off('response', onResponse);
    expect(failed).toEqual([]);

    const narrow = await newPage(browser);
    await narrow.page.setViewportSize({ width: 390, height: 844 });
    await signIn(narrow.page, app);
    await narrow.page.goto(`${app.baseUrl}/organizations/acme/alerts/rules/`);
    await narrow.page.getByRole('button', { name: 'History of Seen thrice' }).click();
    await narrow.page.getByRole('region', { name: 'History of Seen thrice' }).getByRole('img', { name: '1 fire in the last 14 days' }).waitFor();
    expect(await narrow.page.evaluate<number>('document.documentElement.scrollWidth')).toBeLessThanOrEqual(390);
    await screenshot(narrow.page, 'alert-rule-fires-narrow');
    expect(narrow.errors).toEqual([]);
    await narrow.page.context().close();
    await app.request('DELETE', `${RULES}${rule.id}/`);
  });

  it('opens a rule made through the API with every kind of condition, filter and action, and saves it unchanged', async () => {
    const team = await app.request('POST', '/api/0/organizations/acme/teams/', { body: { slug: 'oncall', name: 'On call' } });
    expect(team.status).toBe(201);
    const members = await app.request('GET', '/api/0/organizations/acme/members/');
    const userId = members.body[0].user.id;
    const created = await app.request('POST', RULES, {
      body: {
        name: 'Everything',
        actionMatch: 'any',
        filterMatch: 'none',
        frequency: 17,
        environment: 'staging',
        owner: `team:${team.body.id}`,
        conditions: [
          { id: 'sentry.rules.conditions.first_seen_event.FirstSeenEventCondition' },
          { id: 'sentry.rules.conditions.regression_event.RegressionEventCondition' },
          { id: 'sentry.rules.conditions.every_event.EveryEventCondition' },
          { id: 'sentry.rules.conditions.event_frequency.EventFrequencyCondition', value: 250, interval: '15m', comparisonType: 'count' },
          { id: 'sentry.rules.conditions.event_frequency.EventUniqueUserFrequencyCondition', value: '3', interval: '1d' },
          { id: 'sentry.rules.conditions.event_frequency.EventFrequencyPercentCondition', value: 2.5, interval: '30m' },
          { id: 'sentry.rules.conditions.reappeared_event.ReappearedEventCondition' },
        ],
        filters: [
          { id: 'sentry.rules.filters.level.LevelFilter', match: 'lte', level: '30' },
          { id: 'sentry.rules.filters.tagged_event.TaggedEventFilter', key: 'browser', match: 'ns' },
          { id: 'sentry.rules.filters.tagged_event.TaggedEventFilter', key: 'release', match: 'sw', value: '1.' },
          { id: 'sentry.rules.filters.age_comparison.AgeComparisonFilter', comparison_type: 'newer', value: 3, time: 'day' },
          { id: 'sentry.rules.filters.event_attribute.EventAttributeFilter', attribute: 'message', match: 'co', value: 'timeout' },
          { id: 'sentry.rules.filters.issue_occurrences.IssueOccurrencesFilter', value: 100 },
          { id: 'sentry.rules.filters.assigned_to.AssignedToFilter', targetType: 'Team', targetIdentifier: team.body.id },
          { id: 'sentry.rules.filters.assigned_to.AssignedToFilter', targetType: 'Member', targetIdentifier: userId },
          { id: 'sentry.rules.filters.assigned_to.AssignedToFilter', targetType: 'Unassigned' },
          { id: 'sentry.rules.filters.latest_release.LatestReleaseFilter' },
        ],
        actions: [
          { id: 'sentry.rules.actions.notify_event.NotifyEventAction' },
          { id: 'sentry.mail.actions.NotifyEmailAction', targetType: 'Member', targetIdentifier: userId },
          { id: 'sentry.mail.actions.NotifyEmailAction', targetType: 'Team', targetIdentifier: team.body.id },
          { id: 'sentry.mail.actions.NotifyEmailAction', targetType: 'IssueOwners', fallthroughType: 'NoOne' },
          { id: 'faultline.rules.actions.notify_chat.SlackWebhookAction', webhookUrl: `${receiver.url}/slack` },
          { id: 'faultline.rules.actions.notify_chat.DiscordWebhookAction', webhookUrl: `${receiver.url}/discord` },
          { id: 'faultline.rules.actions.notify_chat.MsTeamsWebhookAction', webhookUrl: `${receiver.url}/teams` },
          { id: 'faultline.rules.actions.notify_chat.MattermostWebhookAction', webhookUrl: `${receiver.url}/mattermost` },
        ],
      },
    });
    expect(created.status).toBe(201);
    const before = (await app.request('GET', `${RULES}${created.body.id}/`)).body;

    await page.goto(`${app.baseUrl}/organizations/acme/alerts/rules/`);
    await page
      .getByRole('row', { name: /Everything/ })
      .getByRole('button', { name: 'Edit' })
      .click();
    await page.getByRole('heading', { name: 'Edit rule Everything' }).waitFor();
    expect(await page.getByLabel('Environment').inputValue()).toBe('staging');
    expect(await page.getByLabel('Owner').inputValue()).toBe(`team:${team.body.id}`);
    expect(
      await page
        .getByRole('group', { name: /^When 4:/ })
        .getByLabel('Value')
        .inputValue(),
    ).toBe('250');
    const assignedToTeam = page.getByRole('group', { name: /^If 7:/ });
    expect(await assignedToTeam.getByLabel('Assigned to').inputValue()).toBe('Team');
    expect(await assignedToTeam.getByLabel('Team').inputValue()).toBe(String(team.body.id));
    expect(
      await page
        .getByRole('group', { name: /^If 9:/ })
        .getByLabel('Team')
        .count(),
    ).toBe(0);
    await page.getByRole('button', { name: 'Save rule' }).click();
    await page.getByText('Rule Everything saved.').waitFor();
    const after = (await app.request('GET', `${RULES}${created.body.id}/`)).body;
    expect(after).toEqual(before);
  });

  it('tells the truth about a test e-mail when the server has no SMTP_URL', async () => {
    await page.goto(`${app.baseUrl}/organizations/acme/alerts/rules/`);
    await page.getByRole('heading', { name: 'New rule' }).waitFor();
    await page.getByRole('button', { name: 'Send test notification' }).click();
    await page.getByText(/this server sends no mail \(SMTP_URL is not set\)/).waitFor();
    expect(await page.getByText(/Test notification queued/).count()).toBe(0);
  });

  it('creates a metric alert that opens an incident, edits and deletes it', async () => {
    await page.goto(`${app.baseUrl}/organizations/acme/alerts/metric-rules/`);
    await page.getByText('No metric alerts yet.').waitFor();
    await page.getByLabel('Name', { exact: true }).fill('Any error');
    await page.getByLabel('Time window').selectOption('1');
    await page.getByLabel('Critical threshold').fill('1');
    await page.getByLabel('Warning threshold (optional)').fill('0');
    await page.getByLabel('Filter (optional)').fill('level:[error,fatal]');
    await page.getByLabel('Environment').selectOption('production');
    await page.getByRole('button', { name: 'Create metric alert' }).click();
    await page.getByText('Metric alert Any error created.').waitFor();
    const [rule] = (await app.request('GET', '/api/0/organizations/acme/alert-rules/')).body;
    expect(rule).toMatchObject({
      name: 'Any error',
      aggregate: 'count()',
      query: 'level:[error,fatal]',
      environment: 'production',
      timeWindow: 1,
      thresholdType: 0,
      projects: ['web'],
      resolveThreshold: null,
    });
    expect(rule.triggers.map((t: { label: string; alertThreshold: number }) => [t.label, t.alertThreshold])).toEqual([
      ['critical', 1],
      ['warning', 0],
    ]);

    await sendError('Metric one', 'production');
    await sendError('Metric two', 'production');
    for (let tries = 0; tries < 50; tries++) {
      const incidents = await app.request('GET', `/api/0/organizations/acme/incidents/?alertRule=${rule.id}`);
      if (incidents.body.some((incident: { statusName: string }) => incident.statusName === 'critical')) break;
      await new Promise((resolve) => setTimeout(resolve, 200));
    }
    await page.reload();
    await page.getByRole('region', { name: 'Incidents' }).locator('.status-critical').waitFor();
    const ruleRow = page.getByRole('region', { name: 'Metric alert rules' }).getByRole('row', { name: /Any error/ });
    await ruleRow.locator('.status-critical').waitFor();

    await ruleRow.getByRole('button', { name: 'Edit' }).click();
    await page.getByLabel('Critical threshold').fill('100');
    await page.getByRole('button', { name: 'Save metric alert' }).click();
    await page.getByText('Metric alert Any error saved.').waitFor();
    const [edited] = (await app.request('GET', '/api/0/organizations/acme/alert-rules/')).body;
    expect(edited.triggers[0]).toMatchObject({ id: rule.triggers[0].id, label: 'critical', alertThreshold: 100 });

    await ruleRow.getByRole('button', { name: 'Delete' }).click();
    await page.getByText('No metric alerts yet.').waitFor();
  });

  it('shows no create, edit or delete controls to a member whose role cannot change alerts', async () => {
    const invited = await app.request('POST', '/api/0/organizations/acme/members/', { body: { email: 'books@example.test', orgRole: 'billing' } });
    expect(invited.status).toBe(201);
    const accept = new URL(invited.body.invite_link).pathname.replace(/^\/accept\//, '/api/0/accept-invite/');
    const accepted = await app.request('POST', accept, { token: null, body: { name: 'Bo Books', password: 'a long enough password' } });
    expect(accepted.status).toBe(200);
    const [name, value] = (accepted.headers.get('set-cookie') ?? '').split(';')[0].split('=');
    // Billing reads the organization (metric alerts among it), not its projects' issue alert rules.
    const metric = await app.request('POST', '/api/0/organizations/acme/alert-rules/', {
      body: {
        name: 'Read only',
        aggregate: 'count()',
        timeWindow: 60,
        projects: ['web'],
        triggers: [{ label: 'critical', alertThreshold: 1000, actions: [] }],
      },
    });
    expect(metric.status).toBe(201);
    const billing = await newPage(browser);
    await billing.page.context().addCookies([{ name, value, url: app.baseUrl }]);
    for (const [path, what] of [
      ['alerts/rules/', 'create, edit or delete alert rules'],
      ['alerts/metric-rules/', 'create, edit or delete metric alerts'],
    ]) {
      await billing.page.goto(`${app.baseUrl}/organizations/acme/${path}`);
      await billing.page.getByText(`Your role cannot ${what} (it needs alerts:write).`).waitFor();
      for (const control of [/^Create/, 'Edit', 'Delete']) expect(await billing.page.getByRole('button', { name: control }).count()).toBe(0);
    }
    await billing.page.getByRole('row', { name: /Read only/ }).waitFor();
    expect(await billing.page.getByRole('button', { name: /Edit|Delete/ }).count()).toBe(0);
    expect(billing.errors).toEqual([]);
    await billing.page.context().close();
    await app.request('DELETE', `/api/0/organizations/acme/alert-rules/${metric.body.id}/`);
  });

  it('keeps the alert pages within a 390 px wide screen', async () => {
    const narrow = await newPage(browser);
    await narrow.page.setViewportSize({ width: 390, height: 844 });
    await signIn(narrow.page, app);
    for (const path of ['alerts/rules/', 'alerts/metric-rules/']) {
      await narrow.page.goto(`${app.baseUrl}/organizations/acme/${path}`);
      await narrow.page.getByRole('button', { name: /Create/ }).waitFor();
      const width = await narrow.page.evaluate<number>('document.documentElement.scrollWidth');
      expect(width).toBeLessThanOrEqual(390);
    }
    await screenshot(narrow.page, 'alert-rules-narrow');
    expect(narrow.errors).toEqual([]);
    await narrow.page.context().close();
  });
});
