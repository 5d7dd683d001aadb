import { createDataSource, Database, runMigrations } from '@faultline/platform';
import type { DataSource } from 'typeorm';
import { MIGRATIONS } from '../../../../../migrations';
import { createTestDatabaseUrl, dropTestDatabase } from '../../../../../test/support/test-database';
import { answer, WebhookReceiver } from '../../../../../test/support/webhook-receiver';
import { TicketRepository } from '../../infrastructure/ticket.repository';
import { TrackerClient } from '../../infrastructure/tracker.client';
import { TicketTracker1763900000000 } from '../../migrations/1763900000000-ticket-tracker';
import { TicketTrackerSchema1763900000100 } from '../../migrations/1763900000100-ticket-tracker-schema';
import type { TicketTrackerConfig } from '../../ticket-tracker.config';
import { TicketOpener } from './ticket-opener.worker';

/** The module's queue and opener on a real database (core and module migrations) and a real HTTP tracker. */
describe('TicketOpener', () => {
  let url: string | undefined;
  let dataSource: DataSource;
  let database: Database;
  const tracker = new WebhookReceiver();
  const tickets = new TicketRepository();
  let opener: TicketOpener;
  let issueSeq = 100;

  beforeAll(async () => {
    await tracker.start();
    url = await createTestDatabaseUrl();
    dataSource = await createDataSource({
      databaseUrl: url,
      migrations: [...MIGRATIONS, TicketTracker1763900000000, TicketTrackerSchema1763900000100],
      poolSize: 4,
    });
    await dataSource.initialize();
    await runMigrations(dataSource);
    database = new Database(dataSource);
    const config: TicketTrackerConfig = { url: `${tracker.url}/tickets`, timeoutMs: 1000, retrySeconds: [0.05], publicUrl: 'http://faultline.test' };
    opener = new TicketOpener(database, tickets, new TrackerClient(config), config);
  }, 60_000);

  afterAll(async () => {
    await dataSource?.destroy();
    await dropTestDatabase(url);
    await tracker.close();
  });

  const now = () => new Date(Date.now() + 1000).toISOString();

  async function queue(recordedAt = now()): Promise<string> {
    const issueId = String(++issueSeq);
    const subject = {
      issueId,
      organizationId: '1',
      projectId: '2',
      shortId: `WEB-${issueId}`,
      title: 'boom',
      culprit: 'here',
      level: 'error',
      sourceEventId: crypto.randomUUID(),
      recordedAt,
    };
    await database.transaction((tx) => tickets.enqueue(tx, [subject, subject]));
    return issueId;
  }

  const row = async (issueId: string) =>
    (await database.query('SELECT status, attempts, external_id, last_error FROM ticket_tracker.ticket_tracker_tickets WHERE issue_id = $1', [issueId]))[0];

  const drain = async () => {
    while ((await opener.runOnce()) > 0);
  };

  it('queues one ticket per issue, and none for issues recorded before the module was installed', async () => {
    const issueId = await queue();
    expect(await database.query('SELECT count(*)::int AS n FROM ticket_tracker.ticket_tracker_tickets WHERE issue_id = $1', [issueId])).toEqual([{ n: 1 }]);
    const old = await queue('2000-01-01T00:00:00.000Z');
    expect(await row(old)).toBeUndefined();
    await drain();
  });

  it('retries a tracker that is down with the same key, and never calls again once opened', async () => {
    const path = '/tickets';
    let calls = 0;
    tracker.on(path, (_n, _request, response) => (calls++ === 0 ? response.writeHead(503).end('busy') : response.writeHead(201).end('{"id":"T-9"}')));
    const before = tracker.to(path).length;
    const issueId = await queue();
    await opener.runOnce();
    expect(await row(issueId)).toMatchObject({ status: 'pending', attempts: 1, last_error: expect.stringContaining('503') });
    await new Promise((resolve) => setTimeout(resolve, 80));
    await drain();
    expect(await row(issueId)).toMatchObject({ status: 'opened', attempts: 2, external_id: 'T-9', last_error: null });
    await drain();
    const received = tracker.to(path).slice(before);
    expect(received).toHaveLength(2);
    expect(received.map((call) => call.headers['idempotency-key'])).toEqual([`faultline-issue-${issueId}`, `faultline-issue-${issueId}`]);
  });

  it('sends again, with the same key, a ticket whose claimer died mid-call once its lease ends', async () => {
    tracker.on('/tickets', (_n, _request, response) => response.writeHead(201).end('{"id":"T-10"}'));
    const issueId = await queue();
    // A process claims the ticket and dies before recording anything.
    // A lease long enough that a busy machine cannot end it before the next claim looks.
    expect((await tickets.claimDue(database, 10, 1_000)).map((ticket) => String(ticket.issue_id))).toEqual([issueId]);
    const before = tracker.to('/tickets').length;
    expect(await opener.runOnce()).toBe(0); // still leased
    await new Promise((resolve) => setTimeout(resolve, 1_100));
    await drain();
    expect(await row(issueId)).toMatchObject({ status: 'opened', external_id: 'T-10', attempts: 2 });
    expect(
      tracker
        .to('/tickets')
        .slice(before)
        .map((call) => call.headers['idempotency-key']),
    ).toEqual([`faultline-issue-${issueId}`]);
  });

  it('leaves a ticket the tracker refuses as failed, without retrying it', async () => {
    tracker.on('/tickets', answer(422));
    const issueId = await queue();
    await drain();
    await new Promise((resolve) => setTimeout(resolve, 80));
    await drain();
    expect(await row(issueId)).toMatchObject({ status: 'failed', attempts: 1, last_error: 'tracker answered 422: no' });
  });
});
