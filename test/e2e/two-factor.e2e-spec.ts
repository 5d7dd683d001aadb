import { CommandBus } from '@nestjs/cqrs';
import { generate } from 'otplib';
import { CreateUserCommand, SetUserPasswordCommand } from '@faultline/identity';
import { FixedClock } from '@faultline/kernel';
import { Database } from '@faultline/platform';
import { BOOTSTRAP, startTestApp, type TestApp } from '../support/test-app';

/**
 * Two-factor authentication with an authenticator app (TOTP) and recovery codes, through Sentry's
 * authenticators API, the second step of a password sign-in, and an organization's `require2FA`.
 */
describe('two-factor authentication', () => {
  const clock = new FixedClock(new Date('2026-03-02T10:00:00Z'));
  let api: TestApp;
  let secret: string;
  let recoveryCodes: string[];

  const code = (at = clock.now()) => generate({ secret, epoch: Math.floor(at.getTime() / 1000) });

  interface Browser {
    readonly cookie: string;
    readonly csrf: string;
  }

  async function signIn(username: string, password: string) {
    const response = await api.request('POST', '/api/0/auth/login/', { token: null, body: { username, password } });
    return { ...response, cookie: (response.headers.get('set-cookie') ?? '').split(';')[0] };
  }

  async function secondStep(challenge: string, otp: string) {
    const response = await api.request('POST', '/api/0/auth/2fa/', { token: null, body: { challenge, otp } });
    return { ...response, cookie: (response.headers.get('set-cookie') ?? '').split(';')[0] };
  }

  const as = (browser: Browser, method: string, path: string, body?: unknown) =>
    api.request(method, path, { token: null, body, headers: { cookie: browser.cookie, 'x-csrftoken': browser.csrf } });

  beforeAll(async () => {
    api = await startTestApp({}, { clock });
    const commands = api.app.get(CommandBus);
    const carol = await commands.execute<CreateUserCommand, { id: string }>(new CreateUserCommand('carol@acme.test', 'Carol'));
    await commands.execute(new SetUserPasswordCommand('carol@acme.test', 'carol-password-1'));
    const database = api.app.get(Database);
    await database.execute(
      `INSERT INTO identity.organization_members (organization_id, user_id, role) SELECT id, $1, 'member' FROM identity.organizations WHERE slug = 'acme'`,
      [carol.id],
    );
  });

  afterAll(async () => {
    await api?.close();
  });

  let admin: Browser;

  it('enrols an authenticator app from a browser session, once its first code proves it holds the secret', async () => {
    const signedIn = await signIn(BOOTSTRAP.email, BOOTSTRAP.password);
    expect(signedIn.status).toBe(200);
    admin = { cookie: signedIn.cookie, csrf: signedIn.body.csrfToken };

    // Requiring a second factor of everyone takes one of your own.
    const premature = await as(admin, 'PUT', '/api/0/organizations/acme/', { require2FA: true });
    expect(premature.status).toBe(400);
    expect(premature.body.require2FA).toEqual(['Cannot require two-factor authentication without personal two-factor enabled.']);

    const enrolment = await as(admin, 'GET', '/api/0/users/me/authenticators/totp/enroll/');
    expect(enrolment.status).toBe(200);
    expect(enrolment.body.qrcode).toMatch(/^otpauth:\/\/totp\/Faultline:admin%40acme\.test\?secret=[A-Z2-7]+&/);
    expect(enrolment.body.qrcodeSvg).toMatch(/^<svg /);
    secret = enrolment.body.secret;

    const wrong = await as(admin, 'POST', '/api/0/users/me/authenticators/totp/enroll/', { secret, otp: '000000' });
    expect(wrong.status).toBe(400);
    expect(wrong.body.otp).toEqual(['Invalid confirmation code. Try again.']);
    // An API token reads authenticators but cannot change them.
    expect((await api.request('POST', '/api/0/users/me/authenticators/totp/enroll/', { body: { secret, otp: await code() } })).status).toBe(403);

    const enrolled = await as(admin, 'POST', '/api/0/users/me/authenticators/totp/enroll/', { secret, otp: await code() });
    expect(enrolled.status).toBe(200);
    recoveryCodes = enrolled.body.recoveryCodes;
    expect(recoveryCodes).toHaveLength(10);
    expect(new Set(recoveryCodes).size).toBe(10);
    expect((await as(admin, 'POST', '/api/0/users/me/authenticators/totp/enroll/', { secret, otp: await code() })).status).toBe(409);

    const listed = await api.request('GET', '/api/0/users/me/authenticators/');
    expect(listed.body.map((authenticator: { type: string }) => authenticator.type)).toEqual(['totp', 'recovery']);
    expect(listed.body[1]).toMatchObject({ isBackupInterface: true, codesRemaining: 10 });
  });

  it('asks for the second factor after the password; a code signs in once, and a wrong one is refused', async () => {
    const first = await signIn(BOOTSTRAP.email, BOOTSTRAP.password);
    expect(first.status).toBe(200);
    expect(first.body).toEqual({ twoFactorRequired: true, challenge: expect.any(String), expires: '2026-03-02T10:05:00.000Z', interfaces: ['totp'] });
    expect(first.cookie).toBe('');

    expect((await secondStep(first.body.challenge, '123456')).status).toBe(401);
    // The code that enrolled the app was used in this 30-second step: it does not sign in again.
    expect((await secondStep(first.body.challenge, await code())).status).toBe(401);

    clock.advance(30_000);
    const done = await secondStep(first.body.challenge, await code());
    expect(done.status).toBe(200);
    expect(done.cookie).toMatch(/^faultline_session=/);
    const me = await api.request('GET', '/api/0/auth/', { token: null, headers: { cookie: done.cookie } });
    expect(me.body.email).toBe(BOOTSTRAP.email);
    // The challenge is spent.
    clock.advance(30_000);
    expect((await secondStep(first.body.challenge, await code())).status).toBe(401);
  });

  it('takes each recovery code once', async () => {
    const [recovery] = recoveryCodes;
    const first = await signIn(BOOTSTRAP.email, BOOTSTRAP.password);
    expect((await secondStep(first.body.challenge, recovery.toLowerCase().replace('-', ' '))).status).toBe(200);
    const second = await signIn(BOOTSTRAP.email, BOOTSTRAP.password);
    const reused = await secondStep(second.body.challenge, recovery);
    expect(reused.status).toBe(401);
    expect(reused.body.detail).toBe('Invalid confirmation code. Try again.');
  });

  it('lets a challenge expire after five minutes and after five wrong codes', async () => {
    const late = await signIn(BOOTSTRAP.email, BOOTSTRAP.password);
    clock.advance(5 * 60_000 + 1_000);
    expect((await secondStep(late.body.challenge, await code())).body.code).toBe('challenge-expired');

    const guessed = await signIn(BOOTSTRAP.email, BOOTSTRAP.password);
    for (let attempt = 0; attempt < 5; attempt++) expect((await secondStep(guessed.body.challenge, '111111')).status).toBe(401);
    const right = await secondStep(guessed.body.challenge, await code());
    expect(right.status).toBe(401);
    expect(right.body.code).toBe('challenge-expired');
  });

  it('stops a user’s codes after ten wrong ones in fifteen minutes, whatever the challenge, until the window has passed', async () => {
    // Eight wrong codes were counted by the tests before: two, one and five.
    const another = await signIn(BOOTSTRAP.email, BOOTSTRAP.password);
    for (let attempt = 0; attempt < 2; attempt++) expect((await secondStep(another.body.challenge, '222222')).status).toBe(401);
    const next = await signIn(BOOTSTRAP.email, BOOTSTRAP.password);
    expect((await secondStep(next.body.challenge, await code())).status).toBe(429);

    clock.advance(15 * 60_000);
    const later = await signIn(BOOTSTRAP.email, BOOTSTRAP.password);
    expect((await secondStep(later.body.challenge, await code())).status).toBe(200);
  });

  it('with require2FA, refuses members without a second factor as Sentry does, and keeps the owner’s', async () => {
    const required = await as(admin, 'PUT', '/api/0/organizations/acme/', { require2FA: true });
    expect(required.status).toBe(200);
    expect(required.body.require2FA).toBe(true);

    const carolSignedIn = await signIn('carol@acme.test', 'carol-password-1');
    expect(carolSignedIn.status).toBe(200);
    const carol = { cookie: carolSignedIn.cookie, csrf: carolSignedIn.body.csrfToken };
    const refused = await as(carol, 'GET', '/api/0/organizations/acme/');
    expect(refused.status).toBe(401);
    expect(refused.body.detail).toEqual({ code: '2fa-required', message: 'Organization requires two-factor authentication to be enabled', extra: {} });
    expect((await as(carol, 'GET', '/api/0/organizations/acme/projects/')).status).toBe(401);
    // Her own account stays hers: she can see her organizations and enrol.
    expect((await as(carol, 'GET', '/api/0/organizations/')).status).toBe(200);
    expect((await as(carol, 'GET', '/api/0/users/me/authenticators/totp/enroll/')).status).toBe(200);

    // The owner cannot drop the second factor the organization requires.
    const [totp] = (await api.request('GET', '/api/0/users/me/authenticators/')).body;
    const removal = await as(admin, 'DELETE', `/api/0/users/me/authenticators/${totp.id}/`);
    expect(removal.status).toBe(403);

    const relaxed = await as(admin, 'PUT', '/api/0/organizations/acme/', { require2FA: false });
    expect(relaxed.status).toBe(200);
    expect((await as(carol, 'GET', '/api/0/organizations/acme/')).status).toBe(200);
    expect((await as(admin, 'DELETE', `/api/0/users/me/authenticators/${totp.id}/`)).status).toBe(204);
    expect((await api.request('GET', '/api/0/users/me/authenticators/')).body).toEqual([]);
    expect((await signIn(BOOTSTRAP.email, BOOTSTRAP.password)).body.csrfToken).toEqual(expect.any(String));
  });
});
