import { CommandBus } from '@nestjs/cqrs';
import type { Browser, Page } from 'playwright-core';
import { CreateOrganizationCommand, CreateUserCommand, SetUserPasswordCommand } from '@faultline/identity';
import { launchBrowser, newPage, screenshot, signIn } from '../support/browser';
import { BOOTSTRAP, startTestApp, type TestApp } from '../support/test-app';

/**
 * Project transfer in a real browser, with no mail server: acme's owner sends the link from the
 * project settings page and copies it; the owner of another organization opens it, signs in, picks
 * the organization and lands on the project's settings there. At 1280 and 390 px.
 */
describe('web interface: project transfer', () => {
  let browser: Browser;
  let app: TestApp;
  let admin: Page;
  let adminErrors: string[];
  let link = '';

  beforeAll(async () => {
    browser = await launchBrowser();
    app = await startTestApp();
    const commands = app.app.get(CommandBus);
    const bob = await commands.execute<CreateUserCommand, { id: string }>(new CreateUserCommand('bob@umbrella.test', 'Bob'));
    await commands.execute(new CreateOrganizationCommand('Umbrella', 'umbrella', bob.id));
    await commands.execute(new SetUserPasswordCommand('bob@umbrella.test', 'a long enough password'));
    const team = await app.request('GET', `/api/0/organizations/${BOOTSTRAP.org}/teams/`);
    expect(
      (await app.request('POST', `/api/0/teams/${BOOTSTRAP.org}/${team.body[0].slug}/projects/`, { body: { name: 'Mobile', slug: 'mobile' } })).status,
    ).toBe(201);
    ({ page: admin, errors: adminErrors } = await newPage(browser));
    await signIn(admin, app);
  }, 180_000);

  afterAll(async () => {
    await browser?.close();
    await app?.close();
  });

  const noSidewaysScroll = async (page: Page) => {
    const width = await page.evaluate<number>('document.documentElement.scrollWidth');
    expect(width).toBeLessThanOrEqual(page.viewportSize()!.width);
  };

  it('sends the transfer link from the project settings and shows it to copy', async () => {
    await admin.goto(`${app.baseUrl}/settings/${BOOTSTRAP.org}/projects/mobile/`);
    await admin.getByRole('heading', { name: 'Transfer project' }).waitFor();
    await admin.getByLabel('Email of an owner of the receiving organization').fill('nobody@nowhere.test');
    await admin.getByRole('button', { name: 'Send transfer link' }).click();
    await admin.getByText('Could not find an organization owner with that email').waitFor();
    await admin.getByLabel('Email of an owner of the receiving organization').fill('bob@umbrella.test');
    await admin.getByRole('button', { name: 'Send transfer link' }).click();
    await admin.getByRole('button', { name: 'Copy the transfer link for bob@umbrella.test' }).waitFor();
    link = (await admin.locator('.shown-once code').textContent()) ?? '';
    expect(link).toMatch(new RegExp(`^${app.baseUrl}/accept-transfer/\\?data=[0-9a-f]{64}$`));
    await screenshot(admin, 'project-transfer-sent');
    for (const width of [1280, 390]) {
      await admin.setViewportSize({ width, height: 844 });
      await noSidewaysScroll(admin);
    }
    expect(adminErrors).toEqual([]);
  });

  it('lets the receiving owner sign in from the link and accept into their organization', async () => {
    const { page, errors } = await newPage(browser);
    const failed: string[] = [];
    // A request the page itself gave up on (it navigated on) is not a failure.
    page.on('requestfailed', (request) => {
      if (request.failure()?.errorText !== 'net::ERR_ABORTED') failed.push(`${request.url()}: ${request.failure()?.errorText}`);
    });
    await page.setViewportSize({ width: 390, height: 844 });
    await page.goto(link);
    await page.getByLabel('E-mail address').fill('bob@umbrella.test');
    await page.getByLabel('Password').fill('a long enough password');
    await page.keyboard.press('Enter');
    await page.getByRole('heading', { name: 'Accept a project transfer', level: 1 }).waitFor();
    await page.getByRole('heading', { name: `Mobile from ${BOOTSTRAP.org}` }).waitFor();
    await noSidewaysScroll(page);
    await page.setViewportSize({ width: 1280, height: 860 });
    await screenshot(page, 'project-transfer-accept', 'project-transfer');
    expect(await page.getByLabel('Organization that receives it').inputValue()).toBe('umbrella');
    await page.getByRole('button', { name: 'Transfer project' }).click();
    await page.getByRole('heading', { name: 'Project settings', level: 1 }).waitFor();
    expect(new URL(page.url()).pathname).toBe('/settings/umbrella/projects/mobile/');
    expect((await app.request('GET', `/api/0/projects/${BOOTSTRAP.org}/mobile/`)).status).toBe(404);

    // The link works once.
    await page.goto(link);
    await page.getByText('This transfer link has already been used or does not exist.').waitFor();
    expect(errors).toEqual([]);
    expect(failed).toEqual([]);
  });
});
