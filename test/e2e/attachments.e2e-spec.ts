import { execFile } from 'node:child_process';
import { createHash } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { CommandBus } from '@nestjs/cqrs';
import { ALL_SCOPES, expandScopes } from '@faultline/kernel';
import {
  CreateApiTokenCommand,
  type CreatedApiToken,
  CreateOrganizationCommand,
  CreateUserCommand,
  ProvisionMemberCommand,
  type ProvisionedMember,
  SetUserPasswordCommand,
} from '@faultline/identity';
import { Database } from '@faultline/platform';
import { launchBrowser, newPage, screenshot, signIn } from '../support/browser';
import { eventsProcessed } from '../support/events-processed';
import { startTestApp, type TestApp } from '../support/test-app';

const run = promisify(execFile);
const MIB = 1024 * 1024;

/** The same bytes the SDK client attaches (test/support/sentry-attachments-client.cjs). */
const allByteValues = (count: number) => Buffer.from(Uint8Array.from({ length: count }, (_, i) => (i * 7 + (i >> 8)) % 256));

/** A Windows minidump as small as it gets: the header, a directory of one exception stream, and the stream (an access violation). */
function accessViolationDump(): Buffer {
  const dump = Buffer.alloc(32 + 12 + 168);
  dump.writeUInt32LE(0x504d444d, 0); // MDMP
  dump.writeUInt32LE(0xa793, 4);
  dump.writeUInt32LE(1, 8); // one stream
  dump.writeUInt32LE(32, 12); // its directory right after the header
  dump.writeUInt32LE(6, 32); // MINIDUMP_EXCEPTION_STREAM
  dump.writeUInt32LE(168, 36);
  dump.writeUInt32LE(44, 40);
  dump.writeUInt32LE(0xc0000005, 44 + 8);
  return dump;
}

/**
 * Event attachments end to end: the real @sentry/node SDK attaches files, the API lists and serves
 * them byte for byte under the organization's attachmentsRole, the storage quota drops only the
 * attachment, and a Breakpad-style minidump upload becomes a native event with its dump.
 */
describe('event attachments', () => {
  let api: TestApp;
  let dsn: string;
  let projectId: string;
  let publicKey: string;

  beforeAll(async () => {
    api = await startTestApp({ ORGANIZATION_STORAGE_MAX_BYTES: String(MIB), ATTACHMENT_MAX_BYTES: String(MIB) });
    const keys = await api.request('GET', '/api/0/projects/acme/web/keys/');
    dsn = keys.body[0].dsn.public;
    publicKey = keys.body[0].public;
    projectId = String(keys.body[0].projectId);
  });

  afterAll(async () => {
    await api?.close();
  });

  async function sendWithSdk(scenario: string): Promise<string> {
    const { stdout } = await run(process.execPath, [join(__dirname, '..', 'support', 'sentry-attachments-client.cjs'), dsn, scenario], { timeout: 30_000 });
    await eventsProcessed(api);
    return stdout.trim();
  }

  const attachmentsOf = (eventId: string, token?: string | null) => api.request('GET', `/api/0/projects/acme/web/events/${eventId}/attachments/`, { token });
  const download = (eventId: string, id: string, token?: string) =>
    fetch(`${api.baseUrl}/api/0/projects/acme/web/events/${eventId}/attachments/${id}/?download=1`, {
      headers: { authorization: `Bearer ${token ?? 'test-bootstrap-token'}` },
    });
  const storedBytes = async () =>
    Number(
      (await api.app.get(Database).query<{ stored_bytes: string }>(`SELECT stored_bytes FROM releases.organization_storage WHERE organization_id = 1`))[0]
        ?.stored_bytes ?? 0,
    );

  let eventId: string;
  let coreId: string;

  it("keeps the SDK's attachments with their event and serves them byte for byte", async () => {
    eventId = await sendWithSdk('all-bytes');
    const listed = await attachmentsOf(eventId);
    expect(listed.status).toBe(200);
    const sent = allByteValues(4096);
    expect(listed.body).toEqual([
      {
        id: expect.any(String),
        event_id: eventId,
        type: 'event.attachment',
        name: 'core.bin',
        mimetype: 'application/octet-stream',
        dateCreated: expect.any(String),
        size: 4096,
        headers: { 'Content-Type': 'application/octet-stream' },
        sha1: createHash('sha1').update(sent).digest('hex'),
      },
      expect.objectContaining({ name: 'notes.txt', size: 17, type: 'event.attachment' }),
    ]);
    coreId = listed.body[0].id;
    const response = await download(eventId, coreId);
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toBe('application/octet-stream');
    expect(response.headers.get('content-disposition')).toBe(`attachment; filename="core.bin"; filename*=UTF-8''core.bin`);
    expect(Buffer.from(await response.arrayBuffer()).equals(sent)).toBe(true);
    expect(await storedBytes()).toBe(4096 + 17);
  });

  it('answers 404 to another organization, and 403 below the attachmentsRole', async () => {
    const commands = api.app.get(CommandBus);
    const stranger = await commands.execute<CreateUserCommand, { id: string }>(new CreateUserCommand('owner@other.test', 'other'));
    await commands.execute(new CreateOrganizationCommand('other', 'other', stranger.id));
    const strangerToken = (
      await commands.execute<CreateApiTokenCommand, CreatedApiToken>(
        new CreateApiTokenCommand('user', { userId: stranger.id }, 'other', [...ALL_SCOPES], expandScopes(ALL_SCOPES)),
      )
    ).plaintext;
    expect((await attachmentsOf(eventId, strangerToken)).status).toBe(404);
    expect((await download(eventId, coreId, strangerToken)).status).toBe(404);

    const member = await commands.execute<ProvisionMemberCommand, ProvisionedMember>(
      new ProvisionMemberCommand('1', {
        userName: 'dev@acme.test',
        name: null,
        displayName: null,
        emails: [{ value: 'dev@acme.test', primary: true }],
        externalId: null,
        active: true,
        role: 'member',
      }),
    );
    const memberToken = (
      await commands.execute<CreateApiTokenCommand, CreatedApiToken>(
        new CreateApiTokenCommand('user', { userId: member.userId }, 'dev', ['event:read', 'project:read', 'org:read'], expandScopes(ALL_SCOPES)),
      )
    ).plaintext;
    expect((await download(eventId, coreId, memberToken)).status).toBe(200);

    const changed = await api.request('PUT', '/api/0/organizations/acme/', { body: { attachmentsRole: 'admin' } });
    expect(changed.status).toBe(200);
    expect(changed.body.attachmentsRole).toBe('admin');
    expect((await api.request('GET', '/api/0/organizations/acme/')).body.attachmentsRole).toBe('admin');
    expect((await api.request('PUT', '/api/0/organizations/acme/', { body: { attachmentsRole: 'nobody' } })).status).toBe(400);

    const refused = await download(eventId, coreId, memberToken);
    expect(refused.status).toBe(403);
    expect(await refused.json()).toEqual({ detail: 'You do not have permission to perform this action.' });
    // Listing stays open to readers, as in Sentry; the owner still downloads.
    expect((await attachmentsOf(eventId, memberToken)).body).toHaveLength(2);
    expect((await download(eventId, coreId)).status).toBe(200);
    await api.request('PUT', '/api/0/organizations/acme/', { body: { attachmentsRole: 'member' } });
  });

  it('lists the attachments on the issue page and downloads them from there; below the attachments role, without links', async () => {
    const issueId = (await api.request('GET', `/api/0/projects/acme/web/events/${eventId}/`)).body.groupID;
    const browser = await launchBrowser();
    try {
      const { page, errors } = await newPage(browser);
      await signIn(page, api);
      await page.goto(`${api.baseUrl}/organizations/acme/issues/${issueId}/events/${eventId}/`);
      const section = page.getByRole('region', { name: 'Attachments' });
      await section.getByRole('link', { name: 'core.bin' }).waitFor();
      expect(await section.textContent()).toContain('4.0 KiB');
      const [saved] = await Promise.all([page.waitForEvent('download'), section.getByRole('link', { name: 'core.bin' }).click()]);
      expect(saved.suggestedFilename()).toBe('core.bin');
      expect((await readFile(await saved.path())).equals(allByteValues(4096))).toBe(true);
      await screenshot(page, 'issue-attachments');
      expect(errors).toEqual([]);

      // A member below the attachments role sees the files listed, without links.
      await api.app.get(CommandBus).execute(new SetUserPasswordCommand('dev@acme.test', 'dev-password-1234'));
      await api.request('PUT', '/api/0/organizations/acme/', { body: { attachmentsRole: 'admin' } });
      const member = await newPage(browser);
      await member.page.goto(`${api.baseUrl}/auth/login/`);
      await member.page.getByLabel('E-mail address').fill('dev@acme.test');
      await member.page.getByLabel('Password').fill('dev-password-1234');
      await member.page.keyboard.press('Enter');
      await member.page.getByRole('heading', { name: 'Issues', level: 1 }).waitFor();
      await member.page.goto(`${api.baseUrl}/organizations/acme/issues/${issueId}/events/${eventId}/`);
      const listed = member.page.getByRole('region', { name: 'Attachments' });
      await listed.getByText('Your role may not download attachments in this organization.').waitFor();
      expect(await listed.textContent()).toContain('core.bin');
      expect(await listed.getByRole('link').count()).toBe(0);
      expect(member.errors).toEqual([]);
    } finally {
      await api.request('PUT', '/api/0/organizations/acme/', { body: { attachmentsRole: 'member' } });
      await browser.close();
    }
  });

  it('drops only the attachment that passes the storage quota, counts it, and frees bytes on delete', async () => {
    const rejectedBefore = await rejected();
    const overQuota = await sendWithSdk('over-quota');
    expect((await api.request('GET', `/api/0/projects/acme/web/events/${overQuota}/`)).status).toBe(200);
    const listed = await attachmentsOf(overQuota);
    expect(listed.body.map((attachment: { name: string }) => attachment.name)).toEqual(['first.bin']);
    expect(await rejected()).toBe(rejectedBefore + 1);
    expect(await storedBytes()).toBe(4096 + 17 + 600 * 1024);

    expect((await api.request('DELETE', `/api/0/projects/acme/web/events/${overQuota}/attachments/${listed.body[0].id}/`)).status).toBe(204);
    expect((await attachmentsOf(overQuota)).body).toEqual([]);
    expect((await api.request('DELETE', `/api/0/projects/acme/web/events/${overQuota}/attachments/${listed.body[0].id}/`)).status).toBe(404);
    expect(await storedBytes()).toBe(4096 + 17);
  });

  /** Attachments the storage quota refused, as the usage stats count them. */
  async function rejected(): Promise<number> {
    await eventsProcessed(api);
    const stats = await api.request('GET', `/api/0/organizations/acme/stats_v2/?field=sum(times_seen)&category=attachment&outcome=rate_limited&statsPeriod=1d`);
    return (stats.body.groups as Array<{ totals: Record<string, number> }>).reduce((sum, group) => sum + group.totals['sum(times_seen)'], 0);
  }

  it('stores a minidump upload as an event.minidump attachment of a native event named by its crash, and frees bytes with an issue', async () => {
    const dump = accessViolationDump();
    const form = new FormData();
    form.append('upload_file_minidump', new Blob([dump]), 'crash.dmp');
    form.append('sentry[release]', 'native@1.0');
    form.append('sentry[tags][build]', 'nightly');
    form.append('log', new Blob(['last words']), 'app.log');
    const response = await fetch(`${api.baseUrl}/api/${projectId}/minidump/?sentry_key=${publicKey}`, { method: 'POST', body: form });
    expect(response.status).toBe(200);
    const crashId = (await response.text()).trim();
    expect(crashId).toMatch(/^[0-9a-f]{32}$/);
    await eventsProcessed(api);

    const event = await api.request('GET', `/api/0/projects/acme/web/events/${crashId}/`);
    expect(event.status).toBe(200);
    expect(event.body).toMatchObject({ platform: 'native', title: 'EXCEPTION_ACCESS_VIOLATION: Fatal Error: EXCEPTION_ACCESS_VIOLATION' });
    expect(event.body.tags).toEqual(expect.arrayContaining([expect.objectContaining({ key: 'build', value: 'nightly' })]));
    const listed = await attachmentsOf(crashId);
    expect(listed.body.map((attachment: { name: string; type: string }) => [attachment.name, attachment.type])).toEqual([
      ['app.log', 'event.attachment'],
      ['crash.dmp', 'event.minidump'],
    ]);
    const bytes = Buffer.from(await (await download(crashId, listed.body[1].id)).arrayBuffer());
    expect(bytes.equals(dump)).toBe(true);

    // Deleting an issue deletes its events' attachments and frees their bytes with them.
    const before = await storedBytes();
    const issueId = (await api.request('GET', `/api/0/projects/acme/web/events/${eventId}/`)).body.groupID;
    expect((await api.request('DELETE', `/api/0/organizations/acme/issues/${issueId}/`)).status).toBe(202);
    expect(await storedBytes()).toBe(before - 4096 - 17);
    expect(await storedBytes()).toBe(dump.length + 'last words'.length);

    // Relay's legacy upload adds files to an event already sent.
    const late = new FormData();
    late.append('file', new Blob(['sent later']), 'late.txt');
    const added = await fetch(`${api.baseUrl}/api/${projectId}/events/${crashId}/attachments/?sentry_key=${publicKey}`, { method: 'POST', body: late });
    expect(added.status).toBe(201);
    expect((await attachmentsOf(crashId)).body.map((attachment: { name: string }) => attachment.name)).toEqual(['app.log', 'crash.dmp', 'late.txt']);

    const notADump = new FormData();
    notADump.append('upload_file_minidump', new Blob(['hello']), 'crash.dmp');
    const refused = await fetch(`${api.baseUrl}/api/${projectId}/minidump/?sentry_key=${publicKey}`, { method: 'POST', body: notADump });
    expect(refused.status).toBe(400);
    expect(await refused.json()).toEqual({ detail: 'upload_file_minidump is not a minidump (no MDMP signature)' });
  });
});
