import { FixedClock } from '@faultline/kernel';
import { loadConfig } from '@faultline/platform';
import { openTestDatabase, type TestDatabase } from '../../../../test/support/test-database';
import { MailLogPruner } from './mail-log-pruner.worker';
import { NotificationsRepository } from './notifications.repository';

describe('MailLogPruner', () => {
  let db: TestDatabase;

  beforeAll(async () => {
    db = await openTestDatabase();
  });

  afterAll(async () => {
    await db?.close();
  });

  it('forgets log entries older than the delivery attempts are kept, and keeps the rest', async () => {
    const clock = new FixedClock(new Date('2030-03-01T00:00:00Z'));
    const repository = new NotificationsRepository();
    for (const [guid, at] of [
      ['old', '2030-01-20T00:00:00Z'],
      ['kept', '2030-02-20T00:00:00Z'],
    ]) {
      await db.database.execute(
        `INSERT INTO notifications.mails (organization_id, delivery_guid, recipient, reason, subject, created_at) VALUES (1, $1, 'a@b.c', 'alert', 's', $2)`,
        [guid, at],
      );
    }
    const pruner = new MailLogPruner(db.database, repository, loadConfig({ WEBHOOK_ATTEMPT_RETENTION_DAYS: '30' }), clock);
    pruner.start();
    for (let waited = 0; waited < 5000 && (await repository.mails(db.database, '1', 0, 10)).length > 1; waited += 20)
      await new Promise((resolve) => setTimeout(resolve, 20));
    await pruner.stop();
    expect((await repository.mails(db.database, '1', 0, 10)).map((mail) => mail.delivery_guid)).toEqual(['kept']);
  });
});
