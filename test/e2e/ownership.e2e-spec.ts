import { randomUUID } from 'node:crypto';
import { EventProcessing } from '@faultline/ingest';
import { BOOTSTRAP, startTestApp, type TestApp } from '../support/test-app';

const OWNERSHIP = '/api/0/projects/acme/web/ownership/';

function errorEvent(type: string, filename: string, extra: Record<string, unknown> = {}) {
  return {
    event_id: randomUUID().replace(/-/g, ''),
    platform: 'node',
    level: 'error',
    exception: { values: [{ type, value: `${type} happened`, stacktrace: { frames: [{ filename, function: 'handle', lineno: 3, in_app: true }] } }] },
    ...extra,
  };
}

/** Issue ownership rules: Sentry's ownership API, issue owners of an event, and auto-assignment of new issues. */
describe('ownership rules', () => {
  let app: TestApp;
  let send: (event: Record<string, unknown>) => Promise<string>;
  const issueOf = async (type: string) => (await app.request('GET', `/api/0/organizations/acme/issues/?query=${encodeURIComponent(`"${type}"`)}`)).body[0];

  beforeAll(async () => {
    app = await startTestApp();
    expect((await app.request('POST', '/api/0/organizations/acme/teams/', { body: { name: 'Frontend', slug: 'frontend' } })).status).toBe(201);
    const [key] = (await app.request('GET', '/api/0/projects/acme/web/keys/')).body;
    send = async (event) => {
      expect((await app.request('POST', `/api/${key.projectId}/store/?sentry_key=${key.public}`, { token: null, body: event })).status).toBe(200);
      await app.app.get(EventProcessing).drain();
      return event.event_id as string;
    };
  }, 120_000);

  afterAll(async () => {
    await app?.close();
  });

  it("answers Sentry's defaults before anything is saved", async () => {
    const ownership = await app.request('GET', OWNERSHIP);
    expect(ownership.status).toBe(200);
    expect(ownership.body).toEqual({
      raw: null,
      fallthrough: true,
      dateCreated: null,
      lastUpdated: null,
      isActive: true,
      autoAssignment: 'Auto Assign to Issue Owner',
      codeownersAutoSync: false,
      schema: null,
    });
  });

  it('refuses rules it cannot honour, naming the line or the owners, and changes nothing', async () => {
    const refusals: Array<[Record<string, unknown>, string, string]> = [
      [
        { raw: 'path:src/* #frontend\npth:lib/* #frontend' },
        'raw',
        'Parse error: unknown type "pth": use path, module, url, tags.<key> or codeowners (line 2, column 1)',
      ],
      [{ raw: 'src/* #frontend #nobody ghost@example.com' }, 'raw', 'Invalid rule owners: #nobody, ghost@example.com'],
      [{ raw: 'src/*' }, 'raw', "Parse error: the rule has no owners (#team-slug or a member's e-mail address) (line 1, column 6)"],
      [{ raw: 'codeowners:*.py #frontend' }, 'raw', 'Codeowner type paths can only be added by importing CODEOWNER files'],
      [{ raw: `${'#'.repeat(100_001)}` }, 'raw', 'Raw needs to be <= 100000 characters in length'],
      [{ autoAssignment: 'Auto Assign to Suspect Commits' }, 'autoAssignment', expect.stringContaining('not available') as unknown as string],
      [{ autoAssignment: 'Sometimes' }, 'autoAssignment', 'Invalid selection.'],
      [{ codeownersAutoSync: true }, 'codeownersAutoSync', expect.stringContaining('CODEOWNERS') as unknown as string],
    ];
    for (const [body, field, message] of refusals) {
      const refused = await app.request('PUT', OWNERSHIP, { body });
      expect(refused.status).toBe(400);
      expect(refused.body).toEqual({ detail: message, [field]: [message] });
    }
    expect((await app.request('GET', OWNERSHIP)).body.dateCreated).toBeNull();
  });

  it('saves rules with their parsed schema, and other organizations see no project', async () => {
    const raw = `# the web client\npath:src/* #frontend\nurl:*/checkout* ${BOOTSTRAP.email.toUpperCase()}`;
    const saved = await app.request('PUT', OWNERSHIP, { body: { raw, fallthrough: false } });
    expect(saved.status).toBe(200);
    expect(saved.body).toMatchObject({ raw, fallthrough: false, autoAssignment: 'Auto Assign to Issue Owner', codeownersAutoSync: false, isActive: true });
    expect(saved.body.dateCreated).toEqual(expect.any(String));
    expect(saved.body.schema).toEqual({
      $version: 1,
      rules: [
        { matcher: { type: 'path', pattern: 'src/*' }, owners: [{ type: 'team', identifier: 'frontend', id: expect.any(String) }] },
        { matcher: { type: 'url', pattern: '*/checkout*' }, owners: [{ type: 'user', identifier: BOOTSTRAP.email, id: expect.any(String) }] },
      ],
    });
    expect((await app.request('GET', OWNERSHIP)).body).toEqual(saved.body);

    await app.request('POST', '/api/0/organizations/', { body: { name: 'Initech', slug: 'initech' } });
    const outsider = await app.request('POST', '/api/0/organizations/initech/org-auth-tokens/', {
      body: { name: 'admin', scopes: ['project:admin', 'org:admin'] },
    });
    expect((await app.request('GET', OWNERSHIP.replace('/acme/', '/initech/'), { token: outsider.body.token })).status).toBe(404);
    const readOnly = await app.request('POST', '/api/0/organizations/acme/org-auth-tokens/', {
      body: { name: 'read', scopes: ['project:read', 'event:read'] },
    });
    expect((await app.request('GET', OWNERSHIP, { token: readOnly.body.token })).status).toBe(200);
    expect((await app.request('PUT', OWNERSHIP, { token: readOnly.body.token, body: { raw: '' } })).status).toBe(403);
  });

  it("assigns a new issue to its owner as the system, and answers an event's owners", async () => {
    const eventId = await send(errorEvent('CartError', 'src/cart.js', { request: { url: 'https://shop.example.com/checkout/pay' } }));
    const issue = await issueOf('CartError');
    // The URL rule comes later in the text: it takes precedence over the path rule.
    expect(issue.assignedTo).toMatchObject({ type: 'user', email: BOOTSTRAP.email });
    const activity = await app.request('GET', `/api/0/organizations/acme/issues/${issue.id}/activities/`);
    expect(activity.status).toBe(200);
    // An ordinary assignment of the issue, by nobody: the system.
    expect(JSON.stringify(activity.body)).toContain('"type":"assigned"');
    expect(JSON.stringify(activity.body)).toMatch(/"type":"assigned","data":\{[^}]*"assigneeType":"user"[^}]*\},"dateCreated":"[^"]+","user":null/);

    const owners = await app.request('GET', `/api/0/projects/acme/web/events/${eventId}/owners/`);
    expect(owners.status).toBe(200);
    expect(owners.body.owners).toEqual([
      expect.objectContaining({ type: 'user', email: BOOTSTRAP.email }),
      { type: 'team', id: expect.any(String), name: 'frontend' },
    ]);
    expect(owners.body.rules.map((rule: { matcher: unknown }) => rule.matcher)).toEqual([
      { type: 'url', pattern: '*/checkout*' },
      { type: 'path', pattern: 'src/*' },
    ]);
    expect(owners.body.rule).toEqual({ type: 'url', pattern: '*/checkout*' });

    await send(errorEvent('WidgetError', 'src/widget.js'));
    expect((await issueOf('WidgetError')).assignedTo).toMatchObject({ type: 'team', name: 'frontend' });
    await send(errorEvent('LibError', 'lib/vendor.js'));
    expect((await issueOf('LibError')).assignedTo).toBeNull();
    expect((await app.request('GET', `/api/0/projects/acme/web/events/${'0'.repeat(31)}1/owners/`)).status).toBe(404);
  });

  it('leaves new issues unassigned with auto-assignment off', async () => {
    const off = await app.request('PUT', OWNERSHIP, { body: { autoAssignment: 'Turn off Auto-Assignment' } });
    expect(off.body.autoAssignment).toBe('Turn off Auto-Assignment');
    await send(errorEvent('ButtonError', 'src/button.js'));
    expect((await issueOf('ButtonError')).assignedTo).toBeNull();
  });
});
