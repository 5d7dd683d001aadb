import { execFile } from 'node:child_process';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { installMcpServer, McpClient } from '../support/mcp-client';
import { startTestApp, type TestApp } from '../support/test-app';
import { eventsProcessed } from '../support/events-processed';

const run = promisify(execFile);

/** The scopes docs/api.md tells users to give the MCP server's token. */
const MCP_SCOPES = ['org:read', 'project:read', 'project:write', 'team:read', 'team:write', 'event:read', 'event:write', 'alerts:read'];

/**
 * The tools the server lists at the top level; every other tool is reached through its catalog
 * (`execute_sentry_tool`). A tool a later version adds or moves shows up here.
 */
const DIRECT_TOOLS = [
  'find_organizations',
  'find_projects',
  'update_issue',
  'search_events',
  'analyze_issue_with_seer',
  'search_issues',
  'get_sentry_resource',
  'search_sentry_tools',
  'execute_sentry_tool',
];

describe("Sentry's MCP server against Faultline", () => {
  let api: TestApp;
  let mcp: McpClient;
  let token: string;

  const processed = () => eventsProcessed(api);

  /** Calls a tool and keeps its answer; a tool that errors fails the test with its text. */
  async function tool(name: string, args: Record<string, unknown>): Promise<string> {
    const answer = DIRECT_TOOLS.includes(name) ? await mcp.call(name, args) : await mcp.call('execute_sentry_tool', { name, arguments: args });
    expect({ name, isError: answer.isError, text: answer.isError ? answer.text : '' }).toEqual({ name, isError: false, text: '' });
    return answer.text;
  }

  beforeAll(async () => {
    await installMcpServer();
    api = await startTestApp();
    token = (await api.request('POST', '/api/0/api-tokens/', { body: { scopes: MCP_SCOPES, name: 'mcp' } })).body.token;
    const keys = await api.request('GET', '/api/0/projects/acme/web/keys/');
    const dsn = keys.body[0].dsn.public;
    for (const scenario of ['checkout', 'checkout-details']) {
      await run(process.execPath, [join(__dirname, '..', 'support', 'sentry-client.cjs'), dsn, scenario], { timeout: 30_000 });
    }
    await processed();
    mcp = await McpClient.start({ baseUrl: api.baseUrl, token });
  }, 420_000);

  afterAll(async () => {
    await mcp?.close();
    await api?.close();
  });

  it('lists its direct tools, and finds the triage tools in its catalog', async () => {
    expect((await mcp.toolNames()).sort()).toEqual([...DIRECT_TOOLS].sort());
    for (const [query, name] of [
      ['issue details', 'get_issue_details'],
      ['alert rules', 'find_alert_rules'],
      ['find dsn', 'find_dsns'],
      ['releases', 'find_releases'],
    ]) {
      const found = JSON.parse(await tool('search_sentry_tools', { query, limit: 20 })) as { results: Array<{ name: string }> };
      expect({ query, names: found.results.map((result) => result.name) }).toEqual({ query, names: expect.arrayContaining([name]) });
    }
  });

  it('finds the organization, teams, projects and DSNs', async () => {
    expect(await tool('whoami', {})).toContain('admin@acme.test');
    expect(await tool('find_organizations', {})).toContain('acme');
    expect(await tool('find_teams', { organizationSlug: 'acme' })).toContain('acme');
    expect(await tool('find_projects', { organizationSlug: 'acme' })).toContain('web');
    const dsns = await tool('find_dsns', { organizationSlug: 'acme', projectSlug: 'web' });
    expect(dsns).toContain((await api.request('GET', '/api/0/projects/acme/web/keys/')).body[0].dsn.public);
  });

  it('finds the release the SDK named, in the organization and in the project', async () => {
    expect(await tool('find_releases', { organizationSlug: 'acme' })).toContain('1.2.3');
    expect(await tool('find_releases', { organizationSlug: 'acme', projectSlug: 'web', query: '1.2' })).toContain('1.2.3');
  });

  it('searches issues and reads one in full: details, stack trace, breadcrumbs, tags, events and activity', async () => {
    // The checkout that failed with everything attached: user ada, tag feature:cart, breadcrumbs.
    const [card] = (await api.request('GET', '/api/0/organizations/acme/issues/?query=user.email:ada@example.com')).body as Array<{ shortId: string }>;
    expect(await tool('search_issues', { organizationSlug: 'acme', query: 'is:unresolved' })).toContain(card.shortId);

    const details = await tool('get_issue_details', { organizationSlug: 'acme', issueId: card.shortId });
    expect(details).toContain('Card declined for amount 500');
    expect(details).toContain('chargeCard');
    expect(details).toContain('shop@1.2.3');
    expect(details).toContain('ada@example.com');

    const tagValues = await tool('get_issue_tag_values', { organizationSlug: 'acme', issueId: card.shortId, tagKey: 'feature' });
    expect(JSON.parse(tagValues).tag.topValues).toEqual([expect.objectContaining({ value: 'cart', count: 1 })]);
    const events = await tool('search_issue_events', { organizationSlug: 'acme', issueId: card.shortId, query: 'user.email:ada@example.com' });
    expect(events).toContain('ada@example.com');

    const resource = await tool('get_sentry_resource', { url: `${api.baseUrl}/organizations/acme/issues/${card.shortId}/` });
    expect(resource).toContain('Card declined');
    // The SDK sent 121 breadcrumbs; the newest 100 are kept, the last one the failed payment call.
    const breadcrumbs = await tool('get_issue_breadcrumbs', { organizationSlug: 'acme', issueId: card.shortId, eventId: 'latest' });
    expect(breadcrumbs).toContain('step 119');
    expect(breadcrumbs).not.toContain('step 19\n');
    expect(breadcrumbs).toContain('https://pay.example.com/charge');

    expect(await tool('get_issue_activity', { organizationSlug: 'acme', issueId: card.shortId })).toContain('first_seen');
  });

  it('counts events as the issues count them', async () => {
    const issues = (await api.request('GET', '/api/0/organizations/acme/issues/?query=')).body as Array<{ shortId: string; count: string }>;
    const text = await tool('search_events', { organizationSlug: 'acme', dataset: 'errors', fields: ['issue', 'count()'], sort: '-count()', query: '' });
    for (const issue of issues) expect(text).toMatch(new RegExp(`"issue": "${issue.shortId}",\\s*"count\\(\\)": ${issue.count}\\b`));
    const listed = await tool('search_events', { organizationSlug: 'acme', dataset: 'errors', query: 'feature:cart' });
    expect(listed).toContain('Card declined for amount 500');
  });

  it('writes a note and resolves an issue, and Faultline shows both', async () => {
    const [issue] = (await api.request('GET', '/api/0/organizations/acme/issues/?query=Inventory')).body as Array<{ id: string; shortId: string }>;
    expect(await tool('add_issue_note', { organizationSlug: 'acme', issueId: issue.shortId, text: 'Restocking fixes this.' })).toContain(
      'Restocking fixes this.',
    );
    expect(await tool('update_issue', { organizationSlug: 'acme', issueId: issue.shortId, status: 'resolved' })).toContain('resolved');

    const detail = (await api.request('GET', `/api/0/organizations/acme/issues/${issue.id}/`)).body;
    expect(detail.status).toBe('resolved');
    expect(
      (await api.request('GET', `/api/0/organizations/acme/issues/${issue.id}/comments/`)).body.map((note: { data: { text: string } }) => note.data.text),
    ).toEqual(['Restocking fixes this.']);
    const activity = await tool('get_issue_activity', { organizationSlug: 'acme', issueId: issue.shortId });
    expect(activity).toContain('set_resolved');
    expect(activity).toContain('Restocking fixes this.');
  });

  it('assigns and ignores an issue, and Faultline shows both', async () => {
    const [issue] = (await api.request('GET', '/api/0/organizations/acme/issues/?query=Card')).body as Array<{ id: string; shortId: string }>;
    const me = (await api.request('GET', '/api/0/auth/', { token })).body;
    await tool('update_issue', { organizationSlug: 'acme', issueId: issue.shortId, assignedTo: `user:${me.id}` });
    await tool('update_issue', { organizationSlug: 'acme', issueId: issue.shortId, status: 'ignored' });
    const detail = (await api.request('GET', `/api/0/organizations/acme/issues/${issue.id}/`)).body;
    expect(detail).toMatchObject({ status: 'ignored', assignedTo: { type: 'user', id: String(me.id) } });
  });

  it('creates a team, a project in it, renames the project and adds a DSN', async () => {
    await tool('create_team', { organizationSlug: 'acme', name: 'payments' });
    expect(await tool('create_project', { organizationSlug: 'acme', teamSlug: 'payments', name: 'billing', platform: 'node' })).toContain('billing');
    await tool('update_project', { organizationSlug: 'acme', projectSlug: 'billing', name: 'Billing API' });
    await tool('create_dsn', { organizationSlug: 'acme', projectSlug: 'billing', name: 'worker' });
    const project = (await api.request('GET', '/api/0/projects/acme/billing/')).body;
    expect(project).toMatchObject({ name: 'Billing API', platform: 'node', team: { slug: 'payments' } });
    expect((await api.request('GET', '/api/0/projects/acme/billing/keys/')).body.map((key: { name: string }) => key.name)).toContain('worker');
  });

  it('finds issue alert rules (read from the workflows API) and metric alert rules', async () => {
    const rule = await api.request('POST', '/api/0/projects/acme/web/rules/', {
      body: {
        name: 'Checkout failures',
        actionMatch: 'all',
        frequency: 30,
        conditions: [{ id: 'sentry.rules.conditions.first_seen_event.FirstSeenEventCondition' }],
        actions: [{ id: 'sentry.rules.actions.notify_event.NotifyEventAction' }],
      },
    });
    const metric = await api.request('POST', '/api/0/organizations/acme/alert-rules/', {
      body: { name: 'Error spike', aggregate: 'count()', timeWindow: 5, projects: ['web'], triggers: [{ label: 'critical', alertThreshold: 1000 }] },
    });
    expect([rule.status, metric.status]).toEqual([201, 201]);

    const all = await tool('find_alert_rules', { organizationSlug: 'acme', projectSlug: 'web' });
    expect(all).toContain('Checkout failures');
    expect(all).toContain(String(rule.body.id));
    expect(all).toContain('Error spike');
    const named = await tool('find_alert_rules', { organizationSlug: 'acme', projectSlug: 'web', kind: 'issue', query: 'checkout' });
    expect(named).toContain('Checkout failures');
    expect(await tool('find_alert_rules', { organizationSlug: 'acme', projectSlug: 'web', kind: 'issue', query: 'nothing like it' })).not.toContain(
      'Checkout failures',
    );
    const detail = await tool('get_alert_rule', { organizationSlug: 'acme', projectSlug: 'web', kind: 'issue', ruleIdOrName: String(rule.body.id) });
    expect(detail).toContain('Checkout failures');
  });

  it('refuses an events search that Faultline would refuse, with the reason, before running it', async () => {
    const answer = await mcp.call('search_events', { organizationSlug: 'acme', dataset: 'errors', fields: ['title', 'p99(nonsense)'], query: '' });
    expect(answer.isError).toBe(true);
    expect(answer.text).toContain('Search validation failed');
    expect(answer.text).toContain('p99(nonsense)');
  });

  it('finds cron monitors', async () => {
    const created = await api.request('POST', '/api/0/organizations/acme/monitors/', {
      body: { name: 'Nightly backup', slug: 'nightly-backup', project: 'web', config: { schedule_type: 'crontab', schedule: '0 3 * * *' } },
    });
    expect(created.status).toBe(201);
    expect(await tool('find_monitors', { organizationSlug: 'acme' })).toContain('nightly-backup');
  });
});
