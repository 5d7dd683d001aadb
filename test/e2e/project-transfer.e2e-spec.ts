import { randomUUID } from 'node:crypto';
import { CommandBus } from '@nestjs/cqrs';
import { ALL_SCOPES, expandScopes, FixedClock } from '@faultline/kernel';
import { CreateApiTokenCommand, type CreatedApiToken, CreateOrganizationCommand, CreateUserCommand } from '@faultline/identity';
import { eventsProcessed } from '../support/events-processed';
import { SmtpReceiver, textPart } from '../support/smtp-receiver';
import { startTestApp, type TestApp } from '../support/test-app';

/**
 * Sentry's project transfer over HTTP: acme's admin mails a link to the owner of a second
 * organization, who accepts it there; the project's issues, key and releases follow it.
 */
describe('project transfer', () => {
  let api: TestApp;
  const smtp = new SmtpReceiver();
  const clock = new FixedClock(new Date('2026-03-02T10:00:00.000Z'));
  let bobToken: string;
  let publicKey: string;
  let projectId: string;

  beforeAll(async () => {
    await smtp.start();
    api = await startTestApp({ SMTP_URL: smtp.url, MAIL_RETRY_SCHEDULE: '0.5,0.5' }, { clock });
    const commands = api.app.get(CommandBus);
    const bob = await commands.execute<CreateUserCommand, { id: string }>(new CreateUserCommand('bob@umbrella.test', 'Bob'));
    await commands.execute(new CreateOrganizationCommand('Umbrella', 'umbrella', bob.id));
    bobToken = (
      await commands.execute<CreateApiTokenCommand, CreatedApiToken>(
        new CreateApiTokenCommand('user', { userId: bob.id }, 'bob', [...ALL_SCOPES], expandScopes(ALL_SCOPES)),
      )
    ).plaintext;

    const project = await api.request('POST', '/api/0/teams/acme/acme/projects/', { body: { name: 'Mobile', slug: 'mobile' } });
    expect(project.status).toBe(201);
    projectId = project.body.id;
    publicKey = (await api.request('GET', '/api/0/projects/acme/mobile/keys/')).body[0].public;
    expect((await api.request('POST', '/api/0/organizations/acme/releases/', { body: { version: 'mobile@1.0', projects: ['mobile'] } })).status).toBe(201);
    await sendError('Mobile crashed');
    // Two monitors of the project; Umbrella already has one of the same slug.
    for (const slug of ['nightly', 'hourly']) {
      const monitor = await api.request('POST', '/api/0/organizations/acme/monitors/', {
        body: { name: slug, slug, project: 'mobile', config: { schedule: '0 * * * *' } },
      });
      expect(monitor.status).toBe(201);
    }
  });

  afterAll(async () => {
    await api?.close();
    await smtp.stop();
  });

  async function sendError(message: string): Promise<void> {
    const response = await fetch(`${api.baseUrl}/api/${projectId}/store/?sentry_key=${publicKey}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ event_id: randomUUID().replace(/-/g, ''), level: 'error', platform: 'node', message, release: 'mobile@1.0' }),
    });
    expect(response.status).toBe(200);
    await eventsProcessed(api);
  }

  const transfer = (org: string, email: string, token?: string) =>
    api.request('POST', `/api/0/projects/${org}/mobile/transfer/`, { body: { email }, ...(token ? { token } : {}) });
  const dataOf = (link: string) => new URL(link).searchParams.get('data') ?? '';
  const accept = (data: string, organization: string, token = bobToken) =>
    api.request('POST', '/api/0/accept-transfer/', { token, body: { data, organization } });

  it('refuses an address that owns no organization, and bad input', async () => {
    expect(await transfer('acme', 'nobody@nowhere.test')).toMatchObject({
      status: 404,
      body: { detail: 'Could not find an organization owner with that email' },
    });
    expect((await transfer('acme', '')).status).toBe(400);
    expect((await api.request('GET', '/api/0/accept-transfer/?data=unknown', { token: bobToken })).status).toBe(400);
  });

  it('mails the owner a single-use link, the answer carries it, and accepting it moves the project with its issues, key and releases', async () => {
    const requested = await transfer('acme', 'BOB@umbrella.test');
    expect(requested.status).toBe(201);
    const link: string = requested.body.transfer_link;
    expect(link).toMatch(/\/accept-transfer\/\?data=[0-9a-f]{64}$/);
    expect(requested.body.expires).toBe('2026-03-09T10:00:00.000Z');
    const [mail] = await smtp.waitFor('bob@umbrella.test', 1);
    expect(textPart(mail.raw)).toContain(link);

    // Only the owner it was sent to may open it.
    expect((await api.request('GET', `/api/0/accept-transfer/?data=${dataOf(link)}`)).status).toBe(403);
    const details = await api.request('GET', `/api/0/accept-transfer/?data=${dataOf(link)}`, { token: bobToken });
    expect(details.status).toBe(200);
    expect(details.body.project).toMatchObject({ slug: 'mobile', name: 'Mobile', organization: { name: 'acme' } });
    expect(details.body.organizations.map((o: { slug: string }) => o.slug)).toEqual(['umbrella']);

    // Not an organization Bob owns; then a slug Umbrella already has.
    expect((await accept(dataOf(link), 'acme')).status).toBe(403);
    const team = await api.request('POST', '/api/0/organizations/umbrella/teams/', { token: bobToken, body: { slug: 'ops', name: 'Ops' } });
    expect(team.status).toBe(201);
    expect((await api.request('POST', '/api/0/teams/umbrella/ops/projects/', { token: bobToken, body: { name: 'Mobile', slug: 'mobile' } })).status).toBe(201);
    expect((await api.request('POST', '/api/0/teams/umbrella/ops/projects/', { token: bobToken, body: { name: 'Backend', slug: 'backend' } })).status).toBe(
      201,
    );
    const theirs = await api.request('POST', '/api/0/organizations/umbrella/monitors/', {
      token: bobToken,
      body: { name: 'nightly', slug: 'nightly', project: 'backend', config: { schedule: '0 3 * * *' } },
    });
    expect(theirs.status).toBe(201);
    expect(await accept(dataOf(link), 'umbrella')).toMatchObject({ status: 409, body: { detail: expect.stringContaining('slug') } });
    expect((await api.request('DELETE', '/api/0/projects/umbrella/mobile/', { token: bobToken })).status).toBe(204);

    const accepted = await accept(dataOf(link), 'umbrella');
    expect(accepted).toMatchObject({ status: 200, body: { organization: { slug: 'umbrella' }, project: { slug: 'mobile' } } });
    expect((await api.request('GET', '/api/0/projects/acme/mobile/')).status).toBe(404);
    const moved = await api.request('GET', '/api/0/projects/umbrella/mobile/', { token: bobToken });
    expect(moved).toMatchObject({ status: 200, body: { id: projectId, teams: [] } });

    const issues = await api.request('GET', '/api/0/projects/umbrella/mobile/issues/', { token: bobToken });
    expect(issues.body.map((issue: { title: string }) => issue.title)).toEqual(['Mobile crashed']);
    expect((await api.request('GET', '/api/0/projects/acme/mobile/issues/')).status).toBe(404);
    // The key keeps working: the next event lands under the new organization.
    await sendError('Mobile crashed again');
    const after = await api.request('GET', '/api/0/projects/umbrella/mobile/issues/', { token: bobToken });
    expect(after.body.map((issue: { title: string }) => issue.title).sort()).toEqual(['Mobile crashed', 'Mobile crashed again']);
    const release = await api.request('GET', '/api/0/organizations/umbrella/releases/mobile@1.0/', { token: bobToken });
    expect(release.status).toBe(200);
    expect(release.body.projects.map((p: { slug: string }) => p.slug)).toEqual(['mobile']);

    // Its monitors came along, the one whose slug Umbrella had with its id appended.
    const monitors = await api.request('GET', '/api/0/organizations/umbrella/monitors/', { token: bobToken });
    const slugs = monitors.body.map((m: { slug: string }) => m.slug);
    expect(slugs).toHaveLength(3);
    expect(slugs).toEqual(expect.arrayContaining(['hourly', 'nightly', expect.stringMatching(/^nightly-\d+$/)]));
    expect((await api.request('GET', '/api/0/organizations/acme/monitors/')).body).toEqual([]);

    // The link works once.
    expect(await accept(dataOf(link), 'umbrella')).toMatchObject({ status: 400, body: { detail: expect.stringContaining('already been used') } });
  });

  it('refuses the organization the project is already in, and a link past its seven days', async () => {
    const toSelf = await transfer('umbrella', 'bob@umbrella.test', bobToken);
    expect(toSelf.status).toBe(201);
    expect(await accept(dataOf(toSelf.body.transfer_link), 'umbrella')).toMatchObject({
      status: 400,
      body: { detail: 'The project already belongs to this organization.' },
    });

    const back = await transfer('umbrella', 'admin@acme.test', bobToken);
    expect(back.status).toBe(201);
    clock.advance(7 * 24 * 3_600_000);
    const late = await api.request('POST', '/api/0/accept-transfer/', { body: { data: dataOf(back.body.transfer_link), organization: 'acme' } });
    expect(late).toMatchObject({ status: 400, body: { detail: 'This transfer link has expired.' } });
    expect((await api.request('GET', '/api/0/projects/umbrella/mobile/', { token: bobToken })).status).toBe(200);
  });

  it('needs project:admin to send a link', async () => {
    const readOnly = await api.request('POST', '/api/0/organizations/umbrella/org-auth-tokens/', {
      token: bobToken,
      body: { name: 'ci', scopes: ['project:write'] },
    });
    expect((await transfer('umbrella', 'admin@acme.test', readOnly.body.token)).status).toBe(403);
  });
});
