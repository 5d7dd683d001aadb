import { FixedClock } from '@faultline/kernel';
import { SmtpReceiver, textPart } from '../support/smtp-receiver';
import { startTestApp, type TestApp } from '../support/test-app';

/**
 * Invitation mails go from the instance's sender with a name the tenant chose, so each
 * organization has a budget of them (counted in PostgreSQL): three mails to one address a day
 * (reinvites included), a number an hour, and a cap on pending invitations. A refusal is a 429
 * that changes nothing: no new link, no mail.
 */
describe('invitation mail budget', () => {
  let api: TestApp;
  const smtp = new SmtpReceiver();
  const clock = new FixedClock(new Date(Math.floor(Date.now() / 1000) * 1000));
  const HOUR = 3_600_000;

  beforeAll(async () => {
    await smtp.start();
    api = await startTestApp(
      { SMTP_URL: smtp.url, MAIL_RETRY_SCHEDULE: '0.5,0.5', INVITE_MAILS_PER_ORGANIZATION_HOUR: '5', PENDING_INVITES_PER_ORGANIZATION: '7' },
      { clock },
    );
  });

  afterAll(async () => {
    await api?.close();
    await smtp.stop();
  });

  async function organization(slug: string): Promise<string> {
    const created = await api.request('POST', '/api/0/organizations/', { body: { name: slug, slug } });
    expect(created.status).toBe(201);
    return slug;
  }

  const invite = (org: string, email: string) => api.request('POST', `/api/0/organizations/${org}/members/`, { body: { email } });
  const reinvite = (org: string, id: string) => api.request('PUT', `/api/0/organizations/${org}/members/${id}/`, { body: { reinvite: true } });
  const pending = async (org: string) =>
    (await api.request('GET', `/api/0/organizations/${org}/members/?per_page=100&query=${encodeURIComponent('isInvited:true')}`)).body as Array<{
      id: string;
      email: string;
    }>;
  const logged = async (org: string, recipient: string) =>
    ((await api.request('GET', `/api/0/organizations/${org}/mail-deliveries/?per_page=100`)).body as Array<{ recipient: string }>).filter(
      (mail) => mail.recipient === recipient,
    ).length;
  /** Which of the mails' invitation links still open the invitation. */
  const workingLinks = async (raws: readonly string[]) => {
    const working: string[] = [];
    for (const raw of raws) {
      const link = /Join the organization: (\S+)/.exec(textPart(raw))?.[1] ?? '';
      const details = await api.request('GET', new URL(link).pathname.replace(/^\/accept\//, '/api/0/accept-invite/'), { token: null });
      if (details.status === 200) working.push(link);
    }
    return working;
  };
  const settle = () => new Promise((resolve) => setTimeout(resolve, 700));

  it('mails one address at most three times a day: the fourth reinvite is a 429 that sends nothing and keeps the link', async () => {
    const org = await organization('recipient-org');
    const victim = 'victim@example.test';
    const invited = await invite(org, victim);
    expect(invited.status).toBe(201);
    clock.advance(HOUR);
    expect((await reinvite(org, invited.body.id)).status).toBe(200);
    clock.advance(HOUR);
    expect((await reinvite(org, invited.body.id)).status).toBe(200);
    const mails = await smtp.waitFor(victim, 3);
    const links = await workingLinks(mails.map((mail) => mail.raw));
    expect(links).toHaveLength(1);

    clock.advance(HOUR);
    const refused = await reinvite(org, invited.body.id);
    expect(refused.status).toBe(429);
    expect(refused.body.detail).toBe('This address was sent 3 invitations in the last 24 hours. Try again later.');
    expect(Number(refused.headers.get('retry-after'))).toBe(21 * 3600);
    // Nothing changed: no mail queued or sent, and the last link still opens the invitation.
    expect(await logged(org, victim)).toBe(3);
    await settle();
    expect(smtp.to(victim)).toHaveLength(3);
    expect(await workingLinks(mails.map((mail) => mail.raw))).toEqual(links);
    // Another organization may still invite the same address.
    const elsewhere = await organization('recipient-other');
    expect((await invite(elsewhere, victim)).status).toBe(201);

    // A day after the first mail, the address's budget has room for one more.
    clock.advance(21 * HOUR);
    expect((await reinvite(org, invited.body.id)).status).toBe(200);
    await smtp.waitFor(victim, 5);
    expect((await reinvite(org, invited.body.id)).status).toBe(429);
  });

  it('sends at most INVITE_MAILS_PER_ORGANIZATION_HOUR invitation mails an hour per organization, without slowing another', async () => {
    const org = await organization('hourly-org');
    for (let i = 0; i < 5; i++) expect((await invite(org, `hourly-${i}@example.test`)).status).toBe(201);
    clock.advance(10 * 60_000);
    const refused = await invite(org, 'hourly-5@example.test');
    expect(refused.status).toBe(429);
    expect(refused.body.detail).toBe('This organization sent 5 invitations in the last hour. Try again later.');
    expect(Number(refused.headers.get('retry-after'))).toBe(50 * 60);
    // Reinvites count against the same budget.
    const [first] = await pending(org);
    expect((await reinvite(org, first.id)).status).toBe(429);
    // Nothing was created or mailed.
    expect((await pending(org)).map((invitation) => invitation.email)).not.toContain('hourly-5@example.test');
    expect(await logged(org, 'hourly-5@example.test')).toBe(0);
    await settle();
    expect(smtp.to('hourly-5@example.test')).toHaveLength(0);

    // Another organization is not held up by this one's budget.
    const other = await organization('hourly-other');
    expect((await invite(other, 'neighbour@example.test')).status).toBe(201);

    // An hour after the first mails, the budget has refilled.
    clock.advance(50 * 60_000);
    expect((await invite(org, 'hourly-5@example.test')).status).toBe(201);
    await smtp.waitFor('hourly-5@example.test', 1);
  });

  it('keeps at most PENDING_INVITES_PER_ORGANIZATION invitations pending; revoking one makes room', async () => {
    const org = await organization('pending-org');
    for (let i = 0; i < 5; i++) expect((await invite(org, `pending-${i}@example.test`)).status).toBe(201);
    clock.advance(HOUR);
    for (let i = 5; i < 7; i++) expect((await invite(org, `pending-${i}@example.test`)).status).toBe(201);
    const refused = await invite(org, 'pending-7@example.test');
    expect(refused.status).toBe(429);
    expect(refused.body.detail).toBe('This organization has 7 pending invitations: revoke some before inviting more.');
    // Waiting does not help here, so no Retry-After.
    expect(refused.headers.get('retry-after')).toBeNull();
    expect(await pending(org)).toHaveLength(7);
    expect(await logged(org, 'pending-7@example.test')).toBe(0);

    const [first] = await pending(org);
    expect((await api.request('DELETE', `/api/0/organizations/${org}/members/${first.id}/`)).status).toBe(204);
    expect((await invite(org, 'pending-7@example.test')).status).toBe(201);
  });
});
