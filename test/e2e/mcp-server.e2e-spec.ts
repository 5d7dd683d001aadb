import { execFile } from 'node:child_process';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { McpClient } from '../support/mcp-client';
import { startTestApp, type TestApp } from '../support/test-app';
import { eventsProcessed } from '../support/events-processed';

const run = promisify(execFile);

/** The scopes docs/api.md tells users to give the MCP server's token. */
const MCP_SCOPES = ['org:read', 'project:read', 'project:write', 'team:read', 'team:write', 'event:read', 'event:write'];

/** The tools of the MCP server that triage errors, and what each needs of Faultline. */
const ERROR_TRIAGE_TOOLS = [
  'whoami',
  'find_organizations',
  'find_teams',
  'find_projects',
  'find_dsns',
  'search_issues',
  'get_issue_tag_values',
  'search_issue_events',
  'search_events',
  'update_issue',
  'get_sentry_resource',
  'create_team',
  'create_project',
  'update_project',
  'create_dsn',
  'find_releases',
];
/** Tools reached through `execute_tool` (the catalog), not listed at the top level. */
const CATALOG_TRIAGE_TOOLS = ['get_issue_details', 'get_issue_activity', 'add_issue_note'];
/**
 * Tools the server lists that are not about errors (Seer and the docs are sentry.io services), so
 * a new tool in a later version shows up here.
 */
const OTHER_TOOLS = ['get_replay_details', 'get_event_attachment', 'analyze_issue_with_seer', 'search_docs', 'get_doc', 'get_profile_details'];

/**
 * Sentry's own MCP server against Faultline, end to end: errors sent by the official @sentry/node
 * SDK (with breadcrumbs, tags, a user and a release), then every error triage tool the server
 * offers, each answering without an error, finding what the SDK sent; its changes (a note, a
 * resolve) show in Faultline's API.
 */
describe("Sentry's MCP server against Faultline", () => {
  let api: TestApp;
  let mcp: McpClient;
  let catalog: McpClient;
  let token: string;

  const processed = () => eventsProcessed(api);

  /** Calls a tool and keeps its answer; a tool that errors fails the test with its text. */
  async function tool(name: string, args: Record<string, unknown>): Promise<string> {
    const answer = CATALOG_TRIAGE_TOOLS.includes(name) ? await catalog.call('execute_tool', { name, arguments: args }) : await mcp.call(name, args);
    expect({ name, isError: answer.isError, text: answer.isError ? answer.text : '' }).toEqual({ name, isError: false, text: '' });
    return answer.text;
  }

  beforeAll(async () => {
    api = await startTestApp();
    token = (await api.request('POST', '/api/0/api-tokens/', { body: { scopes: MCP_SCOPES, name: 'mcp' } })).body.token;
    const keys = await api.request('GET', '/api/0/projects/acme/web/keys/');
    const dsn = keys.body[0].dsn.public;
    for (const scenario of ['checkout', 'checkout-details']) {
      await run(process.execPath, [join(__dirname, '..', 'support', 'sentry-client.cjs'), dsn, scenario], { timeout: 30_000 });
    }
    await processed();
    mcp = await McpClient.start({ baseUrl: api.baseUrl, token });
    catalog = await McpClient.start({ baseUrl: api.baseUrl, token, experimental: true });
  }, 120_000);

  afterAll(async () => {
    await mcp?.close();
    await catalog?.close();
    await api?.close();
  });

  it('lists every error triage tool, and no tool this test does not know', async () => {
    const listed = await mcp.toolNames();
    expect(listed).toEqual(expect.arrayContaining(ERROR_TRIAGE_TOOLS));
    expect(listed.filter((name) => !ERROR_TRIAGE_TOOLS.includes(name) && !OTHER_TOOLS.includes(name))).toEqual([]);
    expect(await catalog.toolNames()).toEqual(expect.arrayContaining(['execute_tool']));
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
    expect(tagValues).toContain('`cart` | 1');
    const events = await tool('search_issue_events', { organizationSlug: 'acme', issueId: card.shortId, query: 'user.email:ada@example.com' });
    expect(events).toContain('ada@example.com');

    const resource = await tool('get_sentry_resource', { url: `${api.baseUrl}/organizations/acme/issues/${card.shortId}/` });
    expect(resource).toContain('Card declined');
    // The SDK sent 121 breadcrumbs; the newest 100 are kept, the last one the failed payment call.
    const breadcrumbs = await tool('get_sentry_resource', { url: `${api.baseUrl}/organizations/acme/issues/${card.shortId}`, resourceType: 'breadcrumbs' });
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
});
