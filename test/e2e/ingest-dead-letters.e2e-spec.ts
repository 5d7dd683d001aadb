import { execFile } from 'node:child_process';
import { createHash } from 'node:crypto';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { EventProcessing } from '@faultline/ingest';
import { IssueIngestion } from '@faultline/issues';
import { Database } from '@faultline/platform';
import { startTestApp, type TestApp } from '../support/test-app';
import { eventsProcessed } from '../support/events-processed';

const run = promisify(execFile);

/** Accepted events are never lost: what PostgreSQL cannot store is made storable, and what still fails is kept aside. */
describe('accepted events that processing cannot store as sent', () => {
  let api: TestApp;
  let dsn: string;
  let projectId: string;

  beforeAll(async () => {
    api = await startTestApp();
    const keys = await api.request('GET', '/api/0/projects/acme/web/keys/');
    dsn = keys.body[0].dsn.public;
    projectId = String(keys.body[0].projectId);
  });

  afterAll(async () => {
    await api?.close();
  });

  const database = () => api.app.get(Database);

  /** Waits until nothing accepted is waiting: the queue and the outcomes are empty. */
  const processed = () => eventsProcessed(api);

  const metric = async (name: string) => {
    const text = (await api.request('GET', '/metrics', { token: null })).body as string;
    const line = text.split('\n').find((candidate) => candidate.startsWith(`${name} `));
    return line === undefined ? undefined : Number(line.split(' ')[1]);
  };

  it('groups an SDK event with NUL characters and lone surrogates into an issue, with U+FFFD in their place', async () => {
    await run(process.execPath, [join(__dirname, '..', 'support', 'sentry-client.cjs'), dsn, 'unstorable'], { timeout: 30_000 });
    await processed();

    const issues = (await api.request('GET', '/api/0/projects/acme/web/issues/')).body;
    expect(issues).toEqual([expect.objectContaining({ title: expect.stringMatching(/Disk\uFFFDfull on volume 💾$/), count: '1' })]);
    const event = (await api.request('GET', `/api/0/organizations/acme/issues/${issues[0].id}/events/latest/`)).body;
    expect(event.tags).toEqual(
      expect.arrayContaining([
        { key: 'nul\uFFFDkey', value: 'nul\uFFFDvalue' },
        { key: 'half', value: 'lone \uFFFD surrogate' },
      ]),
    );
    expect(event.context).toEqual({ 'extra\uFFFDkey': { 'nested\uFFFDkey': 'nested\uFFFDvalue' } });
    const values = await api.request('GET', `/api/0/projects/acme/web/tags/${encodeURIComponent('nul\uFFFDkey')}/values/`);
    expect(values.body).toEqual([expect.objectContaining({ value: 'nul\uFFFDvalue', count: 1 })]);
    const [fact] = await database().query<{ data: { message: string } }>(`SELECT data FROM event_store.events WHERE event_type = 'ingest.ErrorEventProcessed'`);
    expect(fact.data.message).toBe('Disk\uFFFDfull on volume 💾');
    expect((await api.request('GET', '/api/0/projects/acme/web/dead-letters/')).body).toEqual([]);
  });

  describe('an event that fails processing', () => {
    const eventId = (message: string) => createHash('md5').update(message).digest('hex');
    /** One envelope, so the events are queued together and taken in one batch. */
    const envelope = (messages: string[]) =>
      [
        JSON.stringify({ event_id: 'e'.repeat(32) }),
        ...messages.flatMap((message) => [JSON.stringify({ type: 'event' }), JSON.stringify({ event_id: eventId(message), message })]),
      ].join('\n');

    beforeAll(async () => {
      // A rule of the database that one event breaks and the others keep: the genuine failure of a statement.
      await database().execute(`ALTER TABLE issues.error_events ADD CONSTRAINT no_poison CHECK (data->>'message' IS DISTINCT FROM 'poison pill') NOT VALID`);
    });

    it('is set aside as a dead letter with its reason while the rest of its batch is stored', async () => {
      const messages = ['good one', 'good two', 'poison pill', 'good three', 'good four'];
      const key = new URL(dsn).username;
      const accepted = await fetch(`${api.baseUrl}/api/${projectId}/envelope/?sentry_key=${key}`, { method: 'POST', body: envelope(messages) });
      expect(accepted.status).toBe(200);
      await processed();

      const stored = await database().query<{ message: string }>(
        `SELECT data->>'message' AS message FROM issues.error_events WHERE data->>'message' LIKE 'good %'`,
      );
      expect(stored.map((row) => row.message).sort()).toEqual(['good four', 'good one', 'good three', 'good two']);
      const letters = await api.request('GET', '/api/0/projects/acme/web/dead-letters/');
      expect(letters.status).toBe(200);
      expect(letters.body).toEqual([
        {
          id: expect.any(String),
          eventId: eventId('poison pill'),
          organizationId: expect.any(String),
          projectId,
          projectSlug: 'web',
          reason: expect.stringContaining('no_poison'),
          attempts: 1,
          dateReceived: expect.any(String),
          dateFailed: expect.any(String),
          size: expect.any(Number),
        },
      ]);
      const detail = await api.request('GET', `/api/0/projects/acme/web/dead-letters/${letters.body[0].id}/`);
      expect(detail.body.payload).toEqual({ event_id: eventId('poison pill'), message: 'poison pill' });
      expect(await metric('ingest_dead_letters_total')).toBe(1);
      expect(await metric('ingest_dead_letters')).toBe(1);
    });

    it('is shown to project admins of its own organization only', async () => {
      const [letter] = (await api.request('GET', '/api/0/projects/acme/web/dead-letters/')).body;
      const readOnly = await api.request('POST', '/api/0/organizations/acme/org-auth-tokens/', {
        body: { name: 'read', scopes: ['project:read', 'project:write'] },
      });
      expect((await api.request('GET', '/api/0/projects/acme/web/dead-letters/', { token: readOnly.body.token })).status).toBe(403);

      await api.request('POST', '/api/0/organizations/', { body: { name: 'Initech', slug: 'initech' } });
      const outsider = await api.request('POST', '/api/0/organizations/initech/org-auth-tokens/', {
        body: { name: 'admin', scopes: ['project:admin', 'org:admin'] },
      });
      for (const [method, path] of [
        ['GET', '/api/0/projects/acme/web/dead-letters/'],
        ['GET', `/api/0/projects/acme/web/dead-letters/${letter.id}/`],
        ['POST', `/api/0/projects/acme/web/dead-letters/${letter.id}/retry/`],
        ['POST', '/api/0/projects/acme/web/dead-letters/retry/'],
        ['DELETE', `/api/0/projects/acme/web/dead-letters/${letter.id}/`],
      ]) {
        expect([method, path, (await api.request(method, path, { token: outsider.body.token })).status]).toEqual([method, path, 404]);
      }
      expect((await api.request('GET', '/api/0/projects/acme/web/dead-letters/not-an-id/')).status).toBe(404);
      expect((await api.request('GET', '/api/0/projects/acme/web/dead-letters/')).body).toHaveLength(1);
    });

    it('is tried again later while it fails for a reason that may pass, and set aside after ten attempts', async () => {
      const ingestion = api.app.get(IssueIngestion);
      const recordEvents = ingestion.recordEvents.bind(ingestion);
      const deadlock = jest.spyOn(ingestion, 'recordEvents').mockImplementation(async (tx, events) => {
        if (events.some((event) => event.title === 'flaky')) throw Object.assign(new Error('deadlock detected'), { code: '40P01' });
        return recordEvents(tx, events);
      });
      try {
        const key = new URL(dsn).username;
        const accepted = await fetch(`${api.baseUrl}/api/${projectId}/envelope/?sentry_key=${key}`, { method: 'POST', body: envelope(['flaky', 'steady']) });
        expect(accepted.status).toBe(200);
        await api.app.get(EventProcessing).drain();
        expect((await database().query(`SELECT 1 FROM issues.error_events WHERE data->>'message' = 'steady'`)).length).toBe(1);
        const queued = await database().query<{ attempts: number; last_error: string; later: boolean }>(
          `SELECT attempts, last_error, available_at > now() AS later FROM ingest.ingest_queue`,
        );
        expect(queued).toEqual([{ attempts: 1, last_error: 'deadlock detected', later: true }]);
        expect((await api.request('GET', '/api/0/projects/acme/web/dead-letters/')).body).toHaveLength(1);

        await database().execute(`UPDATE ingest.ingest_queue SET attempts = 9, available_at = now()`);
        await processed();
        const letters = (await api.request('GET', '/api/0/projects/acme/web/dead-letters/')).body;
        expect(letters[0]).toMatchObject({ attempts: 10, reason: 'deadlock detected' });
        expect(await metric('ingest_dead_letters')).toBe(2);
        expect((await api.request('DELETE', `/api/0/projects/acme/web/dead-letters/${letters[0].id}/`)).status).toBe(204);
        expect((await api.request('DELETE', `/api/0/projects/acme/web/dead-letters/${letters[0].id}/`)).status).toBe(404);
      } finally {
        deadlock.mockRestore();
      }
    });

    it('is processed when retried after its cause is gone', async () => {
      const [letter] = (await api.request('GET', '/api/0/projects/acme/web/dead-letters/')).body;
      await database().execute(`ALTER TABLE issues.error_events DROP CONSTRAINT no_poison`);
      const retried = await api.request('POST', `/api/0/projects/acme/web/dead-letters/${letter.id}/retry/`);
      expect([retried.status, retried.body]).toEqual([200, { retried: 1 }]);
      expect((await api.request('POST', `/api/0/projects/acme/web/dead-letters/${letter.id}/retry/`)).status).toBe(404);
      await processed();

      const issues = (await api.request('GET', '/api/0/projects/acme/web/issues/?query=poison')).body;
      expect(issues).toEqual([expect.objectContaining({ title: 'poison pill', count: '1' })]);
      expect((await api.request('GET', '/api/0/projects/acme/web/dead-letters/')).body).toEqual([]);
      expect(await metric('ingest_dead_letters')).toBe(0);
      // Counted when set aside: the poison pill and the flaky event.
      expect(await metric('ingest_dead_letters_total')).toBe(2);
    });
  });
});
