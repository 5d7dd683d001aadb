import type { Browser, Page, Response } from 'playwright-core';
import { launchBrowser, newPage, screenshot, signIn } from '../support/browser';
import { BOOTSTRAP, startTestApp, type TestApp } from '../support/test-app';

/**
 * Team onboarding in a real browser, with no mail server: the inviter copies the invitation link,
 * the invitee joins with a name and password and lands in the organization with a message; a plain
 * member sees no control their role cannot use (none answers 403); the inviter changes roles,
 * removes a member and runs a team's page.
 */
describe('web interface: members and teams', () => {
  let browser: Browser;
  let app: TestApp;
  let admin: Page;
  let adminErrors: string[];
  let inviteLink = '';
  /** The invitee's signed-in page, a plain member. */
  let member: Page;
  let memberErrors: string[];

  beforeAll(async () => {
    browser = await launchBrowser();
    app = await startTestApp();
    ({ page: admin, errors: adminErrors } = await newPage(browser));
    await admin.context().grantPermissions(['clipboard-read', 'clipboard-write'], { origin: app.baseUrl });
    await signIn(admin, app);
  }, 180_000);

  afterAll(async () => {
    await browser?.close();
    await app?.close();
  });

  const memberRow = (page: Page, email: string) => page.getByRole('row').filter({ hasText: email });

  it('invites from the Members page and shows the link to copy', async () => {
    await admin.goto(`${app.baseUrl}/settings/${BOOTSTRAP.org}/members/`);
    await admin.getByRole('link', { name: 'Invite members' }).click();
    await admin.getByRole('heading', { name: 'Invite members', level: 1 }).waitFor();
    await admin.getByLabel('E-mail').fill('newbie@example.test');
    await admin.getByRole('button', { name: 'Send invitation' }).click();
    await admin.getByRole('button', { name: 'Copy the invitation link of newbie@example.test' }).click();
    inviteLink = await admin.evaluate<string>('navigator.clipboard.readText()');
    expect(inviteLink).toMatch(new RegExp(`^${app.baseUrl}/accept/\\d+/[0-9a-f]{64}/$`));
    await screenshot(admin, 'invite-link');
    // The pending invitation is listed on the Members page, with send again and revoke.
    await admin.goto(`${app.baseUrl}/settings/${BOOTSTRAP.org}/members/`);
    await memberRow(admin, 'newbie@example.test').getByRole('button', { name: 'Send again' }).waitFor();
    expect(adminErrors).toEqual([]);
  });

  it('lets the invitee join with a name and password, signed in, in the organization with a message', async () => {
    const { page, errors } = await newPage(browser);
    await page.goto(inviteLink);
    await page.getByRole('heading', { name: `Join ${BOOTSTRAP.org}`, level: 1 }).waitFor();
    await screenshot(page, 'accept-invite', 'accept-invite');
    await page.getByLabel('Name').fill('Nia Newbie');
    await page.getByLabel('Password').fill('short');
    await page.getByRole('button', { name: `Join ${BOOTSTRAP.org}` }).click();
    await page
      .getByText(/at least 8 characters/i)
      .first()
      .waitFor();
    await page.getByLabel('Password').fill('a long enough password');
    await page.getByRole('button', { name: `Join ${BOOTSTRAP.org}` }).click();
    await page.getByRole('heading', { name: 'Issues', level: 1 }).waitFor();
    await page
      .getByRole('status')
      .filter({ hasText: `Welcome to ${BOOTSTRAP.org}: you are a member now.` })
      .waitFor();
    expect(new URL(page.url()).pathname).toBe(`/organizations/${BOOTSTRAP.org}/issues/`);
    expect(errors).toEqual([]);
    member = page;
    memberErrors = errors;
  });

  it('shows a plain member only the controls their role allows: none answers 403', async () => {
    const page = member;
    const refused: string[] = [];
    page.on('response', (response: Response) => {
      if (response.status() === 403) refused.push(`${response.request().method()} ${new URL(response.url()).pathname}`);
    });
    await app.request('POST', `/api/0/organizations/${BOOTSTRAP.org}/teams/`, { body: { name: 'Backend' } });
    const hook = await app.request('POST', `/api/0/projects/${BOOTSTRAP.org}/${BOOTSTRAP.project}/hooks/`, {
      body: { url: 'https://hooks.example.test/x', events: ['event.created'] },
    });
    const pages: Array<[string, string]> = [
      [`/settings/${BOOTSTRAP.org}/members/`, 'Members'],
      [`/settings/${BOOTSTRAP.org}/members/invite/`, 'Invite members'],
      [`/settings/${BOOTSTRAP.org}/teams/`, 'Teams'],
      [`/settings/${BOOTSTRAP.org}/teams/backend/`, 'Backend #backend'],
      [`/settings/${BOOTSTRAP.org}/projects/${BOOTSTRAP.project}/`, 'Project settings'],
      [`/settings/${BOOTSTRAP.org}/projects/${BOOTSTRAP.project}/keys/`, 'Client keys (DSN)'],
      ...(hook.status === 201
        ? ([
            [`/settings/${BOOTSTRAP.org}/projects/${BOOTSTRAP.project}/hooks/`, 'Service hooks'],
            [`/settings/${BOOTSTRAP.org}/projects/${BOOTSTRAP.project}/hooks/${hook.body.id}/`, 'Service hook'],
          ] as Array<[string, string]>)
        : []),
    ];
    for (const [path, heading] of pages) {
      await page.goto(`${app.baseUrl}${path}`);
      await page.getByRole('heading', { name: heading, level: 1 }).waitFor();
      await page.locator('.needs-scope').first().waitFor();
      // Every enabled button of the page but copying, showing and choosing an SDK snippet.
      const buttons = page.locator('main button:not([disabled]):not(.copy-button):not(.link-button):not([aria-pressed])');
      for (let index = 0; index < (await buttons.count()); index++) {
        const button = buttons.nth(index);
        if (await button.isVisible()) await button.click();
      }
      await page.getByRole('heading', { level: 1 }).first().waitFor();
    }
    expect(refused).toEqual([]);
    // The project's feature flags are internal names: a member does not see them.
    await page.goto(`${app.baseUrl}/settings/${BOOTSTRAP.org}/projects/${BOOTSTRAP.project}/`);
    await page.getByRole('button', { name: 'Save changes' }).waitFor();
    expect(await page.getByRole('group', { name: 'Features' }).count()).toBe(0);
    expect(await page.getByRole('button', { name: 'Save changes' }).isDisabled()).toBe(true);
    await page.getByText('Your role cannot change this project').waitFor();
    expect(memberErrors).toEqual([]);
  }, 180_000);

  it('shows a plain member the sign-in settings, rate limits, data scrubbing, integrations and releases read-only, at 1280 and 390 px', async () => {
    const page = member;
    const refused: string[] = [];
    const failed: string[] = [];
    page.on('response', (response: Response) => {
      if (response.status() === 403) refused.push(`${response.request().method()} ${new URL(response.url()).pathname}`);
    });
    page.on('requestfailed', (request) => failed.push(request.url()));
    const integration = await app.request('POST', '/api/0/sentry-apps/', {
      body: { name: 'Acme Bot', organization: BOOTSTRAP.org, isInternal: true, scopes: ['project:read'] },
    });
    expect(integration.status).toBe(201);
    /** Each page, its heading, and whether it names a scope the member lacks. */
    const pages: Array<[string, string, boolean]> = [
      [`/settings/${BOOTSTRAP.org}/auth/`, 'Authentication', true],
      [`/settings/${BOOTSTRAP.org}/rate-limits/`, 'Rate limits', true],
      [`/settings/${BOOTSTRAP.org}/security-and-privacy/`, 'Security & Privacy', true],
      [`/settings/${BOOTSTRAP.org}/projects/${BOOTSTRAP.project}/security-and-privacy/`, 'Security & Privacy', true],
      [`/settings/${BOOTSTRAP.org}/developer-settings/`, 'Developer settings', true],
      [`/settings/${BOOTSTRAP.org}/developer-settings/${integration.body.slug}/`, 'Acme Bot', true],
      [`/organizations/${BOOTSTRAP.org}/releases/`, 'Releases', false],
    ];
    const writeControls =
      /^(Save changes|Add provider|Update provider|Require two-factor|Stop requiring|Turn (SCIM|spike protection)|New (internal|public) integration|New token|Revoke|Delete)/;
    for (const width of [1280, 390]) {
      await page.setViewportSize({ width, height: 844 });
      for (const [path, heading, limited] of pages) {
        await page.goto(`${app.baseUrl}${path}`);
        await page.getByRole('heading', { name: heading, level: 1 }).waitFor();
        if (limited) {
          await page
            .locator('.needs-scope')
            .first()
            .waitFor()
            .catch(() => Promise.reject(new Error(`${path} at ${width} px says no scope is needed`)));
        }
        await page.locator('.skeleton').first().waitFor({ state: 'detached' });
        const main = page.locator('main');
        expect(await main.getByRole('button', { name: writeControls }).count()).toBe(0);
        expect(await main.getByRole('link', { name: writeControls }).count()).toBe(0);
        // What a form would send is shown, not editable (the releases page's search and filter excepted).
        if (limited) expect(await main.locator('form :is(input, select, textarea):enabled').count()).toBe(0);
        expect(await page.evaluate<number>('document.documentElement.scrollWidth')).toBeLessThanOrEqual(width);
      }
    }
    await page.setViewportSize({ width: 1280, height: 860 });
    await screenshot(page, 'member-read-only');
    expect(refused).toEqual([]);
    expect(failed).toEqual([]);
    expect(memberErrors).toEqual([]);
  }, 180_000);

  it('changes a member’s role and removes a member from the Members page', async () => {
    await admin.goto(`${app.baseUrl}/settings/${BOOTSTRAP.org}/members/`);
    await admin.getByLabel('Role of newbie@example.test').selectOption('admin');
    await admin.getByRole('status').filter({ hasText: 'newbie@example.test is now admin.' }).waitFor();
    const members = await app.request('GET', `/api/0/organizations/${BOOTSTRAP.org}/members/`);
    expect(members.body.find((m: { email: string }) => m.email === 'newbie@example.test').orgRole).toBe('admin');
    // The last owner can be neither demoted nor removed: the page says why.
    await admin.getByLabel(`Role of ${BOOTSTRAP.email}`).selectOption('member');
    await admin.getByText('The last owner of an organization cannot be deactivated or lose the owner role.').waitFor();
    await memberRow(admin, 'newbie@example.test').getByRole('button', { name: 'Remove' }).click();
    await admin.getByRole('status').filter({ hasText: 'newbie@example.test was removed.' }).waitFor();
    await memberRow(admin, 'newbie@example.test').waitFor({ state: 'detached' });
  });

  it('runs a team: members and projects in and out, then deletes it', async () => {
    const joined = await app.request('POST', `/api/0/organizations/${BOOTSTRAP.org}/members/`, { body: { email: 'mate@example.test' } });
    await app.request('POST', new URL(joined.body.invite_link).pathname.replace(/^\/accept\//, '/api/0/accept-invite/'), {
      token: null,
      body: { name: 'Mo Mate', password: 'a long enough password' },
    });
    await admin.goto(`${app.baseUrl}/settings/${BOOTSTRAP.org}/teams/`);
    await admin.getByLabel('Team name').fill('Mobile');
    await admin.getByRole('button', { name: 'Create team' }).click();
    await admin.getByRole('link', { name: 'Mobile' }).click();
    await admin.getByRole('heading', { name: 'Mobile #mobile', level: 1 }).waitFor();
    await admin.getByLabel('Add a member').selectOption({ label: 'Mo Mate (mate@example.test)' });
    await admin.getByRole('button', { name: 'Add member' }).click();
    await admin.getByRole('button', { name: 'Remove mate@example.test' }).waitFor();
    await admin.getByLabel('Add a project').selectOption(BOOTSTRAP.project);
    await admin.getByRole('button', { name: 'Add project' }).click();
    await admin.getByRole('button', { name: `Remove ${BOOTSTRAP.project}` }).waitFor();
    await screenshot(admin, 'team', 'team');
    const project = await app.request('GET', `/api/0/projects/${BOOTSTRAP.org}/${BOOTSTRAP.project}/`);
    expect(project.body.teams.map((t: { slug: string }) => t.slug)).toContain('mobile');
    await admin.getByRole('button', { name: `Remove ${BOOTSTRAP.project}` }).click();
    await admin.getByText('This team has no projects.').waitFor();
    await admin.getByRole('button', { name: 'Remove mate@example.test' }).click();
    await admin.getByRole('status').filter({ hasText: 'mate@example.test left the team.' }).waitFor();
    await admin.getByRole('button', { name: 'Delete team' }).click();
    await admin.getByRole('heading', { name: 'Teams', level: 1 }).waitFor();
    expect((await app.request('GET', `/api/0/teams/${BOOTSTRAP.org}/mobile/`)).status).toBe(404);
    expect(adminErrors).toEqual([]);
  });

  it('warns in the service hook form when the outbound policy refuses the URL, before saving', async () => {
    await admin.goto(`${app.baseUrl}/settings/${BOOTSTRAP.org}/projects/${BOOTSTRAP.project}/hooks/new/`);
    await admin.getByLabel('Callback URL').fill('http://127.0.0.1:9/hook');
    await admin.keyboard.press('Tab');
    await admin
      .getByRole('status')
      .filter({ hasText: 'Deliveries to this URL would be refused: 127.0.0.1 is a loopback address; set WEBHOOK_ALLOW_PRIVATE=true' })
      .waitFor();
    await admin.getByLabel('Callback URL').fill('https://93.184.216.34/hook');
    await admin.keyboard.press('Tab');
    await admin.getByRole('status').filter({ hasText: 'Deliveries to this URL would be refused' }).waitFor({ state: 'detached' });
    expect(adminErrors).toEqual([]);
  });

  it('deletes a project once its slug is typed', async () => {
    const team = await app.request('GET', `/api/0/organizations/${BOOTSTRAP.org}/teams/`);
    const created = await app.request('POST', `/api/0/teams/${BOOTSTRAP.org}/${team.body[0].slug}/projects/`, { body: { name: 'Doomed' } });
    expect(created.status).toBe(201);
    await admin.goto(`${app.baseUrl}/settings/${BOOTSTRAP.org}/projects/doomed/`);
    const remove = admin.getByRole('button', { name: 'Delete project' });
    await remove.waitFor();
    expect(await remove.isDisabled()).toBe(true);
    await admin.getByLabel("Type the project's slug (doomed) to confirm").fill('doomed');
    await remove.click();
    await admin.getByRole('heading', { name: 'Projects', level: 1 }).waitFor();
    expect((await app.request('GET', `/api/0/projects/${BOOTSTRAP.org}/doomed/`)).status).toBe(404);
    expect(adminErrors).toEqual([]);
  });

  it('changes a project’s inbound filters', async () => {
    await admin.goto(`${app.baseUrl}/settings/${BOOTSTRAP.org}/projects/${BOOTSTRAP.project}/`);
    await admin.getByRole('link', { name: 'Inbound filters' }).click();
    await admin.getByRole('heading', { name: 'Inbound filters', level: 1 }).waitFor();
    await admin.getByLabel('Filter out events from localhost').check();
    await admin.getByRole('status').filter({ hasText: 'Localhost filter saved.' }).waitFor();
    await admin.getByLabel('Error messages to filter out').fill('*ResizeObserver loop*\n\nScript error.');
    await admin.getByRole('button', { name: 'Save error messages filter' }).click();
    await admin.getByRole('status').filter({ hasText: 'Error messages filter saved.' }).waitFor();
    const filters = await app.request('GET', `/api/0/projects/${BOOTSTRAP.org}/${BOOTSTRAP.project}/filters/`);
    expect(filters.body).toEqual([
      { id: 'localhost', active: true },
      { id: 'error-messages', active: true, value: ['*ResizeObserver loop*', 'Script error.'] },
      { id: 'releases', active: false, value: [] },
    ]);
    expect(adminErrors).toEqual([]);
  });
});
