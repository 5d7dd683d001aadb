import { EventProcessing } from '@faultline/ingest';
import { Database } from '@faultline/platform';
import { BOOTSTRAP, startTestApp, type TestApp } from '../support/test-app';

const FORWARDED = 'x-forwarded-for';

function signIn(api: TestApp, username: string, password: string, headers: Record<string, string> = {}) {
  return api.request('POST', '/api/0/auth/login/', { token: null, body: { username, password }, headers });
}

const statuses = (responses: Array<{ status: number }>) =>
  responses.reduce<Record<number, number>>((counts, { status }) => ({ ...counts, [status]: (counts[status] ?? 0) + 1 }), {});

/** Sends an SDK event whose user asks for the sender's address (`{{auto}}`); answers the address the project's users show. */
async function autoUserAddress(api: TestApp, headers: Record<string, string>): Promise<string | null> {
  const keys = await api.request('GET', '/api/0/projects/acme/web/keys/');
  const { projectId, public: key } = keys.body[0];
  const response = await fetch(`${api.baseUrl}/api/${projectId}/store/?sentry_key=${key}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...headers },
    body: JSON.stringify({ message: 'who sent this', user: { id: 'auto-user', ip_address: '{{auto}}' } }),
  });
  expect(response.status).toBe(200);
  await api.app.get(EventProcessing).drain();
  const users = await api.request('GET', '/api/0/projects/acme/web/users/?query=id:auto-user');
  return users.body[0]?.ipAddress ?? null;
}

async function sessionAddress(api: TestApp, headers: Record<string, string>): Promise<string | null> {
  expect((await signIn(api, BOOTSTRAP.email, BOOTSTRAP.password, headers)).status).toBe(200);
  const [session] = await api.app.get(Database).query<{ ip_address: string | null }>(`SELECT ip_address FROM identity.user_sessions ORDER BY id DESC LIMIT 1`);
  return session.ip_address;
}

describe('the sign-in throttle and the client address', () => {
  describe('behind no proxy (TRUST_PROXY unset)', () => {
    let api: TestApp;

    beforeAll(async () => {
      api = await startTestApp();
    });

    afterAll(async () => {
      await api?.close();
    });

    it('X-Forwarded-For names neither the SDK user’s address nor the session’s: the socket’s does', async () => {
      expect(await autoUserAddress(api, { [FORWARDED]: '203.0.113.9' })).toBe('127.0.0.1');
      expect(await sessionAddress(api, { [FORWARDED]: '203.0.113.9' })).toBe('127.0.0.1');
    });

    it('a parallel burst of wrong passwords gets 429 after the 10th attempt', async () => {
      const burst = await Promise.all(Array.from({ length: 24 }, () => signIn(api, BOOTSTRAP.email, 'not-the-password')));
      expect(statuses(burst)).toEqual({ 401: 10, 429: 14 });
      const limited = burst.find((response) => response.status === 429) as { headers: Headers };
      expect(Number(limited.headers.get('retry-after'))).toBeGreaterThan(0);
      // The right password is refused too until the window has passed.
      expect((await signIn(api, BOOTSTRAP.email, BOOTSTRAP.password)).status).toBe(429);
    });

    it('a client that names a new address in X-Forwarded-For for each guess is still one client: 429 after 50', async () => {
      // 10 of this client's 50 went to the burst above.
      const guesses = await Promise.all(
        Array.from({ length: 45 }, (_, index) => signIn(api, `nobody${index}@acme.test`, 'not-the-password', { [FORWARDED]: `198.51.100.${index + 1}` })),
      );
      expect(statuses(guesses)).toEqual({ 401: 40, 429: 5 });
    });
  });

  describe('behind a proxy named in TRUST_PROXY', () => {
    let api: TestApp;

    beforeAll(async () => {
      api = await startTestApp({ TRUST_PROXY: '127.0.0.1' });
    });

    afterAll(async () => {
      await api?.close();
    });

    it('the proxy’s X-Forwarded-For gives the SDK user’s and the session’s address', async () => {
      expect(await autoUserAddress(api, { [FORWARDED]: '203.0.113.9' })).toBe('203.0.113.9');
      expect(await sessionAddress(api, { [FORWARDED]: '10.9.8.7, 203.0.113.10' })).toBe('203.0.113.10');
    });

    it('counts sign-in attempts per forwarded client address', async () => {
      const guesses = await Promise.all(
        Array.from({ length: 52 }, (_, index) => signIn(api, `nobody${index}@acme.test`, 'not-the-password', { [FORWARDED]: '203.0.113.66' })),
      );
      expect(statuses(guesses)).toEqual({ 401: 50, 429: 2 });
      expect((await signIn(api, 'someone@acme.test', 'not-the-password', { [FORWARDED]: '203.0.113.67' })).status).toBe(401);
    });
  });
});
