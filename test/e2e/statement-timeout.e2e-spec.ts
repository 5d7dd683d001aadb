import { Client } from 'pg';
import { Database } from '@faultline/platform';
import { startTestApp, type TestApp } from '../support/test-app';

/**
 * One tenant's slow statement cannot hold the API's connections: each statement of an API request
 * is cancelled after API_STATEMENT_TIMEOUT_MS and the request answers 503, while other requests go
 * on being served. Here the slow statement is an event search kept waiting by a lock, with a pool
 * of two connections that two such searches would otherwise hold until the lock went away.
 */
describe('statement timeout', () => {
  let api: TestApp;
  let locker: Client;

  beforeAll(async () => {
    api = await startTestApp({ ROLE: 'api', DATABASE_POOL_SIZE: '2', API_STATEMENT_TIMEOUT_MS: '300' });
    locker = new Client({ connectionString: api.databaseUrl });
    await locker.connect();
  });

  afterAll(async () => {
    await locker?.end();
    await api?.close();
  });

  const timed = async (path: string) => {
    const started = Date.now();
    const response = await api.request('GET', path);
    return { status: response.status, detail: response.body?.detail as string | undefined, seconds: (Date.now() - started) / 1000 };
  };

  it('cancels a request statement that runs too long, answers 503, and serves other requests meanwhile', async () => {
    const search = '/api/0/organizations/acme/events/?field=id&statsPeriod=14d';
    expect((await timed(search)).status).toBe(200);
    await locker.query('BEGIN');
    await locker.query('LOCK TABLE issues.error_events IN ACCESS EXCLUSIVE MODE');
    // Whatever happens, the lock goes after 10 s, so that without a timeout the searches end (late).
    const release = setTimeout(() => void locker.query('ROLLBACK'), 10_000);
    try {
      const slow = [timed(search), timed(search)];
      await new Promise((resolve) => setTimeout(resolve, 100));
      const other = await timed('/api/0/organizations/acme/');
      const [first, second] = await Promise.all(slow);
      for (const cut of [first, second]) {
        expect(cut).toMatchObject({ status: 503, detail: expect.stringContaining('took too long') });
        expect(cut.seconds).toBeLessThan(5);
      }
      expect(other.status).toBe(200);
      expect(other.seconds).toBeLessThan(5);
    } finally {
      clearTimeout(release);
      await locker.query('ROLLBACK');
    }
    // The connections that served the cut statements serve again.
    expect((await timed(search)).status).toBe(200);
  });

  it('leaves work outside a request (workers, migrations) to the server default', async () => {
    const database = api.app.get(Database);
    await expect(database.query('SELECT pg_sleep(0.6)')).resolves.toHaveLength(1);
    await expect(database.transaction((tx) => tx.query('SELECT pg_sleep(0.6)'))).resolves.toHaveLength(1);
  });
});
