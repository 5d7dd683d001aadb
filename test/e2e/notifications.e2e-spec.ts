import { randomUUID } from 'node:crypto';
import { EventProcessing } from '@faultline/ingest';
import { enableScim, scimClient, USER_SCHEMA } from '../support/scim';
import { SmtpReceiver, textPart } from '../support/smtp-receiver';
import { BOOTSTRAP, startTestApp, type TestApp } from '../support/test-app';
import { WebhookReceiver } from '../support/webhook-receiver';

/**
 * Mail through a real SMTP server and chat through incoming webhooks: issue alert actions,
 * workflow mail, an SMTP outage survived, and the delivery log of the organization's mail.
 */
describe('notifications', () => {
  let api: TestApp;
  const smtp = new SmtpReceiver();
  const receiver = new WebhookReceiver();
  let projectId: string;
  let publicKey: string;
  let devUserId: string;
  const dev = 'dev@acme.test';
  const rulesPath = '/api/0/projects/acme/web/rules/';

  beforeAll(async () => {
    await smtp.start();
    await receiver.start();
    api = await startTestApp({
      SMTP_URL: smtp.url,
      MAIL_FROM: 'Faultline <errors@acme.test>',
      MAIL_RETRY_SCHEDULE: '0.5,0.5,0.5,0.5,0.5,0.5,0.5,0.5,0.5,0.5',
      MAIL_TIMEOUT_MS: '2000',
      WEBHOOK_ALLOW_PRIVATE: 'true',
      WEBHOOK_RETRY_SCHEDULE: '0.2,0.2',
    });
    const keys = await api.request('GET', '/api/0/projects/acme/web/keys/');
    projectId = String(keys.body[0].projectId);
    publicKey = keys.body[0].public;
    const scim = scimClient(api, await enableScim(api));
    const created = await scim('POST', '/Users', {
      schemas: [USER_SCHEMA],
      userName: dev,
      emails: [{ primary: true, value: dev }],
      active: true,
      name: { givenName: 'Dev', familyName: 'One' },
    });
    expect(created.status).toBe(201);
    const members = await api.request('GET', '/api/0/organizations/acme/members/');
    devUserId = String(members.body.find((member: { email: string }) => member.email === dev).user.id);
  });

  afterAll(async () => {
    await api?.close();
    await smtp.stop();
    await receiver.close();
  });

  async function sendError(message: string): Promise<string> {
    const response = await fetch(`${api.baseUrl}/api/${projectId}/store/?sentry_key=${publicKey}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ event_id: randomUUID().replace(/-/g, ''), level: 'error', platform: 'node', message, culprit: 'app/checkout.js in pay' }),
    });
    expect(response.status).toBe(200);
    await api.app.get(EventProcessing).drain();
    const issues = await api.request('GET', `/api/0/projects/acme/web/issues/?query=${encodeURIComponent(message)}`);
    return String(issues.body.find((issue: { title: string }) => issue.title.includes(message)).id);
  }

  async function createRule(name: string, actions: unknown[]): Promise<void> {
    const rule = await api.request('POST', rulesPath, {
      body: { name, actionMatch: 'all', conditions: [{ id: 'sentry.rules.conditions.every_event.EveryEventCondition' }], actions, frequency: 5 },
    });
    expect(rule.status).toBe(201);
  }

  async function deleteRules(): Promise<void> {
    for (const rule of (await api.request('GET', rulesPath)).body) await api.request('DELETE', `${rulesPath}${rule.id}/`);
  }

  afterEach(deleteRules);

  const json = ([request]: Array<{ rawBody: string }>): any => JSON.parse(request.rawBody);

  it('an e-mail alert action mails the chosen member once per fire, with a working link to the issue', async () => {
    const refused = await api.request('POST', rulesPath, {
      body: { name: 'bad', actionMatch: 'all', conditions: [], actions: [{ id: 'sentry.mail.actions.NotifyEmailAction', targetType: 'Member' }] },
    });
    expect(refused.status).toBe(400);
    const stranger = await api.request('POST', rulesPath, {
      body: {
        name: 'bad',
        actionMatch: 'all',
        conditions: [],
        actions: [{ id: 'sentry.mail.actions.NotifyEmailAction', targetType: 'Member', targetIdentifier: '999999' }],
      },
    });
    expect(stranger.status).toBe(400);
    expect(stranger.body.detail).toBe('actions[0]: no active member with user id 999999 in this organization');
    await createRule('Mail the developer', [
      { id: 'sentry.mail.actions.NotifyEmailAction', targetType: 'Member', targetIdentifier: devUserId, fallthroughType: 'ActiveMembers' },
    ]);

    const issueId = await sendError('Checkout failed');
    const [mail] = await smtp.waitFor(dev, 1);
    expect(mail.from).toBe('errors@acme.test');
    expect(mail.raw).toMatch(/Subject: \[web\] WEB-\d+: Checkout failed/);
    expect(mail.raw).toContain('Content-Type: text/html');
    expect(mail.raw).toMatch(/List-Unsubscribe:\s+<http:\/\/127\.0\.0\.1:\d+\/unsubscribe\//);
    const text = textPart(mail.raw);
    expect(text).toContain('Alert rule "Mail the developer" fired');
    expect(text).toContain('Project: web');
    expect(text).toContain('Events: 1');
    const link = /View the issue: (\S+)/.exec(text)?.[1] ?? '';
    expect(link).toBe(`${api.baseUrl}/organizations/acme/issues/${issueId}/`);
    // The link names the issue the API serves (the web UI's page of that issue).
    const linkedId = /\/organizations\/acme\/issues\/(\d+)\/$/.exec(link)?.[1];
    expect((await api.request('GET', `/api/0/organizations/acme/issues/${linkedId}/`)).body.title).toBe('Checkout failed');

    // A second event within the rule's action interval mails nobody again.
    await sendError('Checkout failed');
    await new Promise((resolve) => setTimeout(resolve, 500));
    expect(smtp.to(dev)).toHaveLength(1);
    // Nobody else was mailed; the log shows the delivery.
    expect(smtp.to(BOOTSTRAP.email)).toHaveLength(0);
    const log = await api.request('GET', '/api/0/organizations/acme/mail-deliveries/');
    expect(log.status).toBe(200);
    expect(log.body[0]).toMatchObject({ recipient: dev, reason: 'alert', issueId, status: 'delivered', attempts: 1 });
  });

  it('mails the assignee, the participants of comments and regressions, and nobody for their own action', async () => {
    const issueId = await sendError('Payment declined');
    const before = smtp.to(dev).length;
    const assigned = await api.request('PUT', `/api/0/organizations/acme/issues/${issueId}/`, { body: { assignedTo: `user:${devUserId}` } });
    expect(assigned.status).toBe(200);
    const mails = await smtp.waitFor(dev, before + 1);
    const text = textPart(mails[mails.length - 1].raw);
    expect(text).toMatch(/assigned WEB-\d+ to you/);
    expect(text).toContain(`${api.baseUrl}/organizations/acme/issues/${issueId}/`);

    // The admin's comment reaches the assignee (a participant); the admin hears nothing of their own comment.
    const commented = await api.request('POST', `/api/0/organizations/acme/issues/${issueId}/comments/`, { body: { text: 'Looking at the card gateway' } });
    expect(commented.status).toBe(201);
    const afterComment = await smtp.waitFor(dev, before + 2);
    expect(textPart(afterComment[afterComment.length - 1].raw)).toMatch(/commented on WEB-\d+: Looking at the card gateway/);

    // Resolved, then seen again: the participants hear of the regression.
    expect((await api.request('PUT', `/api/0/organizations/acme/issues/${issueId}/`, { body: { status: 'resolved' } })).status).toBe(200);
    await sendError('Payment declined');
    const afterRegression = await smtp.waitFor(dev, before + 3);
    expect(textPart(afterRegression[afterRegression.length - 1].raw)).toMatch(/WEB-\d+ was resolved and has come back/);

    // The admin took part by commenting: they hear of the regression, not of their own comment.
    const [adminMail] = await smtp.waitFor(BOOTSTRAP.email, 1);
    expect(textPart(adminMail.raw)).toMatch(/was resolved and has come back/);

    // The admin assigns to themselves: no mail.
    const admin = (await api.request('GET', '/api/0/organizations/acme/members/')).body.find((m: { email: string }) => m.email === BOOTSTRAP.email);
    await api.request('PUT', `/api/0/organizations/acme/issues/${issueId}/`, { body: { assignedTo: `user:${admin.user.id}` } });
    await new Promise((resolve) => setTimeout(resolve, 500));
    expect(smtp.to(BOOTSTRAP.email)).toHaveLength(1);
    expect(smtp.to(dev)).toHaveLength(before + 3);
  });

  it('without SMTP_URL, mail is kept in the delivery log, not sent', async () => {
    const quiet = await startTestApp({});
    try {
      const invited = await quiet.request('POST', '/api/0/organizations/acme/members/', { body: { email: 'kept@acme.test' } });
      expect(invited.status).toBe(201);
      const deadline = Date.now() + 10_000;
      let entry: { status: string; lastError: string | null; reason: string } | undefined;
      while (entry?.status !== 'failed' && Date.now() < deadline) {
        entry = (await quiet.request('GET', '/api/0/organizations/acme/mail-deliveries/')).body[0];
        await new Promise((resolve) => setTimeout(resolve, 100));
      }
      expect(entry).toMatchObject({ recipient: 'kept@acme.test', reason: 'invite', status: 'failed', lastError: 'not sent: SMTP_URL is not set' });
      expect(smtp.to('kept@acme.test')).toEqual([]);
    } finally {
      await quiet.close();
    }
  });

  it('a mail survives an SMTP outage and arrives once', async () => {
    await createRule('Mail through an outage', [{ id: 'sentry.mail.actions.NotifyEmailAction', targetType: 'Member', targetIdentifier: devUserId }]);
    await smtp.stop();
    const before = smtp.to(dev).length;
    await sendError('Outage time error');
    // It fails while the server is down, and is retried.
    const deadline = Date.now() + 10_000;
    for (;;) {
      const log = await api.request('GET', '/api/0/organizations/acme/mail-deliveries/');
      const entry = log.body.find((mail: { subject: string }) => mail.subject.includes('Outage time error'));
      if (entry && entry.attempts >= 2) {
        expect(entry).toMatchObject({ status: 'pending', lastError: expect.stringMatching(/ECONNREFUSED|ECONNECTION|connect/i) });
        break;
      }
      if (Date.now() > deadline) throw new Error(`no failed attempt logged: ${JSON.stringify(entry)}`);
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
    await smtp.start();
    const mails = await smtp.waitFor(dev, before + 1);
    await new Promise((resolve) => setTimeout(resolve, 1500));
    expect(smtp.to(dev)).toHaveLength(mails.length);
    expect(smtp.to(dev).filter((mail) => mail.raw.includes('Outage time error'))).toHaveLength(1);
  });

  it("chat actions post each service's own format to its incoming webhook", async () => {
    await createRule('Tell the channels', [
      { id: 'faultline.rules.actions.notify_chat.SlackWebhookAction', webhookUrl: `${receiver.url}/slack` },
      { id: 'faultline.rules.actions.notify_chat.DiscordWebhookAction', webhookUrl: `${receiver.url}/discord` },
      { id: 'faultline.rules.actions.notify_chat.MsTeamsWebhookAction', webhookUrl: `${receiver.url}/teams` },
      { id: 'faultline.rules.actions.notify_chat.MattermostWebhookAction', webhookUrl: `${receiver.url}/mattermost` },
    ]);
    const issueId = await sendError('Chatty failure');
    const link = `${api.baseUrl}/organizations/acme/issues/${issueId}/`;
    const slack = json(await receiver.waitFor('/slack', 1));
    expect(slack.blocks[0].text.text).toContain(`<${link}|Chatty failure>`);
    expect(slack.blocks[1].fields).toContainEqual({ type: 'mrkdwn', text: '*Project*\nweb' });
    const discord = json(await receiver.waitFor('/discord', 1));
    expect(discord.embeds[0]).toMatchObject({ title: 'Chatty failure', url: link });
    expect(discord.embeds[0].fields).toContainEqual({ name: 'Level', value: 'error', inline: true });
    const teams = json(await receiver.waitFor('/teams', 1));
    expect(teams.attachments[0].contentType).toBe('application/vnd.microsoft.card.adaptive');
    expect(teams.attachments[0].content.actions[0]).toEqual({ type: 'Action.OpenUrl', title: 'View issue', url: link });
    const mattermost = json(await receiver.waitFor('/mattermost', 1));
    expect(mattermost.attachments[0]).toMatchObject({ title: 'Chatty failure', title_link: link });
    expect(mattermost.attachments[0].fields).toContainEqual({ title: 'Events', value: '1', short: true });
  });

  it('"send test notification" sends a rule\'s mail and chat actions now, about the latest issue, with its top in-app frame', async () => {
    const before = smtp.to(dev).length;
    const stored = await fetch(`${api.baseUrl}/api/${projectId}/store/?sentry_key=${publicKey}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({
        event_id: randomUUID().replace(/-/g, ''),
        level: 'error',
        platform: 'node',
        exception: {
          values: [
            {
              type: 'RangeError',
              value: 'amount out of range',
              stacktrace: {
                frames: [
                  { filename: 'node_modules/express/router.js', function: 'handle', lineno: 10, in_app: false },
                  { filename: 'app/checkout.js', function: 'pay', lineno: 42, in_app: true },
                  { filename: 'node_modules/money/index.js', function: 'assertRange', lineno: 7, in_app: false },
                ],
              },
            },
          ],
        },
      }),
    });
    expect(stored.status).toBe(200);
    await api.app.get(EventProcessing).drain();
    const response = await api.request('POST', '/api/0/projects/acme/web/rule-actions/', {
      body: {
        actions: [
          { id: 'sentry.mail.actions.NotifyEmailAction', targetType: 'Member', targetIdentifier: devUserId },
          { id: 'faultline.rules.actions.notify_chat.SlackWebhookAction', webhookUrl: `${receiver.url}/test-slack` },
        ],
      },
    });
    expect(response.status).toBe(200);
    expect(response.body).toEqual({ queued: 2 });
    const mails = await smtp.waitFor(dev, before + 1);
    const tested = textPart(mails[mails.length - 1].raw);
    expect(tested).toContain('Alert rule "Test notification" fired');
    expect(tested).toContain('RangeError: amount out of range');
    expect(tested).toContain('Top in-app frame: pay (app/checkout.js:42)');
    expect(json(await receiver.waitFor('/test-slack', 1)).text).toContain('Test notification');
    const refused = await api.request('POST', '/api/0/projects/acme/web/rule-actions/', {
      body: { actions: [{ id: 'sentry.mail.actions.NotifyEmailAction', targetType: 'Nobody' }] },
    });
    expect(refused.status).toBe(400);
  });

  it('chat URLs obey the outbound address policy of webhooks', async () => {
    const strict = await startTestApp({ WEBHOOK_RETRY_SCHEDULE: '' });
    try {
      const keys = await strict.request('GET', '/api/0/projects/acme/web/keys/');
      const created = await strict.request('POST', rulesPath, {
        body: {
          name: 'Private',
          actionMatch: 'all',
          conditions: [{ id: 'sentry.rules.conditions.every_event.EveryEventCondition' }],
          actions: [{ id: 'faultline.rules.actions.notify_chat.SlackWebhookAction', webhookUrl: `${receiver.url}/private` }],
        },
      });
      expect(created.status).toBe(201);
      await fetch(`${strict.baseUrl}/api/${keys.body[0].projectId}/store/?sentry_key=${keys.body[0].public}`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ event_id: randomUUID().replace(/-/g, ''), message: 'private' }),
      });
      await strict.app.get(EventProcessing).drain();
      await new Promise((resolve) => setTimeout(resolve, 1000));
      expect(receiver.to('/private')).toEqual([]);
    } finally {
      await strict.close();
    }
  });

  it('an unsubscribe link works without signing in and stops that type of mail', async () => {
    await createRule('Mail again', [{ id: 'sentry.mail.actions.NotifyEmailAction', targetType: 'Member', targetIdentifier: devUserId }]);
    const before = smtp.to(dev).length;
    await sendError('Unsubscribe me');
    const mails = await smtp.waitFor(dev, before + 1);
    const link = /Unsubscribe: (\S+)/.exec(textPart(mails[mails.length - 1].raw))?.[1] ?? '';
    expect((await fetch(link)).status).toBe(200);
    expect((await fetch(link.replace(/\/unsubscribe\/(\d+)\./, '/unsubscribe/1$1.'), { method: 'POST' })).status).toBe(404);
    expect((await fetch(link, { method: 'POST' })).status).toBe(200);
    await sendError('Unsubscribed now');
    await new Promise((resolve) => setTimeout(resolve, 700));
    expect(smtp.to(dev)).toHaveLength(before + 1);
    // The user's notification options show it.
    const options = await api.request('GET', '/api/0/users/me/notification-options/');
    expect(options.status).toBe(200);
    expect(options.body.map((option: { type: string }) => option.type)).toEqual(['alerts', 'workflow']);
    expect((await api.request('PUT', '/api/0/users/me/notification-options/', { body: { type: 'alerts', value: 'sometimes' } })).status).toBe(400);
  });

  describe('invitations', () => {
    const linkOf = (raw: string): string => /Join the organization: (\S+)/.exec(textPart(raw))?.[1] ?? '';

    it('an invite mails a link that lets the invitee set a password, join and sign in', async () => {
      const invited = await api.request('POST', '/api/0/organizations/acme/members/', { body: { email: 'new@acme.test', orgRole: 'member', teams: [] } });
      expect(invited.status).toBe(201);
      expect(invited.body).toMatchObject({ email: 'new@acme.test', orgRole: 'member', pending: true, expired: false });
      const [mail] = await smtp.waitFor('new@acme.test', 1);
      const link = linkOf(mail.raw);
      expect(link).toMatch(new RegExp(`^${api.baseUrl}/accept/${invited.body.id}/[0-9a-f]{64}/$`));
      const page = await fetch(link);
      expect(page.status).toBe(200);
      expect(page.headers.get('content-type')).toContain('text/html');
      const detailsPath = new URL(link).pathname.replace(/^\/accept\//, '/api/0/accept-invite/');
      expect((await api.request('GET', detailsPath, { token: null })).body).toMatchObject({
        organization: { slug: 'acme' },
        email: 'new@acme.test',
        existingUser: false,
      });

      expect((await api.request('POST', detailsPath, { token: null, body: { password: 'short' } })).status).toBe(400);
      const accepted = await api.request('POST', detailsPath, { token: null, body: { password: 'a long enough password' } });
      expect(accepted.status).toBe(200);
      const signIn = await api.request('POST', '/api/0/auth/login/', { token: null, body: { username: 'new@acme.test', password: 'a long enough password' } });
      expect(signIn.status).toBe(200);
      const member = await api.request('GET', `/api/0/organizations/acme/members/${invited.body.id}/`);
      expect(member.body).toMatchObject({ email: 'new@acme.test', user: { email: 'new@acme.test' } });
      // A used link lets nobody in again.
      expect((await api.request('POST', detailsPath, { token: null, body: { password: 'a long enough password' } })).status).toBe(404);
      expect((await api.request('POST', '/api/0/organizations/acme/members/', { body: { email: 'new@acme.test' } })).status).toBe(409);
    });

    it('a reinvite sends a new link and retires the old one; a revoked invite lets nobody in', async () => {
      const invited = await api.request('POST', '/api/0/organizations/acme/members/', { body: { email: 'late@acme.test' } });
      expect(invited.status).toBe(201);
      const first = linkOf((await smtp.waitFor('late@acme.test', 1))[0].raw);
      const listed = await api.request('GET', `/api/0/organizations/acme/members/?query=${encodeURIComponent('isInvited:true')}`);
      expect(listed.body).toEqual([expect.objectContaining({ id: invited.body.id, email: 'late@acme.test', pending: true })]);
      expect((await api.request('GET', '/api/0/organizations/acme/members/')).body.map((member: { email: string }) => member.email)).not.toContain(
        'late@acme.test',
      );
      const reinvited = await api.request('PUT', `/api/0/organizations/acme/members/${invited.body.id}/`, { body: { reinvite: true } });
      expect(reinvited.status).toBe(200);
      const second = linkOf((await smtp.waitFor('late@acme.test', 2))[1].raw);
      expect(second).not.toBe(first);
      const api0 = (link: string) => new URL(link).pathname.replace(/^\/accept\//, '/api/0/accept-invite/');
      expect((await api.request('GET', api0(first), { token: null })).status).toBe(404);
      expect((await api.request('GET', api0(second), { token: null })).status).toBe(200);
      expect((await api.request('DELETE', `/api/0/organizations/acme/members/${invited.body.id}/`)).status).toBe(204);
      expect((await api.request('POST', api0(second), { token: null, body: { password: 'a long enough password' } })).status).toBe(404);
      expect((await api.request('GET', `/api/0/organizations/acme/members/${invited.body.id}/`)).status).toBe(404);
    });

    it('refuses a bad address or role and changes nothing', async () => {
      for (const body of [{ email: 'not an address' }, { email: 'x@acme.test', orgRole: 'emperor' }, { email: 'x@acme.test', teams: ['no-such-team'] }]) {
        const response = await api.request('POST', '/api/0/organizations/acme/members/', { body });
        expect(response.status).toBe(400);
        expect(typeof response.body.detail).toBe('string');
      }
      expect(smtp.to('x@acme.test')).toEqual([]);
    });
  });
});
